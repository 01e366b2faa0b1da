// Draws one view frame (the JSON of bito.server.render) into the page. The same code serves
// every game family: hand, table pairs, seats with counts and known cards, piles, status.
import { cardSvg, backSvg, cardLabel } from "./cards.js";

// Texts go through one helper so they can be translated (js/i18n.js defines window.t; until it
// is loaded, the English fallback is shown).
export const tr = (key, fallback) => (typeof window.t === "function" ? window.t(key, fallback) : fallback);

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

const KIND_WORDS = { attack: "attack", defend: "cover", transfer: "transfer",
                     take: "take", pass: "pass" };

// A readable label for a legal action or a log entry.
export function actionLabel(a) {
  const cards = (a.cards || []).map(cardLabel).join(" ");
  if (a.kind === "defend") return `cover ${cardLabel(a.target)} with ${cards}`;
  if (a.kind === "transfer") return `transfer with ${cards}`;
  if (a.kind === "take") return "take the cards";
  if (a.kind === "pass") return "pass (bito)";
  if (a.kind === "attack") return `${cards}`;
  if (a.kind && a.kind.startsWith("blind")) {  // #58: by position; the card once turned up
    const card = (cards ? ` (${cards})` : "") + (a.illegal ? ": illegal, takes the bout" : "");
    if (a.kind === "blind cover") return `cover ${cardLabel(a.target)} with #${a.position}${card}`;
    if (a.kind === "blind transfer") return `transfer with #${a.position}${card}`;
    return `play #${a.position}${card}`;
  }
  // Any other move with cards (a variant's own kind, another family's play): its name and
  // the cards, e.g. "show trump 7♥".
  if (cards && a.kind) return `${a.kind} ${cards}`;
  return a.text;
}

// "offline" for a player whose connection is gone, "bot playing" for one covered by a bot.
function presence(seat) {
  if (!seat || seat.kind === "bot" || seat.connected === undefined) return null;
  if (seat.kind === "away") return h("span", { class: "presence" }, " · bot playing");
  return seat.connected ? null : h("span", { class: "presence" }, " · offline");
}

export function seatName(seats, i) {
  const s = seats && seats[i];
  return s && s.name ? s.name : `seat ${i}`;
}

export function outcomeText(outcome, seats) {
  if (!outcome) return "";
  if (outcome.draw) return "A draw: nobody is the fool.";
  if (outcome.loser === null || outcome.loser === undefined) return "Game over.";
  return `${seatName(seats, outcome.loser)} is the fool (дурак).`;
}

// The seats in the order play goes round (the next seat after `me` first, `me` last), so the
// row reads as the table does from one's own chair.
export function playOrder(all, me) {
  const start = me === null || me === undefined ? 0 : me + 1;
  return all.map((_, i) => all[(start + i) % all.length]);
}

function seatBox(view, s, seats, opts, mine) {
  const acting = view.to_act === s.seat || (view.decider !== undefined && view.decider === s.seat);
  const box = h("div", { class: "opponent" + (acting ? " acting" : "") + (mine ? " my-seat" : ""),
                         "data-seat": s.seat, "aria-current": acting ? "true" : null },
    h("div", { class: "who" }, mine ? tr("table.you", "You") + " · " : "", seatName(seats, s.seat),
      s.role ? h("span", { class: "role" }, ` ${s.role}`) : null,
      presence(seats && seats[s.seat])),
    h("div", { class: "count" }, `${s.count} card${s.count === 1 ? "" : "s"}`),
    acting ? h("div", { class: "turn-flag" }, mine ? tr("table.your_turn", "your turn")
                                                  : tr("table.to_act", "to act")) : null);
  const shown = opts.hands ? opts.hands[s.seat] : (mine ? null : s.known);
  if (shown && shown.length) {
    box.append(h("div", { class: "known" + (opts.hands ? " open" : "") },
                 shown.map((c) => cardSvg(c, { title: opts.hands ? "" : "known to all" }))));
  }
  return box;
}

// Draws the seats (in play order, one's own box last), the table, the piles and, with
// `hands`, every hand (the replay).
export function drawBoard(root, view, seats, opts = {}) {
  root.replaceChildren();
  const me = view.seat;
  const opponents = h("div", { class: "opponents", "aria-label": tr("table.order", "seats in order of play") });
  const order = playOrder(view.seats || [], opts.hands ? null : me);
  order.forEach((s, i) => {
    if (s.seat === me && !opts.hands) return;
    if (i > 0) opponents.append(h("span", { class: "direction", "aria-hidden": "true" }, "→"));
    opponents.append(seatBox(view, s, seats, opts, false));
  });
  root.append(h("div", { class: "play-order" }, tr("table.direction", "play goes round →")), opponents);

  const middle = h("div", { class: "middle" });
  const piles = h("div", { class: "piles" });
  for (const p of view.piles || []) {
    // An empty pile is an empty place on the felt, never a card back labelled 0.
    const empty = p.count === 0;
    const pile = h("div", { class: "pile" + (empty ? " empty" : ""), "data-pile": p.name },
      p.top ? cardSvg(p.top, { title: "trump card" }) : null,
      empty ? (p.top ? null : h("div", { class: "card-place", "aria-hidden": "true" })) : backSvg(p.count),
      h("div", { class: "pile-name" }, empty ? `${p.name}: ${tr("table.empty", "empty")}` : `${p.name}: ${p.count}`));
    piles.append(pile);
  }
  if (view.trump_suits && view.trump_suits.length) {
    const sym = { c: "♣", d: "♦", h: "♥", s: "♠" };
    piles.append(h("div", { class: "trump-suit" }, "trump ",
                   view.trump_suits.map((s) => sym[s]).join(" ")));
  }
  middle.append(piles);
  const table = h("div", { class: "table-cards", id: "table-drop" });
  (view.table || []).forEach((pair) => {
    const slot = h("div", { class: "pair" + (pair.cover ? " covered" : " open"),
                            "data-attack": pair.attack.c });
    slot.append(cardSvg(pair.attack));
    if (pair.cover) {
      const cover = cardSvg(pair.cover);
      cover.classList.add("cover");
      slot.append(cover);
    }
    table.append(slot);
  });
  if (!(view.table || []).length) table.append(h("div", { class: "empty-table" }, "table"));
  if (view.taking) {  // the defender said "take": the throwers may still add cards
    const taker = (view.seats || []).find((s) => s.role === "defender");
    table.classList.add("taking");
    table.append(h("div", { class: "taking-banner", id: "taking" },
      `${taker ? seatName(seats, taker.seat) : tr("table.defender", "the defender")} ${tr("table.takes", "takes")}`));
  }
  middle.append(table);
  if (view.text) middle.append(h("pre", { class: "view-text" }, view.text));
  root.append(middle);
  const mine = !opts.hands && me !== null && me !== undefined &&
    (view.seats || []).find((s) => s.seat === me);
  if (mine) root.append(seatBox(view, mine, seats, opts, true));
  return { table };
}
