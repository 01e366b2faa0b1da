// Taking one's seat on this device: with a "continue on another device" link
// (#continue=<ticket>, a fragment, so it never reaches a server log), or, logged in, the
// account's own seat at this table. And the button that makes such a link.
import { t } from "./i18n.js";
import { el } from "./accountbar.js";

async function post(url, body) {
  const res = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}) });
  let data = {};
  try { data = await res.json(); } catch { /* an empty answer */ }
  return { ok: res.ok, status: res.status, data };
}

// {seat, token} for this device, {error} to show, or null (nothing to take: watch or join).
export async function recoverSeat(tableId) {
  const match = location.hash.match(/^#continue=([A-Za-z0-9_-]+)$/);
  if (match) {
    history.replaceState(null, "", location.pathname);  // the ticket leaves the address bar
    const r = await post(`/api/tables/${tableId}/continue`, { ticket: match[1] });
    if (r.ok) return { seat: r.data.seat, token: r.data.token };
    return { error: r.data.error || t("move.invalid", "This link does not work any more.") };
  }
  const r = await post(`/api/tables/${tableId}/claim`);
  return r.ok ? { seat: r.data.seat, token: r.data.token } : null;
}

// Logged in with a seat on this device: the seat becomes the account's (it follows it from
// then on). A guest's answer is a 401, and nothing changes.
export async function adoptSeat(tableId, token) {
  try {
    await fetch(`/api/tables/${tableId}/own`, { method: "POST",
                                                headers: { "X-Bito-Token": token } });
  } catch { /* offline: tried again at the next visit */ }
}

// The button under the table; `token()` gives the seat's token while this device has one.
export function createMoveButton(tableId, token) {
  const box = el("section", { id: "devices", class: "devices", hidden: "",
                             "aria-label": t("move.region", "Your seat on another device") });
  const out = el("div", { id: "move-link", class: "move-link", "aria-live": "polite" });
  const button = el("button", { type: "button", id: "move-seat", onclick: async () => {
    const mine = token();
    if (!mine) return;
    const res = await fetch(`/api/tables/${tableId}/move`, {
      method: "POST", headers: { "X-Bito-Token": mine } });
    const data = await res.json();
    if (!res.ok) { out.replaceChildren(data.error); return; }
    const qr = el("div", { class: "qr", role: "img",
                           "aria-label": t("move.qr", "QR code of the link") });
    // the SVG is drawn by our server from our own link: no user text inside
    qr.innerHTML = data.qr_svg;
    out.replaceChildren(
      el("p", {}, t("move.explain", "Open this on your other device within {s} s. It works "
                    + "once, for your seat only; this page then only watches.",
                    { s: Math.round(data.expires_in) })),
      el("input", { id: "move-url", readonly: "", value: data.link, size: "40",
                    "aria-label": t("move.link", "your personal link") }),
      qr);
  } }, t("move.button", "Continue on another device"));
  box.append(button, out);
  (document.querySelector("aside") || document.body).append(box);
  return {
    update(show) {
      box.hidden = !show;
      if (!show) out.replaceChildren();
    },
  };
}
