// The header's account corner on every page: who is logged in, or a way to log in. Guests
// never need it: playing stays one click.
import { t } from "./i18n.js";

export function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const kid of kids) node.append(kid);  // text stays text
  return node;
}

export async function whoami() {
  try {
    const res = await fetch("/api/account/me");
    return res.ok ? (await res.json()).username : null;
  } catch { return null; }
}

export async function drawBar() {
  let bar = document.getElementById("account-bar");
  if (!bar) {
    const header = document.querySelector("header");
    if (!header) return null;
    bar = el("nav", { id: "account-bar", class: "account-bar",
                      "aria-label": t("account.corner", "Account") });
    header.append(bar);
  }
  const name = await whoami();
  bar.replaceChildren(
    el("a", { href: "/leaderboard" }, t("account.leaderboard", "Leaderboard")),
    el("span", { class: "sep", "aria-hidden": "true" }, " · "),
    name ? el("a", { href: `/u/${encodeURIComponent(name)}`, id: "account-name" }, name)
         : el("a", { href: "/account", id: "account-login" }, t("account.login", "Log in")));
  // Logged in: the name at a new table is the account's, unless one was typed already.
  for (const id of ["name", "join-name"]) {
    const input = document.getElementById(id);
    if (name && input && !input.value) input.value = name;
  }
  return name;
}

drawBar();
