// The table's chat: messages, quick reactions, and a mute list kept in this browser only
// (nobody else learns whom you muted). Every text is put in the page with textContent, never
// as HTML, so a message is always just the characters typed.
import { h, tr } from "./board.js";
import { reactionPicture, REACTION_WORDS } from "./reactions.js";

export const REACTIONS = ["👍", "👎", "😂", "😮", "😢", "🔥", "👏", "🃏"];
const MAX = 200;

export function createChat({ root, send, matchId }) {
  const muteKey = `bito:mute:${matchId}`;
  const muted = new Set(JSON.parse(localStorage.getItem(muteKey) || "[]"));
  // focusable, as a long talk scrolls and a keyboard must reach it
  const log = h("ul", { class: "chat-log", id: "chat-log", "aria-live": "polite", tabindex: "0",
                        "aria-label": tr("chat.log", "chat messages") });
  const input = h("input", { id: "chat-text", maxlength: String(MAX), autocomplete: "off",
                             "aria-label": tr("chat.input", "message to the table"),
                             placeholder: tr("chat.placeholder", "Say something…") });
  const form = h("form", { id: "chat-form", class: "chat-form" }, input,
                 h("button", { type: "submit", id: "chat-send" }, tr("chat.send", "Send")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", text });
    input.value = "";
  });
  const said = (r) => (REACTION_WORDS[r] ? tr(...REACTION_WORDS[r]) : r);
  const reactions = h("div", { class: "reactions", id: "reactions" },
    REACTIONS.map((r) => h("button", { type: "button", class: "reaction", "data-reaction": r,
                                       "aria-label": tr("chat.react", "react {emoji}", { emoji: said(r) }),
                                       title: said(r),
                                       onclick: () => send({ type: "chat", reaction: r }) },
                           reactionPicture(r))));
  const note = h("p", { class: "chat-note", id: "chat-note" });
  root.replaceChildren(h("h2", {}, tr("chat.title", "Chat")), log, reactions, form, note);

  const who = (m) => (m.seat === null || m.seat === undefined ? "spectator" : `seat ${m.seat}`);

  function saveMutes() { localStorage.setItem(muteKey, JSON.stringify([...muted])); }

  function toggleMute(key) {
    muted.has(key) ? muted.delete(key) : muted.add(key);
    saveMutes();
    for (const li of log.querySelectorAll("li")) li.hidden = muted.has(li.dataset.sender);
    for (const b of log.querySelectorAll("button.mute")) {
      b.textContent = muted.has(b.dataset.sender) ? tr("chat.unmute", "unmute") : tr("chat.mute", "mute");
    }
  }

  return {
    // A connection that opens is sent the recent messages again: start from an empty log.
    clear() { log.replaceChildren(); },
    // One frame of type "chat". `you` is this page's seat (its own messages have no mute).
    add(m, you) {
      const key = who(m);
      // The server names a spectator with the English word: said again in the page's language.
      const sender = m.seat === null || m.seat === undefined
        ? tr("chat.spectator", "spectator") : m.sender;
      const li = h("li", { class: "chat-line" + (m.reaction ? " reaction-line" : "") +
                                  (m.spectators ? " from-spectator" : ""), "data-sender": key },
        h("strong", { class: "chat-sender" }, sender), ": ",
        m.reaction ? h("span", { class: "chat-text", title: said(m.text), "data-reaction": m.text },
                       reactionPicture(m.text), h("span", { class: "sr-only" }, said(m.text)))
          : h("span", { class: "chat-text" }, m.text));
      const mine = m.seat !== null && m.seat !== undefined && m.seat === you;
      if (!mine && m.seat !== null && m.seat !== undefined) {
        li.append(" ", h("button", { type: "button", class: "mute", "data-sender": key,
                                     "aria-label": tr("chat.mute_who", "mute or unmute {name}", { name: sender }),
                                     onclick: () => toggleMute(key) },
                          muted.has(key) ? tr("chat.unmute", "unmute") : tr("chat.mute", "mute")));
      }
      li.hidden = muted.has(key);
      log.append(li);
      while (log.children.length > 100) log.firstChild.remove();
      log.scrollTop = log.scrollHeight;
    },
    // The host's choice for the audience, said to spectators.
    setNote(frame) {
      const off = frame.spectator_chat === "off";
      note.textContent = frame.you === null
        ? (off ? tr("chat.spectators_off", "The host switched the spectators' chat off.")
               : tr("chat.spectators_separate", "Spectators talk among themselves; the players do not see it."))
        : "";
      form.hidden = reactions.hidden = frame.you === null && off;
    },
  };
}
