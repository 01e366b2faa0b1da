// The lobby: create a table (any registered game, house rules, seats, bots) or join one.
import { t, variantName } from "./i18n.js";
import { h } from "./board.js";

const $ = (id) => document.getElementById(id);
let bots = [];
let variants = [];

function seatRows() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(h("legend", {}, t("lobby.other_seats", "Other seats")));
  for (let i = 1; i < n; i++) {
    const pick = h("select", { "data-seat": i },
      h("option", { value: "open" }, t("lobby.seat_open", "a friend (open seat)")),
      bots.map((b) => h("option", { value: b },
                        t("lobby.seat_bot", "bot: {bot}", { bot: t(`bot.${b}`, b) }))));
    if (old[i - 1]) pick.value = old[i - 1];
    box.append(h("label", {}, `${t("lobby.seat", "Seat {n}", { n: i })} `, pick));
  }
}

function showSummary() {
  const v = variants.find((x) => x.id === $("variant").value);
  // The rules catalogue's summaries are English only (docs/i18n.md): say so to screen readers.
  $("summary").textContent = v ? v.summary : "";
  $("summary").lang = "en";
}

async function load() {
  const data = await (await fetch("/api/variants")).json();
  bots = data.bots;
  variants = data.variants.filter((v) => v.kind === "game");
  $("timer").value = Math.round(data.timer);
  for (const v of variants) {
    $("variant").append(h("option", { value: v.id }, `${variantName(v.id, v.names[0] || v.id)} (${v.id})`));
  }
  $("variant").value = variants.some((v) => v.id === "podkidnoy") ? "podkidnoy" : variants[0].id;
  for (let n = 2; n <= 8; n++) $("players").append(h("option", { value: n }, n));
  seatRows();
  showSummary();
  // The remembered name fills an empty field only: someone who typed a name while the game
  // list was still loading keeps it.
  if (!$("name").value) $("name").value = localStorage.getItem("bito:name") || "";
  refresh();
}

async function refresh() {
  const data = await (await fetch("/api/lobby")).json();
  const list = $("public-tables");
  list.replaceChildren();
  if (!data.tables.length) list.append(h("li", {}, t("lobby.none", "none yet — create one")));
  for (const row of data.tables) {
    const base = String(row.variant).split("+")[0];
    list.append(h("li", {}, h("a", { href: `/t/${row.id}`, title: row.variant },
      t("lobby.table_line", "{game}, {players} players, host {host} — open seats: {open}",
        { game: variantName(base, row.variant) + (row.variant !== base ? " +" : ""),
          players: row.players, host: row.host, open: row.open }))));
  }
}

$("players").addEventListener("change", seatRows);
$("variant").addEventListener("change", showSummary);
$("rules-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (file) $("rules").value = await file.text();
});
$("create").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = $("name").value;
  localStorage.setItem("bito:name", name);
  const body = {
    name,
    variant: $("variant").value + modifierText(),
    players: Number($("players").value),
    seats: [...$("seats").querySelectorAll("select")].map((s) => s.value),
    timer: Number($("timer").value),
    public: $("public").checked,
  };
  if ($("rules").value.trim()) body.rules = $("rules").value;
  if ($("deck").value) body.deck = Number($("deck").value);
  const res = await fetch("/api/tables", { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const out = await res.json();
  if (!res.ok) { $("create-error").textContent = out.error; return; }
  localStorage.setItem(`bito:${out.table}`, JSON.stringify({ token: out.token, seat: out.seat }));
  location.href = out.link;
});
setInterval(refresh, 5000);
load();

function modifierText() {
  const text = $("modifiers").value.trim();
  return !text || text.startsWith("+") ? text : `+${text}`;
}
