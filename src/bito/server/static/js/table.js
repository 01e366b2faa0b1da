// The table page: join or watch, the ready-check, then play by click, drag or keyboard.
import { t, variantName, houseRules } from "./i18n.js";
import { backSvg, cardSvg, cardName } from "./cards.js";
import { h, drawBoard, actionLabel, seatName, outcomeText, doingWord, displayName } from "./board.js";
import { play, setupSound, soundsFor } from "./sound.js";
import { snapshot, animate } from "./motion.js";
import { createChat } from "./talk.js";
import { drawEnd, scoreText, showOffline } from "./between.js";
import { adoptSeat, createMoveButton, recoverSeat } from "./seatmove.js";
import "./accountbar.js";

const tableId = location.pathname.split("/").pop();
const key = `bito:${tableId}`;
let mine = JSON.parse(localStorage.getItem(key) || "null"); // {token, seat}
let frame = null;
let socket = null;
let selected = null;       // a hand card waiting for its target
let multi = new Set();     // cards picked for a several-card lead
let deadline = null;
let retry = 500;
let spectating = false;
let everOpen = false;      // the overlay is for a connection lost, not one still opening
let following = false;     // on the way to the match's next deal

const $ = (id) => document.getElementById(id);
// Every deal of a match lives at "<first table>.<deal>": the mute list is the match's.
const devices = createMoveButton(tableId, () => (mine ? mine.token : null));
const chat = createChat({ root: $("chat"), send: (m) => send(m), matchId: tableId.split(".")[0] });

function say(text, kind = "info") {
  const box = $("message");
  box.textContent = text;
  box.className = `message ${kind}`;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else say(t("msg.not_connected", "Not connected — reconnecting…"), "error");
}

function act(text) {
  selected = null;
  multi.clear();
  send({ type: "act", action: text });
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // The seat's token travels as a subprotocol, never in the URL (URLs end up in logs).
  const protocols = mine ? ["bito", `bito.token.${mine.token}`] : ["bito"];
  socket = new WebSocket(`${proto}://${location.host}/ws/${tableId}`, protocols);
  socket.onopen = () => {
    retry = 500; everOpen = true;
    chat.clear();
    $("conn").textContent = t("conn.connected", "connected");
    showOffline($("offline"), $("game"), false, frame);
  };
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") {
      if (frame && msg.n !== frame.n) say("");  // a move was made: old messages are stale
      // Full frames carry the recent moves; the others only the latest, to append.
      if (!msg.log) {
        const log = frame ? frame.log.slice() : [];
        if (msg.last && (!frame || msg.n > frame.n)) log.push(msg.last);
        msg.log = log.slice(-20);
      }
      const prev = frame;
      frame = msg;
      render(prev);
      readyIfAsked();
      devices.update(Boolean(mine) && msg.you !== null && msg.status !== "over");
    }
    else if (msg.type === "chat") chat.add(msg, frame ? frame.you : null);
    else if (msg.type === "error") {
      say(msg.message, "error");
      if (msg.code === "token" || msg.request === "moved" || /seat token is not valid/.test(msg.message)) {
        localStorage.removeItem(key);  // a dead token, or the seat went on elsewhere: watch
        mine = null;
        devices.update(false);
      }
    }
  };
  socket.onclose = () => {
    $("conn").textContent = t("conn.reconnecting", "reconnecting…");
    if (everOpen) showOffline($("offline"), $("game"), true, frame);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

async function join(ev) {
  ev.preventDefault();
  const name = $("join-name").value;
  const res = await fetch(`/api/tables/${tableId}/join`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }) });
  const body = await res.json();
  if (!res.ok) { say(body.error, "error"); return; }
  mine = { token: body.token, seat: body.seat };
  localStorage.setItem(key, JSON.stringify(mine));
  socket.onclose = null;
  socket.close();
  connect();
}

function renderWaiting() {
  const box = $("waiting");
  box.replaceChildren();
  box.hidden = frame.status !== "waiting";
  if (box.hidden) return;
  const link = `${location.origin}/t/${tableId}`;
  box.append(h("p", {}, `${t("waiting.share", "Share this link with your friends:")} `,
    h("input", { class: "share", readonly: "", value: link, "aria-label": t("waiting.share", "Share this link with your friends:"),
                 onclick: (e) => e.target.select() })));
  const list = h("ul", { class: "seats" });
  for (const s of frame.seats) {
    const li = h("li", { "data-seat": s.seat },
      `${t("waiting.seat", "Seat {n}:", { n: s.seat })} `,
      s.kind === "open" ? h("em", {}, t("waiting.open", "open")) : displayName(s),
      // a bot's display name carries its level already; an older table's may not
      s.kind === "bot" && !s.name.endsWith(`(${s.bot})`) ? ` (${t(`bot.${s.bot}`, s.bot)})` : "",
      s.kind !== "open" ? ` ${s.ready ? t("waiting.ready_mark", "✔ ready")
        : t("waiting.not_ready", "… not ready")}` : "");
    if (frame.you === 0 && s.seat > 0 && s.kind !== "human") {
      const pick = h("select", { class: "bot-level",
                                 "aria-label": t("waiting.bot_for", "bot for seat {n}", { n: s.seat }) },
        h("option", { value: "" }, t("waiting.open_for_friend", "open for a friend")),
        (window.bitoBots || []).map((b) => h("option", { value: b, selected: s.bot === b },
                                               t(`bot.${b}`, b))));
      pick.addEventListener("change", () => send({ type: "bot", seat: s.seat,
                                                     bot: pick.value || null }));
      li.append(" ", pick);
    }
    if (frame.you === 0 && s.seat > 0 && s.kind === "human" && !s.ready) {
      // The ready-check: a person who never presses Ready may be freed after its time-out
      // (the server says how long is left when asked too early).
      li.append(" ", h("button", { class: "kick", "data-seat": s.seat,
                                   onclick: () => send({ type: "kick", seat: s.seat }) },
                       t("waiting.free", "Free this seat")));
    }
    list.append(li);
  }
  box.append(list);
  const me = frame.you !== null && frame.seats[frame.you];
  if (me) {
    box.append(h("button", { id: "ready", disabled: me.ready,
                             onclick: () => send({ type: "ready" }) },
                 me.ready ? t("waiting.wait_others", "Waiting for the others…")
                   : t("waiting.ready", "Ready")));
  }
}

function renderJoin() {
  const show = !mine && !spectating && frame && frame.status === "waiting" &&
    frame.seats.some((s) => s.kind === "open");
  $("join").hidden = !show;
}

function legal() { return (frame.view && frame.view.legal) || []; }

function clickCard(code, ev) {
  const moves = legal();
  const single = moves.filter((a) => a.cards.length === 1 && a.cards[0] === code);
  const several = moves.filter((a) => a.cards.length > 1 && a.cards.includes(code));
  if (several.length && (multi.size || !single.length || (ev && ev.shiftKey))) {
    multi.has(code) ? multi.delete(code) : multi.add(code);
    selected = null;
    render();
    return;
  }
  if (single.length === 1) { act(single[0].text); return; }
  if (single.length > 1 && !single.some((a) => a.target)) {
    // one card, several ways to play it (a suit to call with it): the moves stand out below
    selected = code;
    render();
    say(t("msg.choose_move", "Now choose how to play it: {moves}.",
          { moves: single.map((a) => actionLabel(a)).join("; ") }));
    return;
  }
  if (single.length > 1) {
    selected = code;
    render();
    say(t("msg.choose_cover", "Now choose the card to cover (or transfer)."));
    return;
  }
  // Not legal: send it anyway so the server names the rule it breaks.
  const v = frame.view;
  const open = (v.table || []).filter((p) => !p.cover);
  if (v.phase === "defend" && v.to_act === v.seat && open.length) act(`${code}>${open[0].attack.c}`);
  else act(code);
}

function dropOn(code, target) {
  const moves = legal();
  const defends = moves.some((a) => a.kind === "defend");
  // On a card while defending: cover it. Anywhere else (or while attacking): play the card.
  if (target && (defends || !moves.length)) { act(`${code}>${target}`); return; }
  const transfer = moves.find((a) => a.kind === "transfer" && a.cards[0] === code);
  act(transfer ? transfer.text : code);
}

// #58: a hand held face out is a row of numbered backs; a click plays that position (or,
// when it could cover several cards, waits for the card to cover).
function clickPosition(i) {
  const code = `#${i}`;
  const moves = legal().filter((a) => a.position === i);
  if (moves.length === 1) { act(moves[0].text); return; }
  if (moves.length > 1) {
    selected = code;
    render();
    say(t("msg.choose_cover_blind", "Now choose the card to cover."));
    return;
  }
  act(code);  // not legal: the server names the rule
}

// A picture whose words the button around it says already.
function hidden(svg) { svg.setAttribute("aria-hidden", "true"); return svg; }

function renderHand(view) {
  const hand = $("hand");
  hand.replaceChildren();
  const moves = legal();
  if (view.face_out && view.blind_hand !== undefined) {
    for (let i = 1; i <= view.blind_hand; i++) {
      const code = `#${i}`;
      const wrap = h("button", { class: "hand-card blind" + (moves.some((a) => a.position === i) ? " playable" : "") +
                                  (selected === code ? " selected" : ""),
                                 draggable: "true", "data-card": code,
                                 "data-position": i },
                         hidden(backSvg(code)),
                         h("span", { class: "sr-only" },
                           t("action.blind_position", "play the card at position {n}", { n: i })));
      wrap.addEventListener("click", () => clickPosition(i));
      wrap.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", code));
      hand.append(wrap);
    }
    return;
  }
  const playable = new Set(moves.flatMap((a) => a.cards));
  // On one's turn the cards that can be played stand up and the rest step back.
  hand.classList.toggle("my-turn", moves.length > 0);
  for (const card of view.hand || []) {
    const wrap = h("button", { class: "hand-card" + (playable.has(card.c) ? " playable" : "") +
                                (selected === card.c || multi.has(card.c) ? " selected" : ""),
                               draggable: "true", "data-card": card.c,
                               "aria-pressed": selected === card.c || multi.has(card.c) ? "true" : "false" },
                     hidden(cardSvg(card)),
                     h("span", { class: "sr-only" }, card.trump
                       ? t("card.trump", "{card}, trump", { card: cardName(card.c) }) : cardName(card.c)));
    wrap.addEventListener("click", (e) => clickCard(card.c, e));
    wrap.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", card.c));
    hand.append(wrap);
  }
}

function renderActions(view) {
  const box = $("actions");
  box.replaceChildren();
  const moves = legal();
  if (!moves.length) return;
  const chosen = [...multi].sort().join("+");
  for (const a of moves) {
    const hot = (selected && a.cards.includes(selected)) ||
      (multi.size && [...a.cards].sort().join("+") === chosen);
    const key = a.kind === "take" ? " [T]" : a.kind === "pass" ? " [P]" : "";
    // Seen: the short form ("cover 8♠ with A♥"); heard: the cards in words ("cover 8 of
    // spades with ace of hearts"), as the button's content, so its name is what it says.
    box.append(h("button", { class: "action" + (hot ? " hot" : ""), "data-action": a.text,
                             "data-kind": a.kind, "data-cards": (a.cards || []).join(" "),
                             onclick: () => act(a.text) },
                 h("span", { "aria-hidden": "true" }, actionLabel(a) + key),
                 h("span", { class: "sr-only" }, actionLabel(a, true))));
  }
}

function renderLog() {
  const box = $("log");
  box.replaceChildren();
  for (const e of [...frame.log].reverse().slice(0, 20)) {
    const how = e.how === "timeout" ? ` ${t("log.timeout", "(time ran out)")}` : "";
    box.append(h("li", {}, `${seatName(frame.seats, e.seat)}: ${actionLabel(e)}${how}`));
  }
}

function statusLine() {
  const v = frame.view;
  if (frame.status === "waiting") return t("status.waiting", "Waiting for every seat to be filled and ready.");
  if (frame.status === "over" || (v && v.outcome)) return outcomeText(frame.outcome || v.outcome, frame.seats);
  const who = seatName(frame.seats, v.to_act);
  // What the seat to act does, in the third person ("leads an attack"); what one is asked to
  // do oneself, said to one ("lead an attack"), when the game words it (the table model's
  // prompt); else one's own moves are the buttons below.
  const doing = doingWord(v.doing);
  const asked = doingWord(v.prompt);
  // #57: the controller of a playing dummy also makes the dummy's moves (v.decider).
  const mine = v.to_act === frame.you ? "own" : v.decider === frame.you ? "for" : null;
  if (mine === "own") {
    return asked ? t("status.your_turn", "Your turn: {doing}.", { doing: asked })
      : t("status.your_turn_plain", "Your turn.");
  }
  if (mine === "for" && asked) {
    return t("status.your_turn_for", "Your turn for {who}, whose hand is shown: {doing}.", { who, doing: asked });
  }
  if (mine === "for") return t("status.your_turn_plain", "Your turn.");
  return doing ? t("status.doing", "{who} {doing}.", { who, doing })
    : t("status.to_act_plain", "{who} to act.", { who });
}

// Which control had the keyboard, so a redraw gives it back (else every move would send a
// keyboard player's focus back to the top of the page).
function focusKey() {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  if (el.dataset.card && el.closest("#hand")) return { sel: "#hand", card: el.dataset.card };
  if (el.dataset.action) return { sel: "#actions", action: el.dataset.action };
  if (el.dataset.attack) return { sel: "#board", attack: el.dataset.attack };
  return null;
}

// Where the keyboard goes when a redraw took its control away, or when it was nowhere: the
// hand (a card that can be played first), so a keyboard player is always one key from a move.
function focusHand() {
  const hand = $("hand");
  const next = hand.querySelector(".hand-card.playable") || hand.querySelector("button") ||
    $("actions").querySelector("button");
  if (next) next.focus({ preventScroll: true });
}

function restoreFocus(was) {
  const nowhere = !document.activeElement || document.activeElement === document.body;
  if (!was) {
    if (nowhere && mine && frame && frame.status === "playing" && frame.you !== null) focusHand();
    return;
  }
  if (!nowhere) return;
  const box = document.querySelector(was.sel);
  if (!box) return;
  const same = was.card ? box.querySelector(`[data-card="${was.card}"]`)
    : was.action ? box.querySelector(`[data-action="${CSS.escape(was.action)}"]`)
    : box.querySelector(`.pair.target[data-attack="${was.attack}"]`);
  // The same control if it is still there, else the first of its group, else the first move.
  const next = same || box.querySelector("button, [tabindex='0']") ||
    $("hand").querySelector("button") || $("actions").querySelector("button");
  if (next) next.focus({ preventScroll: true });
}

function render(prev = frame) {
  if (!frame) return;
  const focused = focusKey();
  const wasMyTurn = document.body.dataset.myTurn === "true";
  // For people: nothing. For tests and tools: the frame number and whose turn it is.
  document.body.dataset.n = frame.n;
  document.body.dataset.status = frame.status;
  document.body.dataset.myTurn = String(!!(frame.view && (frame.view.decider ?? frame.view.to_act) === frame.you &&
                                           frame.you !== null && frame.status === "playing"));
  // The game's name in words; its house rules (not the raw spec) on hover.
  const game = frame.game || { id: String(frame.variant).split("+")[0], name: frame.variant, rules: [] };
  $("variant").textContent = variantName(game.id, game.name);
  $("variant").title = game.rules.length
    ? `${t("table.house_rules", "House rules")}:\n${houseRules(game).join("\n")}`
    : t("table.no_house_rules", "No house rules: the game as the catalogue describes it.");
  if (followNext()) return;
  drawEnd($("end"), frame, send);
  $("score").textContent = scoreText(frame);
  chat.setNote(frame);
  renderJoin();
  renderWaiting();
  const v = frame.view;
  const me = frame.you !== null ? frame.seats[frame.you] : null;
  $("you").textContent = me ? t("you.are", "You are {name} (seat {seat})", { name: me.name, seat: frame.you })
    : t("you.watching", "You are watching");
  $("away").hidden = !(me && me.kind === "away");
  $("status").textContent = statusLine();
  $("game").hidden = !v;
  document.querySelector(".keys").hidden = !me;
  deadline = frame.deadline_in !== null ? Date.now() + frame.deadline_in * 1000 : null;
  tick();
  const myTurn = document.body.dataset.myTurn === "true";
  if (prev !== frame) for (const name of soundsFor(prev, frame, myTurn, wasMyTurn)) play(name);
  if (!v) return;
  const before = prev !== frame ? snapshot() : null;
  const latest = frame.log && frame.log.length ? frame.log[frame.log.length - 1] : null;
  const { table } = drawBoard($("board"), v, frame.seats, { last: latest ? latest.cards : [] });
  table.addEventListener("dragover", (e) => e.preventDefault());
  table.addEventListener("drop", (e) => {
    e.preventDefault();
    const pair = e.target.closest(".pair.open");
    dropOn(e.dataTransfer.getData("text/plain"), pair ? pair.dataset.attack : null);
  });
  table.addEventListener("click", (e) => {
    if (!selected) return;
    const pair = e.target.closest(".pair.open");
    dropOn(selected, pair ? pair.dataset.attack : null);
  });
  for (const pair of table.querySelectorAll(".pair.open")) {
    if (selected && legal().some((a) => (a.cards[0] === selected || `#${a.position}` === selected) &&
                                        a.target === pair.dataset.attack)) {
      pair.classList.add("target");
      // A keyboard player picks the card to cover like a button.
      const attack = pair.dataset.attack;
      pair.tabIndex = 0;
      pair.setAttribute("role", "button");
      pair.setAttribute("aria-label", t("cover.target", "cover {card}", { card: cardName(attack) }));
      pair.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); dropOn(selected, attack); }
      });
    }
  }
  renderHand(v);
  renderActions(v);
  renderLog();
  animate(before, prev === frame ? null : prev, frame);
  restoreFocus(focused);
  const done = frame.status === "over";
  const link = done || mine ? h("a", { href: `/api/tables/${tableId}/record`, id: "download" },
                                done ? t("download.full", "Download the full record")
                                  : t("download.mine", "Download my record")) : "";
  if (link && !done) link.onclick = downloadMine;
  $("downloads").replaceChildren(
    link,
    done ? h("a", { href: `/replay/${tableId}`, id: "replay-link" },
             ` · ${t("download.replay", "Replay")}`) : "",
    done && mine ? h("a", { href: `/replay/${tableId}#review`, id: "review-link" },
                     ` · ${t("review.open", "Review this game")}`) : "");
}

// "Play against bots" in the lobby comes here with #ready: press Ready once, for the person.
function readyIfAsked() {
  if (location.hash !== "#ready" || !frame) return;
  const me = frame.you !== null && frame.you !== undefined ? frame.seats[frame.you] : null;
  if (frame.status === "waiting" && me && !me.ready) send({ type: "ready" });
  if (frame.status !== "waiting" || (me && me.ready)) {
    history.replaceState(null, "", location.pathname + location.search);
  }
}

// A rematch was agreed: the next deal is a table of its own; the seat's token goes with us.
function followNext() {
  const next = frame.rematch && frame.rematch.next;
  if (!next || following) return following;
  following = true;
  if (mine) localStorage.setItem(`bito:${next}`, JSON.stringify(mine));
  if (socket) { socket.onclose = null; socket.close(); }
  location.replace(`/t/${next}`);
  return true;
}

// During play the record is the seat's own: a single-use ticket, asked for with the token in a
// header, goes in the link (never the token itself).
async function downloadMine(ev) {
  ev.preventDefault();
  const res = await fetch(`/api/tables/${tableId}/ticket`, {
    method: "POST", headers: { "X-Bito-Token": mine.token } });
  const body = await res.json();
  if (!res.ok) { say(body.error, "error"); return; }
  location.href = body.link;
}

function tick() {
  const box = $("timer");
  if (deadline === null || !frame || frame.status !== "playing") { box.textContent = ""; return; }
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  box.textContent = t("timer.left", "time left: {s} s", { s: left });
  box.classList.toggle("low", left <= 5);
}

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || !frame) return;
  const k = e.key.toLowerCase();
  const find = (kind) => legal().find((a) => a.kind === kind || a.text === kind);
  if (k === "t") {
    const a = find("take");
    if (a) act(a.text); else say(t("msg.cannot_take", "You cannot take now."), "error");
  } else if (k === "p" || k === "b") {
    const a = find("pass");
    if (a) act(a.text); else say(t("msg.cannot_pass", "You cannot pass now."), "error");
  }
  else if (k === "escape") { selected = null; multi.clear(); render(); }
});

// Arrow keys walk the hand (Home and End to its ends), so reaching a card is one key, not a
// string of Tabs.
$("hand").addEventListener("keydown", (e) => {
  const cards = [...$("hand").querySelectorAll("button")];
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  let j = null;
  if (step) j = (i + step + cards.length) % cards.length;
  else if (e.key === "Home") j = 0;
  else if (e.key === "End") j = cards.length - 1;
  if (j === null) return;
  e.preventDefault();
  cards[j].focus();
});
$("skip-to-hand").addEventListener("click", (e) => { e.preventDefault(); focusHand(); });

$("join-form").addEventListener("submit", join);
$("watch").addEventListener("click", () => { spectating = true; render(); });
$("back").addEventListener("click", () => send({ type: "back" }));
setupSound();
setInterval(tick, 250);
fetch("/api/variants").then((r) => r.json()).then((d) => { window.bitoBots = d.bots; render(); });
// No seat on this device yet: a "continue on another device" link, or the account's own seat.
if (!mine || location.hash.startsWith("#continue=")) {
  const got = await recoverSeat(tableId);
  if (got && got.token) {
    mine = { token: got.token, seat: got.seat };
    localStorage.setItem(key, JSON.stringify(mine));
  } else if (got && got.error) say(got.error, "error");
} else adoptSeat(tableId, mine.token);
connect();
