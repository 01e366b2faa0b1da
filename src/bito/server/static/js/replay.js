// Step through a finished game with every hand shown (or, during play, through your own
// seat's views only).
import { t, variantName, summaryOf } from "./i18n.js";
import { cardSvg } from "./cards.js";
import { drawBoard, actionLabel, outcomeText, seatName, seatOfName } from "./board.js";

const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const mine = JSON.parse(localStorage.getItem(`bito:${tableId}`) || "null");
let data = null;
let at = 0;

function show() {
  const f = data.frames[at];
  // the seats as the table showed them (a bot's name in the page's language, its picture)
  const seats = data.names.map((name, seat) => seatOfName(seat, name));
  drawBoard($("board"), f, seats, { hands: data.over ? f.hands : null });
  $("hand").replaceChildren(...(data.over ? [] : (f.hand || []).map((c) => cardSvg(c))));
  $("step").value = at;
  $("counter").textContent = `${at} / ${data.frames.length - 1}`;
  const move = f.move ? `${seatName(seats, f.move.seat)}: ${actionLabel(f.move)}` : t("replay.deal", "the deal");
  const end = at === data.frames.length - 1 && data.outcome ? ` — ${outcomeText(data.outcome, seats)}` : "";
  $("move").textContent = move + end;
  document.dispatchEvent(new CustomEvent("replay:show", { detail: { at } }));  // (review.js)
}

function go(to) { at = Math.max(0, Math.min(data.frames.length - 1, to)); show(); }

async function load() {
  const headers = mine ? { "X-Bito-Token": mine.token } : {};
  const res = await fetch(`/api/tables/${tableId}/replay`, { headers });
  const body = await res.json();
  if (!res.ok) { $("message").textContent = body.error; return; }
  data = body;
  $("variant").textContent = variantName(String(data.variant).split("+")[0], data.variant);
  $("variant").title = summaryOf(String(data.variant).split("+")[0], "");
  $("step").max = data.frames.length - 1;
  if (data.over) {
    const a = document.createElement("a");
    a.href = `/api/tables/${tableId}/record`;
    a.textContent = t("download.full", "Download the full record");
    $("downloads").append(a);
  }
  go(data.frames.length - 1);
  document.dispatchEvent(new CustomEvent("replay:loaded", { detail: { over: data.over } }));
}

$("first").onclick = () => go(0);
$("prev").onclick = () => go(at - 1);
$("next").onclick = () => go(at + 1);
$("last").onclick = () => go(data.frames.length - 1);
$("step").oninput = (e) => go(Number(e.target.value));
document.addEventListener("keydown", (e) => {
  if (!data) return;
  if (e.key === "ArrowRight") go(at + 1);
  if (e.key === "ArrowLeft") go(at - 1);
});
load();
