// Short sounds, synthesised with the Web Audio API (no sound files to ship or license): your
// turn, a card played, take, bito, the end. A header button turns them on and off; the choice
// is remembered in localStorage. Browsers start audio only after a gesture, so the audio
// context is made (or resumed) on the first click or key press; sounds before it are skipped.
import { t } from "./i18n.js";

const STORE = "bito:sound";
// Counts for tests and tools: what was asked for, and what reached the audio graph.
const stats = { asked: [], played: 0, failed: 0 };
window.bitoSound = stats;
let ctx = null;

export function soundOn() { return localStorage.getItem(STORE) !== "off"; }

function context() {
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return null;
  if (!ctx) ctx = new Audio();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

// Each sound: notes [frequency Hz, start s, length s], an oscillator shape and a loudness.
const SOUNDS = {
  turn: { wave: "sine", gain: 0.18, notes: [[660, 0, 0.11], [880, 0.12, 0.16]] },
  card: { wave: "triangle", gain: 0.22, notes: [[320, 0, 0.05], [240, 0.03, 0.05]] },
  take: { wave: "sawtooth", gain: 0.07, notes: [[392, 0, 0.1], [330, 0.1, 0.1], [262, 0.2, 0.18]] },
  bito: { wave: "triangle", gain: 0.18, notes: [[523, 0, 0.07], [392, 0.07, 0.07], [784, 0.14, 0.12]] },
  end: { wave: "sine", gain: 0.2, notes: [[523, 0, 0.14], [659, 0.15, 0.14], [784, 0.3, 0.3]] },
};

export function play(name) {
  const sound = SOUNDS[name];
  if (!sound || !soundOn()) return;
  stats.asked.push(name);
  try {
    const audio = context();
    if (!audio || audio.state !== "running") return;
    const now = audio.currentTime;
    for (const [freq, start, length] of sound.notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = sound.wave;
      osc.frequency.value = freq;
      // A quick attack and an exponential fade: a click-free short note.
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(sound.gain, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
    stats.played += 1;
  } catch (e) {
    stats.failed += 1;  // a sound is never worth an error in the game
  }
}

function tableCount(frame) { return (frame && frame.view && frame.view.table || []).length; }
function pileCount(frame, name) {
  const pile = ((frame && frame.view && frame.view.piles) || []).find((p) => p.name === name);
  return pile ? pile.count : 0;
}

// The sounds one new frame calls for, given the one before it.
export function soundsFor(prev, frame, myTurn, wasMyTurn) {
  if (!prev || !frame || frame.n === prev.n) return [];
  const out = [];
  if (frame.status === "over" && prev.status !== "over") return ["end"];
  const before = tableCount(prev);
  const now = tableCount(frame);
  if (before && !now) {
    out.push(pileCount(frame, "discard") > pileCount(prev, "discard") ? "bito" : "take");
  } else if (now > before || (frame.last && (frame.last.cards || []).length)) {
    out.push("card");
  }
  if (myTurn && !wasMyTurn) out.push("turn");
  return out;
}

function toggleButton() {
  const header = document.querySelector("header");
  if (!header || document.getElementById("sound-toggle")) return;
  const button = document.createElement("button");
  button.id = "sound-toggle";
  button.type = "button";
  button.className = "sound-toggle";
  const show = () => {
    const on = soundOn();
    button.setAttribute("aria-pressed", String(on));
    const words = on ? t("page.sound_on", "Sound on") : t("page.sound_off", "Sound off");
    // The words hide on a phone (the note alone stays); the button's name keeps them.
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = ` ${words}`;
    button.replaceChildren(on ? "♪" : "♪̸", label);
    button.setAttribute("aria-label", words);
  };
  button.addEventListener("click", () => {
    localStorage.setItem(STORE, soundOn() ? "off" : "on");
    show();
    if (soundOn()) play("card");
  });
  show();
  header.append(button);
}

// Audio may start only after a gesture: make the context on the first one.
for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => { if (soundOn()) context(); }, { once: true, capture: true });
}

export function setupSound() {
  toggleButton();
  if (soundOn()) {
    try { context(); } catch (e) { stats.failed += 1; }
  }
}
