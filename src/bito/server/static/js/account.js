// The account pages: log in or sign up (/account), the leaderboard (/leaderboard), and a
// player's profile with his ratings and recent games (/u/<name>).
import { t, language, variantName } from "./i18n.js";
import { el, whoami } from "./accountbar.js";
import { nameWords } from "./board.js";

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
      } }, t("account.logout", "Log out")),
      ...housekeeping(name));
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

// Changing the password, signing out everywhere, deleting the account: each in its own
// labelled section, its outcome said in a live region next to it, the field at fault focused.
function housekeeping(name) {
  const input = (id, auto) => el("input", { id, type: "password", maxlength: "128",
                                            required: "", autocomplete: auto });
  const said = (id) => el("p", { id, class: "message", role: "status" });
  const refuse = (out, data, fields) => {
    out.textContent = data.error || "?";
    out.classList.add("error");
    const bad = fields[data.field] || null;
    for (const f of Object.values(fields)) f.setAttribute("aria-invalid", String(f === bad));
    if (bad) bad.focus();
  };
  const current = input("current-password", "current-password");
  const fresh = input("new-password", "new-password");
  const changed = said("password-message");
  const change = el("form", { id: "password-form", "aria-labelledby": "password-title",
                              onsubmit: async (ev) => {
    ev.preventDefault();
    const r = await send("/api/account/password", { current: current.value, password: fresh.value });
    if (!r.ok) { refuse(changed, r.data, { current, password: fresh }); return; }
    current.value = fresh.value = "";
    changed.classList.remove("error");
    changed.textContent = t("account.password_changed", "Password changed. Every other device "
                            + "is signed out.");
  } },
    el("h2", { id: "password-title" }, t("account.change_title", "Change your password")),
    el("label", {}, t("account.current", "Current password"), " ", current),
    el("label", {}, t("account.new", "New password (at least 8 characters)"), " ", fresh),
    el("button", { type: "submit", id: "change-password" }, t("account.change", "Change password")),
    changed);
  const everywhere = el("section", { "aria-labelledby": "everywhere-title" },
    el("h2", { id: "everywhere-title" }, t("account.everywhere_title", "Signed in elsewhere?")),
    el("p", {}, t("account.everywhere_explain", "Sign out on every device, this one too. Your "
                  + "seats stay yours: log in again to take them.")),
    el("button", { type: "button", id: "logout-everywhere", onclick: async () => {
      await send("/api/account/logout-everywhere", {});
      location.reload();
    } }, t("account.everywhere", "Sign out everywhere")));
  const confirmPass = input("delete-password", "current-password");
  const gone = said("delete-message");
  const remove = el("form", { id: "delete-form", "aria-labelledby": "delete-title",
                              onsubmit: async (ev) => {
    ev.preventDefault();
    const r = await send("/api/account/delete", { password: confirmPass.value });
    if (!r.ok) { refuse(gone, r.data, { password: confirmPass }); return; }
    location.href = "/account";
  } },
    el("h2", { id: "delete-title" }, t("account.delete_title", "Delete your account")),
    el("p", { id: "delete-explain" }, t("account.delete_explain", "Your ratings and profile "
       + "are deleted and your name is free for others. Seats you hold become guest seats on "
       + "the devices that have them. Past games keep your name as it was played: their "
       + "records and replays are what happened at those tables.")),
    el("label", {}, t("account.delete_password", "Your password, to confirm"), " ", confirmPass),
    el("button", { type: "submit", id: "delete-account", class: "danger",
                   "aria-describedby": "delete-explain" },
       t("account.delete", "Delete account {name}", { name })),
    gone);
  return [change, everywhere, remove];
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

// The family is chosen without a reload: the table is fetched and redrawn in place, the
// choice stays focused, the address follows (so a link or a reload shows the same board),
// and a polite live region says what is shown now.
async function fetchBoard(family) {
  const res = await fetch(`/api/leaderboard${family ? `?family=${encodeURIComponent(family)}` : ""}`);
  return { ok: res.ok, data: await res.json() };
}

async function leaderboardPage() {
  const { ok, data } = await fetchBoard(new URLSearchParams(location.search).get("family"));
  document.title = t("leaders.page_title", "bito — leaderboard");
  if (!ok) {
    main.replaceChildren(el("h1", {}, t("leaders.title", "Leaderboard")),
                         el("p", { class: "message error", role: "alert" }, data.error));
    return;
  }
  const caption = (f) => `${t("leaders.title", "Leaderboard")}: ${familyName(f)}`;
  const board = el("div", { id: "leaders-board" }, ratingTable(data.rows, true, caption(data.family)));
  const shown = el("p", { id: "board-status", class: "sr-only", role: "status" });
  const pick = el("select", { id: "family", "aria-controls": "leaders-board", onchange: async () => {
    const family = pick.value;
    board.setAttribute("aria-busy", "true");
    const r = await fetchBoard(family);
    board.removeAttribute("aria-busy");
    if (pick.value !== family) return;  // a newer choice is on its way
    if (!r.ok) { shown.textContent = r.data.error || "?"; return; }
    board.replaceChildren(ratingTable(r.data.rows, true, caption(r.data.family)));
    history.replaceState(null, "", `?family=${encodeURIComponent(r.data.family)}`);
    shown.textContent = t("leaders.shown", "{family}: {n} rated", {
      family: familyName(r.data.family), n: r.data.rows.length });
  } },
    ...data.families.map((f) => {
      const o = el("option", { value: f }, familyName(f)); o.selected = f === data.family; return o; }));
  main.replaceChildren(
    el("h1", {}, t("leaders.title", "Leaderboard")),
    el("label", {}, t("leaders.family", "Game family"), " ", pick),
    el("p", { class: "summary" }, t("leaders.explain", "Rating = μ − 3σ (openskill): it grows as "
       + "you win and as the system grows sure of you. Bots sit on the same scale.")),
    shown, board);
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
           { change: `${g.change >= 0 ? "+" : ""}${g.change.toFixed(2)}` })}) · ${g.players.map(nameWords).join(", ")} · `,
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
