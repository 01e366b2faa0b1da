// Between and around the deals: the end screen (who is the fool, the match score, rematch or
// leave), the running score line, and the overlay shown while the connection is lost.
import { h, tr, seatName, outcomeText } from "./board.js";

// "Deal 2 · fools: Alice 1, Bot Vera (strong) 0 · draws 0" (nothing for a first deal in play).
export function scoreText(frame) {
  const m = frame.match;
  if (!m || (m.deal === 1 && frame.status !== "over")) return "";
  const fools = m.fools.map((n, i) => `${seatName(frame.seats, i)} ${n}`).join(", ");
  return tr("match.score", "Deal {deal} · times the fool: {fools}", { deal: m.deal, fools }) +
    (m.draws ? ` · ${tr("match.draws", "draws {n}", { n: m.draws })}` : "");
}

// The result in words: a headline for the one reading it ("You won!", "You lost: you are the
// fool.", a draw) and the lines that say who lost (the fool, or the losing team and its
// fool). A spectator's headline is the result itself. No role of the last bout is named.
export function resultWords(frame) {
  const o = frame.outcome || {};
  const seated = frame.you !== null && frame.you !== undefined && !!frame.seats[frame.you];
  if (o.draw) return { headline: tr("outcome.draw", "A draw: nobody is the fool."), lines: [] };
  const fool = o.loser === null || o.loser === undefined ? null : o.loser;
  const lines = [];
  let lost = fool !== null && fool === frame.you;
  if (o.teams && o.losing_team !== null && o.losing_team !== undefined && o.teams[o.losing_team]) {
    const team = o.teams[o.losing_team];
    lines.push(tr("end.team_lost", "The team of {names} lost.", { names: team.map((seat) => seatName(frame.seats, seat)).join(", ") }));
    lost = team.includes(frame.you);
  }
  if (fool !== null && !(seated && fool === frame.you)) lines.push(outcomeText(o, frame.seats));
  if (!seated) {
    return { headline: lines.shift() || tr("end.over", "Game over."), lines };
  }
  if (fool === null && !o.teams) return { headline: tr("end.over", "Game over."), lines };
  const headline = !lost ? tr("end.you_won", "You won!")
    : fool === frame.you ? tr("end.you_fool", "You lost: you are the fool.")
      : tr("end.you_lost", "You lost.");
  return { headline, lines };
}

// The end screen: the fool named, the score, and (for a seated person) Rematch / Leave with
// everybody's answers so far.
export function drawEnd(root, frame, send) {
  root.replaceChildren();
  root.hidden = frame.status !== "over";
  if (root.hidden) return;
  const r = frame.rematch || { agreed: [], declined: [], waiting: [], next: null };
  const names = (seats) => seats.map((s) => seatName(frame.seats, s)).join(", ");
  const result = resultWords(frame);
  root.append(h("h2", { id: "end-title" }, result.headline));
  if (result.lines.length) {
    root.append(h("p", { class: "end-result", id: "end-result" }, result.lines.join(" ")));
  }
  const score = scoreText(frame);
  if (score) root.append(h("p", { class: "end-score", id: "end-score" }, score));
  const me = frame.you !== null && frame.you !== undefined ? frame.seats[frame.you] : null;
  const person = me && (me.kind === "human" || me.kind === "away");
  if (person && !r.next) {
    const answered = r.agreed.includes(frame.you) ? true : r.declined.includes(frame.you) ? false : null;
    root.append(h("div", { class: "end-buttons" },
      h("button", { id: "rematch", class: "primary", disabled: answered === true,
                    onclick: () => send({ type: "rematch", agree: true }) },
        answered === true ? tr("end.waiting", "Waiting for the others…") : tr("end.rematch", "Rematch")),
      h("button", { id: "leave", onclick: () => {
        send({ type: "rematch", agree: false });
        setTimeout(() => { location.href = "/"; }, 200);  // let the answer leave first
      } },
        tr("end.leave", "Leave the table"))));
  }
  const parts = [];
  if (r.agreed.length) parts.push(tr("end.agreed", "agreed: {names}", { names: names(r.agreed) }));
  if (r.waiting.length) parts.push(tr("end.waiting_for", "waiting for: {names}", { names: names(r.waiting) }));
  if (r.declined.length) parts.push(tr("end.declined", "left: {names}", { names: names(r.declined) }));
  if (parts.length) root.append(h("p", { class: "end-votes", id: "end-votes" }, parts.join(" · ")));
  if (r.declined.length) root.append(h("p", {}, tr("end.no_rematch", "No rematch: somebody left. Start a new table from the lobby.")));
  root.append(h("p", {}, h("a", { href: `/replay/${frame.table}` }, tr("end.replay", "Replay this game")),
                " · ", h("a", { href: "/" }, tr("end.lobby", "Back to the lobby"))));
}

// While the connection is lost: the board is disabled and the clock explained.
export function showOffline(root, game, lost, frame) {
  root.hidden = !lost;
  game.inert = lost;
  game.classList.toggle("disabled", lost);
  if (!lost) return;
  const playing = frame && frame.status === "playing";
  root.replaceChildren(h("div", { class: "offline-box", role: "alert" },
    h("h2", {}, tr("offline.title", "Connection lost — reconnecting…")),
    h("p", {}, tr("offline.seat", "Your seat is kept; the table comes back as soon as the connection does.")),
    playing ? h("p", {}, tr("offline.clock",
      "The move clock keeps running on the server. If your time runs out, the server moves for you: a defender takes, a thrower passes, an attacker gets a bot's move.")) : null));
}
