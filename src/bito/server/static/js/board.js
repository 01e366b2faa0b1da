// Draws one view frame (the JSON of bito.server.render) into the page. The same code serves
// every game family: hand, table pairs, seats with counts and known cards, piles, status.
import { cardSvg, backSvg, cardLabel, cardName } from "./cards.js";

const titleOf = (text) => {
  const node = document.createElementNS("http://www.w3.org/2000/svg", "title");
  node.textContent = text;
  return node;
};
import { t, tn } from "./i18n.js";

// The table's newer modules (between.js, talk.js) call tr(key, fallback, params): the same
// lookup as i18n.js's t, kept under its own name so they need not import i18n.js themselves.
export const tr = (key, fallback, params) => t(key, fallback, params);

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

// A bot's display name is made by the server in English, "Bot <first name> (<level>)"
// (rooms.bot_name, kept so records read the same everywhere): the page says it again in its
// own language. Anyone else's name is shown as typed.
export function displayName(s) {
  const m = s && s.kind === "bot" && s.bot ? /^Bot (\S+) \((.+)\)$/.exec(s.name || "") : null;
  if (m && m[2] === s.bot) {
    return t("bot.display", "Bot {name} ({level})",
             { name: t(`botname.${m[1]}`, m[1]), level: t(`bot.${s.bot}`, s.bot) });
  }
  return s ? s.name : "";
}

// A name with no seat kind beside it (a replay's or a profile's list of players): a seat as
// the table knew it. A name rooms.bot_name makes (one of the bots' first names and a level)
// is a bot's, so its name is said in the page's language and its picture is the bot's, as at
// the table; anyone else's name stays as typed.
export function seatOfName(seat, name) {
  const m = /^Bot (\S+) \((\w+)\)$/.exec(name || "");
  if (!m || t(`botname.${m[1]}`, "") === "" || t(`bot.${m[2]}`, "") === "") return { seat, name };
  return { seat, name, kind: "bot", bot: m[2] };
}

export function nameWords(name) { return displayName(seatOfName(null, name)); }

export function seatName(seats, i) {
  const s = seats && seats[i];
  return s && s.name ? displayName(s) : t("seat.default", "seat {n}", { n: i });
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

// The seats in the order play goes round (the next seat after `me` first, `me` last), so the
// row reads as the table does from one's own chair.
export function playOrder(all, me) {
  const start = me === null || me === undefined ? 0 : me + 1;
  return all.map((_, i) => all[(start + i) % all.length]);
}

// A seat's picture: its initials on a colour of its own (from its name), so seats are told
// apart at a glance without anybody uploading anything.
export function avatar(name, bot = false) {
  // A bot's shown name is "Bot <name> (<level>)" in the page's language: its own name counts.
  const words = String(name || "?").split(/[\s()]+/).filter(Boolean).slice(bot ? 1 : 0, bot ? 2 : 2);
  const initials = (words.length > 1 && words[1].length > 1 && /^\p{Lu}/u.test(words[1])
    ? words[0][0] + words[1][0] : (words[0] || "?")[0]).toUpperCase();
  let hash = 0;
  for (const ch of String(name)) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return h("span", { class: "avatar", "aria-hidden": "true",
                     style: `background: hsl(${hash % 360} 55% 38%)` }, initials);
}

// A hand seen from across the table: its cards' backs, fanned (up to eight drawn).
function fan(count) {
  const shown = Math.min(count, 8);
  const box = h("div", { class: "fan", "aria-hidden": "true" });
  for (let i = 0; i < shown; i++) {
    const back = backSvg();
    const turn = shown > 1 ? (i - (shown - 1) / 2) * 7 : 0;
    back.style.transform = `rotate(${turn}deg)`;
    box.append(back);
  }
  return box;
}

function seatBox(view, s, seats, opts, mine) {
  const over = Boolean(view.outcome);
  const acting = !over && (view.to_act === s.seat ||
                           (view.decider !== undefined && view.decider === s.seat));
  const name = seatName(seats, s.seat);
  const box = h("div", { class: "opponent" + (acting ? " acting" : "") + (mine ? " my-seat" : ""),
                         "data-seat": s.seat, "aria-current": acting ? "true" : null },
    avatar(name, Boolean(seats && seats[s.seat] && seats[s.seat].kind === "bot")),
    h("div", { class: "who" }, mine ? t("table.you", "You") + " · " : "", name,
      // Roles belong to a bout in play; at the end only the result counts.
      s.role && !over ? h("span", { class: "role" }, ` ${roleWord(s.role)}`) : null,
      presence(seats && seats[s.seat])),
    mine || opts.hands ? null : fan(s.count),
    h("div", { class: "count" }, tn("board.count", s.count, "{n} card", "{n} cards")),
    acting ? h("div", { class: "turn-flag" }, mine ? t("table.your_turn", "your turn")
                                                  : t("table.to_act", "to act")) : null);
  const shown = opts.hands ? opts.hands[s.seat] : (mine ? null : s.known);
  if (shown && shown.length) {
    box.append(h("div", { class: "known" + (opts.hands ? " open" : "") },
                 shown.map((c) => cardSvg(c, { title: opts.hands ? "" : t("board.known", "known to all") }))));
  }
  return box;
}

// Draws the seats (in play order, one's own box last), the table, the piles and, with
// `hands`, every hand (the replay).
export function drawBoard(root, view, seats, opts = {}) {
  root.replaceChildren();
  const me = view.seat;
  const opponents = h("div", { class: "opponents", role: "group",
                               "aria-label": t("table.order", "seats in order of play") });
  const order = playOrder(view.seats || [], opts.hands ? null : me);
  order.forEach((s, i) => {
    if (s.seat === me && !opts.hands) return;
    if (i > 0) opponents.append(h("span", { class: "direction", "aria-hidden": "true" }, "→"));
    opponents.append(seatBox(view, s, seats, opts, false));
  });
  root.append(h("div", { class: "play-order" }, t("table.direction", "play goes round →")), opponents);

  const middle = h("div", { class: "middle" });
  const piles = h("div", { class: "piles" });
  for (const p of view.piles || []) {
    // An empty pile is an empty place on the felt, never a card back labelled 0.
    const empty = p.count === 0;
    // The trump card lies face up across the bottom of the stock, as on a real table; the
    // stock's backs sit on it, stacked thicker the more cards are left.
    const depth = p.count > 16 ? 3 : p.count > 6 ? 2 : p.count > 1 ? 1 : 0;
    const pile = h("div", { class: "pile" + (empty ? " empty" : "") + (p.top ? " with-trump" : ""),
                            "data-pile": p.name, "data-depth": depth },
      h("div", { class: "pile-cards" },
        p.top ? cardSvg(p.top, { title: t("board.trump_card", "trump card") }) : null,
        empty ? (p.top ? null : h("div", { class: "card-place", "aria-hidden": "true" }))
          : backSvg(p.count)),
      h("div", { class: "pile-name" }, empty
        ? t(`pile.${p.name}_empty`, `${p.name}: empty`)
        : t(`pile.${p.name}`, `${p.name}: {n}`, { n: p.count })));
    piles.append(pile);
  }
  if (view.trump_suits && view.trump_suits.length) {
    const sym = { c: "♣", d: "♦", h: "♥", s: "♠" };
    piles.append(h("div", { class: "trump-suit" }, `${t("board.trump", "trump")} `,
                   view.trump_suits.map((s) => sym[s]).join(" ")));
  }
  middle.append(piles);
  const table = h("div", { class: "table-cards", id: "table-drop" });
  // The cards of the last move stay marked until the next one, as a player's eye would
  // follow them onto the felt.
  const last = new Set(opts.last || []);
  const marked = (svg, code) => {
    if (last.has(code)) {
      svg.classList.add("last");
      svg.append(titleOf(t("board.last", "just played")));
    }
    return svg;
  };
  (view.table || []).forEach((pair) => {
    const slot = h("div", { class: "pair" + (pair.cover ? " covered" : " open"),
                            "data-attack": pair.attack.c });
    slot.append(marked(cardSvg(pair.attack), pair.attack.c));
    if (pair.cover) {
      const cover = marked(cardSvg(pair.cover), pair.cover.c);
      cover.classList.add("cover");
      slot.append(cover);
    }
    table.append(slot);
  });
  if (!(view.table || []).length) table.append(h("div", { class: "empty-table" }, t("board.empty_table", "table")));
  if (view.taking) {  // the defender said "take": the throwers may still add cards
    const taker = (view.seats || []).find((s) => s.role === "defender");
    table.classList.add("taking");
    table.append(h("div", { class: "taking-banner", id: "taking" }, taker
      ? t("table.takes", "{name} takes", { name: seatName(seats, taker.seat) })
      : t("table.defender_takes", "the defender takes")));
  }
  middle.append(table);
  if (view.text) middle.append(h("pre", { class: "view-text" }, view.text));
  root.append(middle);
  const mine = !opts.hands && me !== null && me !== undefined &&
    (view.seats || []).find((s) => s.seat === me);
  if (mine) root.append(seatBox(view, mine, seats, opts, true));
  return { table };
}
