// The account pages: log in or sign up (/account), the leaderboard (/leaderboard), and a
// player's profile with his ratings and recent games (/u/<name>).
import { t, language, variantName } from "./i18n.js";
import { el, whoami } from "./accountbar.js";

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
  document.title = t("account.page_title", "bito — your account");
  if (name) {
    main.replaceChildren(
      el("h1", {}, t("account.hello", "Logged in as {name}", { name })),
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
  const hint = el("p", { id: "account-hint", class: "summary" },
                  t("account.rules", "Username: 3 to 20 letters, digits, _ or -. Password: at "
                    + "least 8 characters."));
  const user = el("input", { id: "username", autocomplete: "username", maxlength: "20",
                             required: "", "aria-describedby": "account-hint" });
  const pass = el("input", { id: "password", type: "password", maxlength: "128", required: "",
                             autocomplete: "current-password",
                             "aria-describedby": "account-hint" });
  const go = (url) => async (ev) => {
    ev.preventDefault();
    const r = await send(url, { username: user.value, password: pass.value });
    if (!r.ok) {
      message.textContent = r.data.error || "?";
      const bad = r.data.field === "password" ? pass : r.data.field === "username" ? user : null;
      for (const input of [user, pass]) input.setAttribute("aria-invalid", String(input === bad));
      if (bad) bad.focus();
      return;
    }
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
    hint, form, message);
}

const familyName = (f) => t(`family.${f}`, f);

function ratingTable(rows, withName, caption = "") {
  const th = (text, abbr) => el("th", abbr ? { scope: "col", abbr } : { scope: "col" }, text);
  const head = el("tr", {}, ...(withName ? [th("#", t("leaders.place", "Place")),
                                            th(t("leaders.player", "Player"))]
                                         : [th(t("leaders.family", "Game family"))]),
                  th(t("leaders.rating", "Rating")), th(t("leaders.mu_sigma", "μ ± σ")),
                  th(t("leaders.games", "Games")));
  const body = rows.map((r, i) => el("tr", { class: r.bot ? "bot-row" : "" },
    ...(withName ? [el("td", {}, String(i + 1)),
                    el("th", { scope: "row" },
                       r.bot ? t("leaders.bot", "Bot ({level})", { level: t(`bot.${r.player}`, r.player) })
                             : el("a", { href: r.link }, r.player))]
                 : [el("th", { scope: "row" }, familyName(r.family))]),
    el("td", {}, r.rating.toFixed(1)), el("td", {}, `${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`),
    el("td", {}, String(r.games))));
  return el("table", { class: "ratings" },
            ...(caption ? [el("caption", { class: "sr-only" }, caption)] : []),
            el("thead", {}, head), el("tbody", {}, ...body));
}

async function leaderboardPage() {
  const family = new URLSearchParams(location.search).get("family");
  const res = await fetch(`/api/leaderboard${family ? `?family=${encodeURIComponent(family)}` : ""}`);
  const data = await res.json();
  document.title = t("leaders.page_title", "bito — leaderboard");
  if (!res.ok) {
    main.replaceChildren(el("h1", {}, t("leaders.title", "Leaderboard")),
                         el("p", { class: "message error", role: "alert" }, data.error));
    return;
  }
  const pick = el("select", { id: "family", onchange: () => {
    location.search = `?family=${encodeURIComponent(pick.value)}`; } },
    ...data.families.map((f) => {
      const o = el("option", { value: f }, familyName(f)); o.selected = f === data.family; return o; }));
  main.replaceChildren(
    el("h1", {}, t("leaders.title", "Leaderboard")),
    el("label", {}, t("leaders.family", "Game family"), " ", pick),
    el("p", { class: "summary" }, t("leaders.explain", "Rating = μ − 3σ (openskill): it grows as "
       + "you win and as the system grows sure of you. Bots sit on the same scale.")),
    ratingTable(data.rows, true, `${t("leaders.title", "Leaderboard")}: ${familyName(data.family)}`));
}

async function profilePage(name) {
  const res = await fetch(`/api/players/${encodeURIComponent(name)}`);
  const data = await res.json();
  document.title = t("profile.page_title", "bito — {name}", { name });
  if (!res.ok) {
    main.replaceChildren(el("h1", {}, name),
                         el("p", { class: "message error", role: "alert" }, data.error));
    return;
  }
  const games = data.games.map((g) => el("li", {},
    el("a", { href: g.replay, class: "replay" },
       g.game ? variantName(g.game.id, g.game.name) : familyName(g.family)), " — ",
    g.result === "fool" ? t("profile.fool", "the fool") : g.result === "draw"
      ? t("profile.draw", "a draw") : t("profile.won", "not the fool"),
    ` (${t("profile.change", "{change} μ",
           { change: `${g.change >= 0 ? "+" : ""}${g.change.toFixed(2)}` })}) · ${g.players.join(", ")} · `,
    new Date(g.at * 1000).toLocaleString(language())));
  main.replaceChildren(
    el("h1", {}, data.username),
    data.ratings.length ? ratingTable(data.ratings, false,
                                      t("profile.ratings", "Ratings of {name}", { name: data.username }))
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
