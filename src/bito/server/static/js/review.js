// The game review on the replay page (issue 36): each of your moves marked (colour and icon),
// the better move drawn as cards, your chance of not being the fool over the game, and your
// accuracy. The review is of your own seat, once the game is over; the server makes it in its
// bot workers the first time and keeps it.
import { t } from "./i18n.js";
import { cardSvg, cardLabel } from "./cards.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const mine = JSON.parse(localStorage.getItem(`bito:${tableId}`) || "null");
const MARKS = { best: "!", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
const CATEGORIES = ["best", "good", "inaccuracy", "mistake", "blunder"];
const CARD = /([2-9TJQKA])([cdhs])/g;
let review = null;
let at = 0;

const pct = (x) => `${Math.round(100 * x)}%`;
const said = (move) => String(move).replace(CARD, (code) => cardLabel(code));
const category = (c) => t(`review.cat.${c}`, c);

function reason(m) {
  const best = said(m.best), played = said(m.played);
  const gives = m.gives_up ? t(`review.gives.${m.gives_up.replace(/[^a-z]+/g, "_")}`, m.gives_up) : "";
  switch (m.why) {
    case "choice": return t("review.why.choice", "the analysis level's choice ({chance} not the fool)", { chance: pct(m.played_chance) });
    case "as_good": return t("review.why.as_good", "as good as {best} ({chance} not the fool)", { best, chance: pct(m.played_chance) });
    case "noise": return t("review.why.noise", "{best} scores a little more, within the sample's noise", { best });
    case "gives_up": return t("review.why.gives_up", "{best} does as well in the sample, and {why}", { best, why: gives });
    case "proven_keep": return m.proven && m.proven[1] === 1 ? t("review.why.kept_won", "keeps the won ending (proven)") : t("review.why.kept_draw", "keeps the drawn ending (proven)");
    case "proven_lost": return t("review.why.lost", "the ending is lost against best play whatever is played (proven)");
    case "proven_thrown": return m.proven && m.proven[1] === 1 ? t("review.why.won_thrown", "a won ending thrown away: {best} wins by force", { best }) : t("review.why.draw_thrown", "a drawn ending thrown away: {best} draws by force", { best });
    default: return t("review.why.worse", "{best}: {best_chance} not the fool; {played}: {played_chance}", { best, played, best_chance: pct(m.best_chance), played_chance: pct(m.played_chance) });
  }
}

// The chance of not being the fool before each reviewed move, as a line; the marks as dots.
function graph(data) {
  const NS = "http://www.w3.org/2000/svg";
  const last = Math.max(1, ...data.moves.map((m) => m.n));
  const W = 300, H = 80;
  const x = (n) => 4 + (n / last) * (W - 8), y = (p) => 4 + (1 - p) * (H - 8);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "review-graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("review.graph", "Your chance of not being the fool over the game"));
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", data.chances.map(([n, p]) => `${x(n).toFixed(1)},${y(p).toFixed(1)}`).join(" "));
  line.setAttribute("class", "review-line");
  const half = document.createElementNS(NS, "line");
  Object.entries({ x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "review-half" }).forEach(([k, v]) => half.setAttribute(k, v));
  svg.append(half, line);
  for (const m of data.moves) {
    const dot = document.createElementNS(NS, "circle");
    Object.entries({ cx: x(m.n), cy: y(m.played_chance), r: m.category === "best" || m.category === "good" ? 1.5 : 3,
                     class: `review-dot ${m.category}` }).forEach(([k, v]) => dot.setAttribute(k, v));
    svg.append(dot);
  }
  return svg;
}

function summary(data) {
  return data.summaries.map((s) => {
    const counts = CATEGORIES.map((c) => `${category(c)} ${s.counts[c]}`).join(", ");
    const turning = s.turning_point ? t("review.turning", "turning point: move {n}", { n: s.turning_point })
                                    : t("review.no_turning", "no mistake or blunder");
    return t("review.accuracy", "{name}: accuracy {accuracy}%", { name: data.names[s.seat], accuracy: Math.round(s.accuracy ?? 0) })
      + ` — ${counts}; ${turning}`;
  }).join(" ");
}

function showMove() {
  const box = $("review-move");
  if (!review || !box) return;
  const m = review.moves.find((r) => r.n === at);
  box.className = m ? `review-move ${m.category}` : "review-move";
  if (!m) { box.replaceChildren(at ? t("review.not_reviewed", "Not one of your decisions (or a forced move): not reviewed.") : ""); return; }
  const head = document.createElement("strong");
  head.textContent = `${MARKS[m.category]} ${category(m.category)}`;
  const text = document.createElement("span");
  text.textContent = ` ${said(m.played)} — ${reason(m)}`;
  const better = document.createElement("div");
  better.className = "review-better";
  if (m.best !== m.played && m.category !== "best") {
    const cards = [...String(m.best).matchAll(CARD)].map((x) => cardSvg({ c: x[0] }));
    const label = document.createElement("span");
    label.textContent = t("review.better", "Better: {move}", { move: said(m.best) });
    better.append(label, ...cards);
  }
  box.replaceChildren(head, text, better);
}

async function open() {
  const box = $("review");
  box.hidden = false;
  $("review-open").hidden = true;  // back only if the review could not be made: try again
  $("review-summary").textContent = t("review.making", "Making the review… (a few seconds)");
  const res = await fetch(`/api/tables/${tableId}/review`, { headers: mine ? { "X-Bito-Token": mine.token } : {} });
  const body = await res.json();
  if (!res.ok) { $("review-summary").textContent = body.error; $("review-open").hidden = false; return; }
  review = body;
  $("review-summary").textContent = summary(body);
  $("review-graph").replaceChildren(graph(body));
  showMove();
}

document.addEventListener("replay:show", (e) => { at = e.detail.at; showMove(); });
document.addEventListener("replay:loaded", (e) => {
  if (!e.detail.over || !mine) return;  // a review is of your own seat, after the game
  const button = $("review-open");
  button.hidden = false;
  button.onclick = open;
  if (location.hash === "#review") open();
});
