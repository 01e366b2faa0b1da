// Draws one view frame (the JSON of bito.server.render) into the page. The same code serves
// every game family: hand, table pairs, seats with counts and known cards, piles, status, and
// the zones of a family's table model, each drawn by its kind (a trick, a pile with its top
// card, a face-down claim, a face-up centre, another seat's open hand).
import { cardSvg, backSvg, cardLabel, cardName } from "./cards.js";

const titleOf = (text) => {
  const node = document.createElementNS("http://www.w3.org/2000/svg", "title");
  node.textContent = text;
  return node;
};
import { t, tn, said } from "./i18n.js";

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
  if (a.kind === "pass" && a.label === "believe the claim") return t("action.believe", "believe the claim");
  // Durak's pass ends the bout ("bito"); another family's only passes the turn
  if (a.kind === "pass") {
    return a.label && a.label !== "pass (bito)" ? t("action.pass_turn", "pass") : t("action.pass", "pass (bito)");
  }
  if (SIMPLE[a.kind]) return t(`action.${a.kind}`, SIMPLE[a.kind]);
  if (a.hidden) {  // cards put down face down: how many, never which
    return tn("action.put_down_hidden", a.hidden, "put down {n} card face down", "put down {n} cards face down");
  }
  if (a.kind === "play" && cards) {  // a family drawn from its table model
    const call = /=([cdhs])$/.exec(a.text || "");
    if (call) {
      return t("action.play_call", "play {cards} and call {suit}",
               { cards, suit: t(`suit.${call[1]}`, call[1]) });
    }
    if ((a.label || "").startsWith("put down ")) return t("action.put_down", "put down {cards}", { cards });
    return t("action.play", "play {cards}", { cards });
  }
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
  // A house rule's own kind of move (the trump shown to transfer, a throw-in from the
  // dummy...), in words with its cards
  const own = RULE_MOVES[a.kind];
  if (own) {
    const [first, ...rest] = (a.cards || []).map(label);
    return t(`action.${own[0]}`, own[1], { cards, target: a.target ? label(a.target) : "",
                                           first: first || "", rest: rest.join(" ") });
  }
  // Any other move with cards: its name and the cards.
  if (cards && a.kind) return `${a.kind} ${cards}`;
  return a.text;
}

// The kinds of move Durak's house rules add, by the engine's name for them: the catalogue's
// key and the English words ({cards}, {target}: the card covered; {first} and {rest}: a
// counter-attack's cover and its attack cards).
const RULE_MOVES = {
  "show trump": ["show_trump", "transfer by showing {cards}"],
  "trump swap": ["trump_swap", "swap the trump card under the stock for {cards}"],
  give: ["give", "give {cards} for the joker"],
  block: ["block", "cancel the gift showing {cards}"],
  believe: ["believe_covers", "believe the covers"],
  toss: ["toss", "throw in {cards} from the dummy"],
  try: ["try", "second try: draw the top card of the stock"],
  stock: ["stock", "attack with the top card of the stock"],
  swap: ["swap", "swap {cards} with the stock"],
  exchange: ["exchange", "pass {cards} to the left"],
  pair: ["pair", "lay {target} and cover it yourself with {cards}"],
  own: ["own_cover", "cover your own {target} with {cards} (the taker gets both)"],
  counter: ["counter", "cover {target} with {first} and counter-attack with {rest}"],
};

// The moves without cards of the families outside Durak, as a player says them.
const SIMPLE = { draw: "draw a card", doubt: "doubt the claim", claim: "end your claim",
                 sound: "make your animal's sound", laugh: "laugh",
                 turn: "turn up the top card of the stock" };

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
  // the playing dummy's seat (#57), named by the server in English
  if (s && s.kind === "bot" && s.name === "Dummy") return t("seat.dummy_name", "Dummy");
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

const ROLE_KEYS = { attacker: "role.attacker", defender: "role.defender", out: "role.out",
                    claims: "role.claims", "sits out": "role.sits_out" };
const DOING_KEYS = { "lead an attack": "doing.lead", "cover, transfer or take": "doing.defend",
                     "throw in or pass": "doing.throw", "cover or take": "doing.cover_or_take" };

// The server's words for a role and for what the seat to act does, in the page's language
// (another family's own words stay as they come).
export function roleWord(role) { return ROLE_KEYS[role] ? t(ROLE_KEYS[role], role) : role; }
export function doingWord(doing) {
  if (DOING_KEYS[doing]) return t(DOING_KEYS[doing], doing);
  return modelWords(doing);
}

// A phrase of a family's table model (what the seat to act does, a zone's or a seat's note),
// in the page's language: the catalogue's sentence when it has one, its parts filled in for
// the phrases that carry a card or a count; null when the page's language has none (a Russian
// page shows no English).
const PHRASES = [
  [/^claims (\d+) x (\w+)$/, "zone.claims", "claims {n} × {rank}", (m) => ({ n: m[1], rank: rankWord(m[2]) })],
  [/^(\w+) due$/, "zone.due", "{rank} due", (m) => ({ rank: rankWord(m[1]) })],
  [/^(green|red|yellow|blue) was led$/, "zone.led", "{colour} was led", (m) => ({ colour: t(`colour_name.${m[1]}`, m[1]) })],
  [/^follows (green|red|yellow|blue) if he can$/, "doing.follow_colour", "follows {colour} if he can",
   (m) => ({ colour: t(`colour_name.${m[1]}`, m[1]) })],
  [/^plays an? (\w+) or makes the animal's sound$/, "doing.animal_due", "plays a {rank} or makes the animal's sound",
   (m) => ({ rank: rankWord(m[1]) })],
  [/^puts down 1 to 4 cards face down, claiming (\w+)s$/, "doing.cheat_claim",
   "puts down 1 to 4 cards face down, claiming {rank}", (m) => ({ rank: rankWord(m[1]) })],
  [/^the (\w+) \((.+)\)$/, "seat.animal", "the {animal} ({sound})",
   (m) => ({ animal: t(`animal.${m[1]}`, m[1]), sound: t(`sound.${m[1]}`, m[2]) })],
  [/^\+10 rounds: (\d+)$/, "seat.plus_tens", "+10 rounds: {n}", (m) => ({ n: m[1] })],
  [/^figures (\d+)$/, "seat.figures", "figures {n}", (m) => ({ n: m[1] })],
  [/^\+ (\d+) face down$/, "seat.reserve", "+ {n} face down", (m) => ({ n: m[1] })],
  // rules of play that carry a value of the game's options
  [/^(\w+) are wild: play one on anything and call a suit$/, "model.wild_rank",
   "{ranks} are wild: play one on anything and call a suit", (m) => ({ ranks: ranksWord(m[1]) })],
  [/^an? (.+) makes the next player draw$/, "model.draw_ranks", "a {ranks} makes the next player draw",
   (m) => ({ ranks: m[1].split(" or ").join(` ${t("word.or", "or")} `) })],
];
const PLURAL_RANKS = { jacks: "J", queens: "Q", kings: "K", aces: "A" };
function ranksWord(word) {
  if (PLURAL_RANKS[word]) return t(`ranks.${PLURAL_RANKS[word]}`, word);
  const n = /^(\d+)s$/.exec(word);
  return n ? t("ranks.n", "{n}s", { n: n[1] }) : word;
}
const RANK_WORDS = { jack: "J", queen: "Q", king: "K", ace: "A" };
function rankWord(word) {
  const rank = RANK_WORDS[word] || word;
  return t(`rank.${rank}`, word);
}
export function modelWords(phrase) {
  if (!phrase) return "";
  for (const [re, key, english, fields] of PHRASES) {
    const m = re.exec(phrase);
    if (m) return said(key, english, fields(m));
  }
  return said(modelKey(phrase), phrase);
}

// The catalogue's key of a model's fixed phrase: its first five words (webtext.py lists them).
export function modelKey(phrase) {
  return `model.${(phrase.toLowerCase().match(/[a-z0-9]+/g) || []).slice(0, 5).join("_")}`;
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

// A seat's note is a list of short facts ("dummy, figures 3"): each in the page's language,
// a fact it has no words for left off.
function seatNote(note) {
  return (note || "").split(", ").map(modelWords).filter(Boolean).join(", ");
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
    s.score !== undefined && s.score !== null
      ? h("div", { class: "seat-score" }, t("board.score", "score {n}", { n: s.score })) : null,
    seatNote(s.note) ? h("div", { class: "seat-note" }, seatNote(s.note)) : null,
    s.played_by >= 0 ? h("div", { class: "seat-note played-by" },
                         t("board.played_by", "played by {name}", { name: seatName(seats, s.played_by) })) : null,
    acting ? h("div", { class: "turn-flag" }, mine ? t("table.your_turn", "your turn")
                                                  : t("table.to_act", "to act")) : null);
  const shown = opts.hands ? opts.hands[s.seat] : (mine ? null : s.known);
  if (shown && shown.length) {
    box.append(h("div", { class: "known" + (opts.hands ? " open" : "") },
                 shown.map((c) => cardSvg(c, { title: opts.hands ? "" : t("board.known", "known to all") }))));
  }
  return box;
}

// The places a family's table model puts cards, other than the hand, the pairs and the piles
// (drawn as on a Durak table): each by its kind, its name and count in words.
const ZONE_NAMES = { pile: "pile", claim: "claim", trick: "trick", centre: "centre", won: "played",
                     dummy: "dummy's hand", table: "table", counter: "counter-attack" };
function drawZones(table, view, seats, marked) {
  const first = view.zones.find((z) => z.kind === "pairs");  // the table's pairs, drawn below
  for (const z of view.zones) {
    if (z === first || ["stock", "discard"].includes(z.kind)) continue;
    const title = t(`zone.${z.name}`, ZONE_NAMES[z.name] || z.name);
    const owner = z.owner >= 0 && z.kind === "claim" ? seatName(seats, z.owner) : null;
    const box = h("div", { class: `zone zone-${z.kind}`, "data-zone": z.name, role: "group",
                           "aria-label": owner ? `${title}: ${owner}` : title });
    const cards = h("div", { class: "zone-cards" });
    if (z.kind === "pairs") {  // another bout beside the table's (#49's counter-attack)
      for (const p of z.pairs) {
        cards.append(h("div", { class: "pair" + (p.cover ? " covered" : "") },
                       marked(cardSvg(p.attack), p.attack.c),
                       p.cover ? marked(cardSvg(p.cover), p.cover.c) : p.face_down ? backSvg() : null));
      }
    } else if (z.kind === "trick") {
      for (const p of z.plays) {
        cards.append(h("figure", { class: "play", "data-seat": p.seat },
                       marked(cardSvg(p.card), p.card.c),
                       h("figcaption", {}, seatName(seats, p.seat))));
      }
    } else if (z.kind === "claim") {
      // face down as they were put down; the claimer's own cards are face up for him alone
      for (const c of z.cards) cards.append(marked(cardSvg(c), c.c));
      for (let i = 0; i < Math.min(z.face_down, 6); i++) cards.append(backSvg());
    } else if (z.kind === "pile" || z.kind === "centre") {
      // the cards below the top peek out from under it; the top card lies last, marked
      const shown = z.cards.slice(-4);
      if (z.face_down) cards.append(backSvg(z.face_down));
      shown.forEach((c) => cards.append(marked(cardSvg(c), c.c)));
      if (z.top && !shown.some((c) => c.c === z.top.c)) cards.append(marked(cardSvg(z.top), z.top.c));
    } else {
      for (const c of z.cards) cards.append(marked(cardSvg(c), c.c));
      for (let i = 0; i < Math.min(z.face_down, 8); i++) cards.append(backSvg());
    }
    if (!cards.children.length) cards.append(h("div", { class: "card-place", "aria-hidden": "true" }));
    const note = modelWords(z.note);
    box.append(cards, h("div", { class: "zone-name" },
      owner ? `${owner}: ` : "", tn("zone.count", z.count, "{zone}: {n} card", "{zone}: {n} cards", { zone: title }),
      note ? h("span", { class: "zone-note" }, ` · ${note}`) : null));
    table.append(box);
  }
}

// The game's own words beside the table: a called suit, what is wild, the rules a player needs.
function gameWords(v) {
  const box = h("div", { class: "game-words" });
  if (v.called_suit) {
    const letter = v.called_suit[0];
    box.append(h("div", { class: "called-suit", id: "called-suit" },
      t("board.called_suit", "called suit: {suit}", { suit: `${SUIT_SIGNS[letter]} ${t(`suit.${letter}`, v.called_suit)}` })));
  }
  const notes = (v.notes || []).map(modelWords).filter(Boolean);
  if (notes.length) {
    box.append(h("details", { class: "rules-notes" },
      h("summary", {}, t("board.rules", "How this game is played")),
      h("ul", {}, notes.map((n) => h("li", {}, n)))));
  }
  return box;
}
const SUIT_SIGNS = { c: "♣", d: "♦", h: "♥", s: "♠" };

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
  if (view.zones) drawZones(table, view, seats, marked);
  (view.table || []).forEach((pair) => {
    const slot = h("div", { class: "pair" + (pair.cover || pair.face_down ? " covered" : " open"),
                            "data-attack": pair.attack.c });
    slot.append(marked(cardSvg(pair.attack), pair.attack.c));
    if (pair.cover) {
      const cover = marked(cardSvg(pair.cover), pair.cover.c);
      cover.classList.add("cover");
      slot.append(cover);
    } else if (pair.face_down) {  // #59: covered face down, the card not shown
      const cover = backSvg();
      cover.classList.add("cover");
      cover.setAttribute("role", "img");
      cover.setAttribute("aria-label", t("board.face_down_cover", "covered face down"));
      slot.append(cover);
    }
    table.append(slot);
  });
  if (!table.children.length) table.append(h("div", { class: "empty-table" }, t("board.empty_table", "table")));
  if (view.taking) {  // the defender said "take": the throwers may still add cards
    const taker = (view.seats || []).find((s) => s.role === "defender");
    table.classList.add("taking");
    table.append(h("div", { class: "taking-banner", id: "taking" }, taker
      ? t("table.takes", "{name} takes", { name: seatName(seats, taker.seat) })
      : t("table.defender_takes", "the defender takes")));
  }
  middle.append(table);
  if (view.vocabulary) middle.append(gameWords(view.vocabulary));
  root.append(middle);
  const mine = !opts.hands && me !== null && me !== undefined &&
    (view.seats || []).find((s) => s.seat === me);
  if (mine) root.append(seatBox(view, mine, seats, opts, true));
  return { table };
}
