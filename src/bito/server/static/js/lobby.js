// The lobby: create a table (any registered game, house rules, seats, bots) or join one.
import { t, variantName, summaryOf, houseRules, language } from "./i18n.js";
import { h } from "./board.js";

const $ = (id) => document.getElementById(id);
let bots = [];
let variants = [];
let defaultBot = "medium";

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

// The seat counts the chosen game accepts, and no others (partners: even counts only).
function seatCounts() {
  const v = variants.find((x) => x.id === $("variant").value);
  const [low, high] = (v && v.players) || [2, 8];
  const counts = [];
  for (let n = low; n <= high; n++) if (!(v && v.partners) || n % 2 === 0) counts.push(n);
  return counts;
}

function playerChoices() {
  const counts = seatCounts();
  const was = Number($("players").value);
  $("players").replaceChildren(...counts.map((n) => h("option", { value: n }, n)));
  $("players").value = counts.includes(was) ? was : counts[0];
  seatRows();
}

// The one-click starts: a table of the chosen game made with the fewest seats it takes (or
// the chosen count, for friends), then straight to it; with bots, Ready is pressed for you.
async function quickTable(withBots) {
  const error = $("play-error");
  error.textContent = "";
  if (!$("name").reportValidity()) return;
  const name = $("name").value;
  localStorage.setItem("bito:name", name);
  const players = withBots ? seatCounts()[0] : Number($("players").value);
  const body = { name, variant: $("variant").value, players, public: false,
                 timer: Number($("timer").value) || 30,
                 seats: Array.from({ length: players - 1 }, () => (withBots ? defaultBot : "open")) };
  const res = await fetch("/api/tables", { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const out = await res.json();
  if (!res.ok) { error.textContent = out.error; return; }
  localStorage.setItem(`bito:${out.table}`, JSON.stringify({ token: out.token, seat: out.seat }));
  location.href = out.link + (withBots ? "#ready" : "");
}

function showSummary() {
  const v = variants.find((x) => x.id === $("variant").value);
  // The terminal's catalogue has every entry's summary in every language it speaks; one it
  // lacks is English, and screen readers are told so.
  const said = v ? summaryOf(v.id, "") : "";
  $("summary").textContent = said || (v ? v.summary : "");
  $("summary").lang = said ? language() : "en";
  // The table options are Durak options; other families have rules of their own.
  $("toggles").hidden = !v || v.family !== "durak";
  showSpec();
}

// The plain toggles as house-rule parts (the option keys of `bito variants`); the server
// checks them and names any it refuses, so nothing is dropped silently.
function toggleParts() {
  if ($("toggles").hidden) return [];
  const parts = [];
  if ($("opt-neighbours").checked) parts.push("+throw_in.by=neighbours");
  if ($("opt-transfers").value) parts.push(`+transfer.enabled=${$("opt-transfers").value}`);
  if ($("opt-show-trump").checked) parts.push("+transfer.show_trump=true");
  if ($("opt-draws").value) parts.push(`+end.draw_allowed=${$("opt-draws").value}`);
  return parts;
}

function showSpec() {
  const spec = toggleParts().join("") + modifierText();
  $("spec-preview").textContent = spec || t("lobby.spec_none", "none (the game as the catalogue has it)");
}

function speedOf(timer) { return timer <= 15 ? "fast" : timer <= 45 ? "normal" : "slow"; }

function passes(row) {
  const f = (id) => $(id).value;
  return (!f("f-game") || row.game.id === f("f-game")) &&
    (!f("f-players") || row.players === Number(f("f-players"))) &&
    (!f("f-deck") || row.deck === Number(f("f-deck"))) &&
    (!f("f-speed") || speedOf(row.timer) === f("f-speed"));
}

async function load() {
  const data = await (await fetch("/api/variants")).json();
  bots = data.bots;
  // Games dealt at one table (a tournament of several games is not one).
  variants = data.variants.filter((v) => v.kind === "game" && v.players);
  $("timer").value = Math.round(data.timer);
  for (const v of variants) {
    const name = variantName(v.id, v.names[0] || v.id);
    $("variant").append(h("option", { value: v.id }, name));
    $("f-game").append(h("option", { value: v.id }, name));
  }
  for (let n = 2; n <= 8; n++) $("f-players").append(h("option", { value: n }, n));
  $("variant").value = variants.some((v) => v.id === "podkidnoy") ? "podkidnoy" : variants[0].id;
  defaultBot = data.default_bot || bots[0];
  playerChoices();
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
  const shown = data.tables.filter(passes);
  if (!data.tables.length) list.append(h("li", {}, t("lobby.none", "none yet — create one")));
  else if (!shown.length) list.append(h("li", {}, t("lobby.none_fits", "none fits these filters")));
  for (const row of shown) {
    // The house rules by id, in the page's language, on hover.
    list.append(h("li", { "data-table": row.id }, h("a", { href: `/t/${row.id}`,
        title: houseRules(row.game).join("\n") || t("lobby.no_house_rules", "no house rules") },
      t("lobby.table_line",
        "{game}, {players} players{deck}, {timer} s a move, host {host} — open seats: {open}",
        { game: variantName(row.game.id, row.game.name) + (row.game.rules.length ? " +" : ""),
          players: row.players, host: row.host, open: row.open, timer: Math.round(row.timer),
          deck: row.deck ? t("lobby.table_deck", ", {n} cards", { n: row.deck }) : "" }))));
  }
}

$("players").addEventListener("change", seatRows);
for (const id of ["opt-neighbours", "opt-transfers", "opt-show-trump", "opt-draws", "modifiers"]) {
  $(id).addEventListener("input", showSpec);
  $(id).addEventListener("change", showSpec);
}
for (const id of ["f-game", "f-players", "f-deck", "f-speed"]) $(id).addEventListener("change", refresh);
$("quick-match").addEventListener("click", async () => {
  if (!$("name").reportValidity()) return;
  const name = $("name").value;
  localStorage.setItem("bito:name", name);
  const body = { name, variant: $("variant").value + toggleParts().join("") + modifierText(),
                 players: Number($("players").value), timer: Number($("timer").value),
                 spectator_chat: $("spectator-chat").value };
  if ($("deck").value) body.deck = Number($("deck").value);
  if ($("rules").value.trim()) body.rules = $("rules").value;
  const res = await fetch("/api/quickmatch", { method: "POST",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const out = await res.json();
  if (!res.ok) { $("play-error").textContent = out.error; return; }
  localStorage.setItem(`bito:${out.table}`, JSON.stringify({ token: out.token, seat: out.seat }));
  location.href = out.link;
});
$("variant").addEventListener("change", () => { playerChoices(); showSummary(); });
$("play-bots").addEventListener("click", () => quickTable(true));
$("play-friends").addEventListener("click", () => quickTable(false));
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
    variant: $("variant").value + toggleParts().join("") + modifierText(),
    spectator_chat: $("spectator-chat").value,
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
