// Draws one view frame (the JSON of bito.server.render) into the page. The same code serves
// every game family: hand, table pairs, seats with counts and known cards, piles, status.
import { cardSvg, backSvg, cardLabel, cardName } from "./cards.js";
import { t, tn } from "./i18n.js";

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

// A readable label for a legal action or a log entry; `named` spells the cards out ("7 of
// hearts") for a screen reader, else they are short ("7♥").
export function actionLabel(a, named = false) {
  const label = named ? cardName : cardLabel;
  const cards = (a.cards || []).map(label).join(" ");
  if (a.kind === "defend") {
    return t("action.cover", "cover {target} with {cards}", { target: label(a.target), cards });
  }
  if (a.kind === "transfer") return t("action.transfer", "transfer with {cards}", { cards });
  if (a.kind === "take") return t("action.take", "take the cards");
  if (a.kind === "pass") return t("action.pass", "pass (bito)");
  if (a.kind === "attack") return named ? t("action.play", "play {cards}", { cards }) : `${cards}`;
  if (a.kind && a.kind.startsWith("blind")) {  // #58: by position; the card once turned up
    const card = (cards ? ` (${cards})` : "") +
      (a.illegal ? `: ${t("action.blind_illegal", "illegal, takes the bout")}` : "");
    const position = a.position;
    if (a.kind === "blind cover") {
      return t("action.blind_cover", "cover {target} with #{position}",
               { target: label(a.target), position }) + card;
    }
    if (a.kind === "blind transfer") {
      return t("action.blind_transfer", "transfer with #{position}", { position }) + card;
    }
    return t("action.blind_play", "play #{position}", { position }) + card;
  }
  // Any other move with cards (a variant's own kind, another family's play): its name and
  // the cards, e.g. "show trump 7♥".
  if (cards && a.kind) return `${a.kind} ${cards}`;
  return a.text;
}

// "offline" for a player whose connection is gone, "bot playing" for one covered by a bot.
function presence(seat) {
  if (!seat || seat.kind === "bot" || seat.connected === undefined) return null;
  if (seat.kind === "away") {
    return h("span", { class: "presence" }, ` · ${t("presence.away", "bot playing")}`);
  }
  return seat.connected ? null
    : h("span", { class: "presence" }, ` · ${t("presence.offline", "offline")}`);
}

export function seatName(seats, i) {
  const s = seats && seats[i];
  return s && s.name ? s.name : t("seat.default", "seat {n}", { n: i });
}

export function outcomeText(outcome, seats) {
  if (!outcome) return "";
  if (outcome.draw) return t("outcome.draw", "A draw: nobody is the fool.");
  if (outcome.loser === null || outcome.loser === undefined) return t("outcome.over", "Game over.");
  return t("outcome.fool", "{name} is the fool (дурак).", { name: seatName(seats, outcome.loser) });
}

const ROLE_KEYS = { attacker: "role.attacker", defender: "role.defender", out: "role.out" };
const DOING_KEYS = { "lead an attack": "doing.lead", "cover, transfer or take": "doing.defend",
                     "throw in or pass": "doing.throw", "cover or take": "doing.cover_or_take" };

// The server's words for a role and for what the seat to act does, in the page's language
// (another family's own words stay as they come).
export function roleWord(role) { return ROLE_KEYS[role] ? t(ROLE_KEYS[role], role) : role; }
export function doingWord(doing) { return DOING_KEYS[doing] ? t(DOING_KEYS[doing], doing) : doing;
}

// Draws the opponents, the table, the piles and (unless `hands` is given) the seat's hand.
export function drawBoard(root, view, seats, opts = {}) {
  root.replaceChildren();
  const me = view.seat;
  const opponents = h("div", { class: "opponents" });
  for (const s of view.seats || []) {
    if (s.seat === me && !opts.hands) continue;
    const box = h("div", { class: "opponent" + (view.to_act === s.seat ? " acting" : ""),
                           "data-seat": s.seat },
      h("div", { class: "who" }, seatName(seats, s.seat),
        s.role ? h("span", { class: "role" }, ` ${roleWord(s.role)}`) : null,
        presence(seats && seats[s.seat])),
      h("div", { class: "count" }, tn("board.count", s.count, "{n} card", "{n} cards")));
    const shown = opts.hands ? opts.hands[s.seat] : s.known;
    if (shown && shown.length) {
      box.append(h("div", { class: "known" + (opts.hands ? " open" : "") },
                   shown.map((c) => cardSvg(c, { title: opts.hands ? "" : t("board.known", "known to all") }))));
    }
    opponents.append(box);
  }
  root.append(opponents);

  const middle = h("div", { class: "middle" });
  const piles = h("div", { class: "piles" });
  for (const p of view.piles || []) {
    const pile = h("div", { class: "pile", "data-pile": p.name },
      p.top ? cardSvg(p.top, { title: t("board.trump_card", "trump card") }) : null,
      p.name === "stock" && p.count === 0 ? null : backSvg(p.count),
      h("div", { class: "pile-name" },
        t(`pile.${p.name}`, `${p.name}: {n}`, { n: p.count })));
    piles.append(pile);
  }
  if (view.trump_suits && view.trump_suits.length) {
    const sym = { c: "♣", d: "♦", h: "♥", s: "♠" };
    piles.append(h("div", { class: "trump-suit" }, `${t("board.trump", "trump")} `,
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
  if (!(view.table || []).length) table.append(h("div", { class: "empty-table" }, t("board.empty_table", "table")));
  middle.append(table);
  if (view.text) middle.append(h("pre", { class: "view-text" }, view.text));
  root.append(middle);
  return { table };
}
