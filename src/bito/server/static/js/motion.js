// Motion: cards move where they go instead of jumping there. The board is redrawn from each
// frame (board.js), so motion works by "first, last, invert, play": before a redraw,
// snapshot() notes where every card is; after it, animate() starts each card from its old
// place (or from where it came: the stock for a drawn card, the player's seat for a card he
// played) and lets it slide home, and sends a ghost of each card that left the table to the
// discard (bito) or to the taker (take). Only transforms and opacity are animated, with the
// Web Animations API; nothing waits for an animation, so a click or key is never held up,
// and ghosts ignore the pointer. With prefers-reduced-motion: reduce nothing moves at all.

import { backSvg } from "./cards.js";

const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
// Counts for tests and tools.
const stats = { started: 0, ghosts: 0, bito: 0, take: 0 };
window.bitoMotion = stats;

export function motionOn() {
  return !(reduced && reduced.matches) && typeof Element.prototype.animate === "function";
}

const CARDS = "#hand .hand-card[data-card], #board .table-cards .card[data-card], " +
  "#board .known .card[data-card]";

function place(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left, y: r.top, w: r.width, h: r.height };
}

function where(el) {
  if (el.closest("#hand")) return "hand";
  if (el.closest(".table-cards")) return "table";
  return "known";
}

// Where every card is now, by its notation (and where the piles and seats are).
export function snapshot() {
  if (!motionOn()) return null;
  const cards = new Map();
  for (const el of document.querySelectorAll(CARDS)) {
    cards.set(`${where(el)}:${el.dataset.card}`,
              { at: place(el), el, code: el.dataset.card, from: where(el) });
  }
  return { cards };
}

function spot(selector) {
  const el = document.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width || r.height ? { x: r.left, y: r.top, w: r.width, h: r.height } : null;
}

function slide(el, from, opts = {}) {
  const to = place(el);
  const dx = from.x + from.w / 2 - (to.x + to.w / 2);
  const dy = from.y + from.h / 2 - (to.y + to.h / 2);
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2 && !opts.fade) return;
  const scale = from.w && to.w ? Math.max(0.3, Math.min(2, from.w / to.w)) : 1;
  stats.started += 1;
  el.animate([
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: opts.fade ? 0.2 : 1 },
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
  ], { duration: opts.duration || 320, delay: opts.delay || 0, easing: "cubic-bezier(.2,.7,.3,1)",
       fill: "backwards" });
}

// A copy of a card that has left the board, flying from its old place to `to`, then gone:
// for bito ("bito") it is swept aside onto the discard, turning and fading as it lands; for a
// take ("take") it slides into the taker's hand and shrinks there, face still up.
function ghost(old, to, delay, kind) {
  const copy = old.el.cloneNode(true);
  copy.classList.add("ghost-card", `ghost-${kind}`);
  Object.assign(copy.style, { position: "fixed", left: `${old.at.x}px`, top: `${old.at.y}px`,
                              width: `${old.at.w}px`, height: `${old.at.h}px`, margin: "0",
                              pointerEvents: "none", zIndex: "50" });
  copy.setAttribute("aria-hidden", "true");
  document.body.append(copy);
  const dx = to.x + to.w / 2 - (old.at.x + old.at.w / 2);
  const dy = to.y + to.h / 2 - (old.at.y + old.at.h / 2);
  stats.started += 1;
  stats.ghosts += 1;
  stats[kind] = (stats[kind] || 0) + 1;
  const frames = kind === "take"
    ? [{ transform: "translate(0, 0) scale(1)", opacity: 1 },
       { transform: `translate(${dx * 0.7}px, ${dy * 0.7}px) scale(.85)`, opacity: 1, offset: 0.7 },
       { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0.4 }]
    : [{ transform: "translate(0, 0) rotate(0deg)", opacity: 1 },
       { transform: `translate(${dx}px, ${dy}px) rotate(${20 + 6 * (stats.ghosts % 4)}deg) scale(.6)`,
         opacity: 0.15 }];
  const run = copy.animate(frames, { duration: kind === "take" ? 480 : 420, delay,
                                     easing: "ease-in", fill: "forwards" });
  const done = () => copy.remove();
  run.onfinish = done;
  run.oncancel = done;
  setTimeout(done, 1500 + delay);  // never leave a ghost behind, whatever happens
}

// A card back flying from the stock to another player's seat: his draw (or his deal), whose
// faces nobody may see.
function backTo(from, to, delay) {
  const card = backSvg();
  card.classList.add("ghost-card");
  Object.assign(card.style, { position: "fixed", left: `${from.x}px`, top: `${from.y}px`,
                              width: `${Math.min(from.w, 60)}px`, margin: "0",
                              pointerEvents: "none", zIndex: "50" });
  card.setAttribute("aria-hidden", "true");
  document.body.append(card);
  const dx = to.x + to.w / 2 - (from.x + Math.min(from.w, 60) / 2);
  const dy = to.y + to.h / 2 - (from.y + from.h / 2);
  stats.started += 1;
  stats.ghosts += 1;
  const run = card.animate([
    { transform: "translate(0, 0)", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0.2 },
  ], { duration: 380, delay, easing: "ease-out", fill: "both" });
  const done = () => card.remove();
  run.onfinish = done;
  run.oncancel = done;
  setTimeout(done, 1500 + delay);
}

function countOf(frame, seat) {
  const s = ((frame && frame.view && frame.view.seats) || []).find((x) => x.seat === seat);
  return s ? s.count : 0;
}

function pile(frame, name) {
  const p = ((frame && frame.view && frame.view.piles) || []).find((x) => x.name === name);
  return p ? p.count : 0;
}

// After a redraw: move every card from where it was (or came from) to where it is.
export function animate(before, prev, frame) {
  if (!before || !motionOn() || !frame || !frame.view) return;
  const now = new Map();
  for (const el of document.querySelectorAll(CARDS)) now.set(`${where(el)}:${el.dataset.card}`, el);
  const codesNow = new Set([...now.values()].map((el) => el.dataset.card));
  const stock = spot('#board .pile[data-pile="stock"]');
  const mover = frame.last ? frame.last.seat : null;
  const seatBox = (seat) => (seat === frame.you ? spot("#hand") :
    spot(`#board .opponent[data-seat="${seat}"]`));
  let drawn = 0;
  for (const [key, el] of now) {
    const code = el.dataset.card;
    const old = before.cards.get(key) ||
      [...before.cards.values()].find((c) => c.code === code);
    if (old) {
      // a card of the table now in the viewer's hand: his take, the cards slide home
      const taken = old.from === "table" && where(el) === "hand";
      if (taken) stats.take += 1;
      slide(el, old.at, taken ? { duration: 480 } : {});
      continue;
    }
    const kind = where(el);
    if (kind === "hand" && stock && prev) {  // drawn from the stock, or dealt
      slide(el, stock, { delay: 60 * drawn++, fade: true });
    } else if (kind === "table") {  // played by another seat: from his place to the table
      const from = mover !== null ? seatBox(mover) : null;
      if (from) slide(el, from, { duration: 300 });
      else slide(el, { ...place(el), y: place(el).y - 30 }, { fade: true, duration: 250 });
    }
  }
  if (!prev) return;
  // Other players' draws from the stock (and their deal): backs from the stock to their seat.
  const drop = prev.view ? pile(prev, "stock") - pile(frame, "stock") : Infinity;
  if (stock && drop > 0) {
    let flown = 0;
    for (const s of frame.view.seats || []) {
      if (s.seat === frame.you) continue;
      const got = Math.min(s.count - (prev.view ? countOf(prev, s.seat) : 0), drop, 8);
      const box = got > 0 ? seatBox(s.seat) : null;
      for (let i = 0; box && i < got; i++) backTo(stock, box, 60 * (drawn + flown++));
    }
  }
  // Cards that left the table: to the discard (bito) or into the taker's hand (take).
  const gone = [...before.cards.values()].filter((c) => c.from === "table" &&
                                                      !codesNow.has(c.code));
  if (!gone.length) return;
  // Bito when the discard grew; else a take: the cards go to the seat that defended the bout
  // (others may have drawn too, so "whose count grew" alone could name a thrower).
  let target = null;
  let kind = "bito";
  if (pile(frame, "discard") > pile(prev, "discard") || !prev.view) {
    target = spot('#board .pile[data-pile="discard"]');
  } else {
    const defender = ((prev.view.seats) || []).find((s) => s.role === "defender");
    const taker = defender || ((frame.view.seats) || []).find((s) => s.count > countOf(prev, s.seat));
    target = taker ? seatBox(taker.seat) : null;
    kind = target ? "take" : "bito";
  }
  target = target || spot('#board .pile[data-pile="discard"]');
  if (!target) return;
  gone.forEach((c, i) => ghost(c, target, 30 * i, kind));
}
