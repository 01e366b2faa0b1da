// The account pages: log in or sign up (/account), the leaderboard (/leaderboard), and a
// player's profile with his ratings and recent games (/u/<name>).
import { el, whoami } from "./accountbar.js";

const t = (k, f) => (window.t || ((key, fallback) => fallback))(k, f);
const main = document.getElementById("people");
const path = location.pathname;

async function send(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                 body: JSON.stringify(body) });
  let data = {};
  try { data = await res.json(); } catch { /* empty */ }
  return { ok: res.ok, data };
}

function accountPage(name) {
  if (name) {
    main.replaceChildren(
      el("h1", {}, t("account.hello", "Logged in as ") + name),
      el("p", {}, el("a", { href: `/u/${encodeURIComponent(name)}` },
                     t("account.profile", "Your ratings and games"))),
      el("p", {}, t("account.seats", "Tables you sit at while logged in follow you: open "
                    + "the table's link on any device where you are logged in.")),
      el("button", { type: "button", id: "logout", onclick: async () => {
        await send("/api/account/logout", {});
        location.reload();
      } }, t("account.logout", "Log out")));
    return;
  }
  const message = el("p", { id: "account-message", class: "message error", role: "alert" });
  const user = el("input", { id: "username", autocomplete: "username", maxlength: "20",
                             required: "" });
  const pass = el("input", { id: "password", type: "password", maxlength: "128", required: "",
                             autocomplete: "current-password" });
  const go = (url) => async (ev) => {
    ev.preventDefault();
    const r = await send(url, { username: user.value, password: pass.value });
    if (!r.ok) { message.textContent = r.data.error || "?"; return; }
    const back = new URLSearchParams(location.search).get("next");
    location.href = back && back.startsWith("/") && !back.startsWith("//") ? back : "/account";
  };
  const form = el("form", { id: "login-form", onsubmit: go("/api/account/login") },
    el("label", {}, t("account.username", "Username"), " ", user),
    el("label", {}, t("account.password", "Password"), " ", pass),
    el("button", { type: "submit", id: "login" }, t("account.login", "Log in")),
    el("button", { type: "button", id: "register", onclick: go("/api/account/register") },
       t("account.register", "Sign up")));
  main.replaceChildren(
    el("h1", {}, t("account.title", "Your account")),
    el("p", {}, t("account.optional", "Optional: guests play with one click. An account keeps "
                  + "your seat on every device and gives you a rating.")),
    form, message);
}

function ratingTable(rows, withName) {
  const head = el("tr", {}, ...(withName ? [el("th", {}, "#"), el("th", {}, t("board.player", "Player"))]
                                         : [el("th", {}, t("board.family", "Game family"))]),
                  el("th", {}, t("board.rating", "Rating")), el("th", {}, "μ ± σ"),
                  el("th", {}, t("board.games", "Games")));
  const body = rows.map((r, i) => el("tr", { class: r.bot ? "bot-row" : "" },
    ...(withName ? [el("td", {}, String(i + 1)),
                    el("td", {}, r.bot ? `Bot (${r.player})`
                                       : el("a", { href: r.link }, r.player))]
                 : [el("td", {}, r.family)]),
    el("td", {}, r.rating.toFixed(1)), el("td", {}, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`),
    el("td", {}, String(r.games))));
  return el("table", { class: "ratings" }, el("thead", {}, head), el("tbody", {}, ...body));
}

async function leaderboardPage() {
  const family = new URLSearchParams(location.search).get("family");
  const res = await fetch(`/api/leaderboard${family ? `?family=${encodeURIComponent(family)}` : ""}`);
  const data = await res.json();
  if (!res.ok) { main.replaceChildren(el("p", { class: "message error" }, data.error)); return; }
  const pick = el("select", { id: "family", onchange: () => {
    location.search = `?family=${encodeURIComponent(pick.value)}`; } },
    ...data.families.map((f) => { const o = el("option", { value: f }, f); o.selected = f === data.family; return o; }));
  main.replaceChildren(
    el("h1", {}, t("board.title", "Leaderboard")),
    el("label", {}, t("board.family", "Game family"), " ", pick),
    el("p", { class: "summary" }, t("board.explain", "Rating = μ − 3σ (openskill): it grows as "
       + "you win and as the system grows sure of you. Bots sit on the same scale.")),
    ratingTable(data.rows, true));
}

async function profilePage(name) {
  const res = await fetch(`/api/players/${encodeURIComponent(name)}`);
  const data = await res.json();
  if (!res.ok) { main.replaceChildren(el("p", { class: "message error" }, data.error)); return; }
  const games = data.games.map((g) => el("li", {},
    el("a", { href: g.replay, class: "replay" }, (g.game && g.game.name) || g.family), " — ",
    g.result === "fool" ? t("profile.fool", "the fool") : g.result === "draw"
      ? t("profile.draw", "a draw") : t("profile.won", "not the fool"),
    ` (${g.change >= 0 ? "+" : ""}${g.change.toFixed(2)} μ) · ${g.players.join(", ")} · `,
    new Date(g.at * 1000).toLocaleString()));
  main.replaceChildren(
    el("h1", {}, data.username),
    data.ratings.length ? ratingTable(data.ratings, false)
                        : el("p", {}, t("profile.none", "No rated games yet.")),
    el("h2", {}, t("profile.recent", "Recent games")),
    games.length ? el("ul", { id: "recent", class: "recent" }, ...games)
                 : el("p", {}, t("profile.nogames", "None yet.")));
}

(async () => {
  const name = await whoami();
  if (path === "/account") accountPage(name);
  else if (path === "/leaderboard") leaderboardPage();
  else if (path.startsWith("/u/")) profilePage(decodeURIComponent(path.slice(3)));
})();
