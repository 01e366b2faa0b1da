"""Terminal play and replay pictures for the shedding, trick-taking and social games.

Everything goes through the protocol of :mod:`bito.games.protocol`: the human sees only
``str(state.view(seat))`` (the pile top and the called suit, the trick and the Fool disc, the
scores, whatever the game shows), picks an action by number or types its notation, and the
bots choose from their own views. Round and trick results are announced as they happen; the
whole position is shown when the game is over.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bito.bots import make_bot
from bito.errors import BitoError
from bito.games import family_for, family_name, new_game
from bito.games.protocol import decider, seen_by
from bito.tui import BOT_NAMES, FORCED_NOTE, HINT_WORDS, HUMAN_NAME, UNDO_WORDS, write_record

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

HELP = """\
Type a move by its number from the list, or in notation:
  7h        play the seven of hearts        Qh=s   play a wild queen and call spades
  draw      draw from the stock             pass   end your turn / keep a straight face
  sound     make your animal's sound        laugh  laugh at someone's sound
  claim     finish a Cheat claim            doubt  doubt the claim on the table
  g12 / w1  play green 12 / a wild 1 (Fool!; a bare number picks a move from the list)
  9h>7h     cover 7h with 9h                take   give up / take what the rules say
  turn      turn the top card of the stock (preludes, Polish fool); Durak moves in phase 2
Other commands: help, moves (show the position again), hint (what the strong bot would
play), undo (take back your last move and the bots' replies since), quit."""


def family_help(state: Any) -> str:
    """The in-game help for this game."""
    return HELP


def _durak_view_text(view: Any) -> str:
    from bito.games.durak.render import render_view

    names = [f"seat {s}" for s in range(view.players)]
    return "Phase 2 (Durak):\n" + render_view(view, names)


#: How the terminal draws a view, by family name; a family not listed prints its view. A
#: Durak view shows up here as the second phase of a prelude game (#67/#68).
VIEW_PICTURES: dict[str, Callable[[Any], str]] = {"durak": _durak_view_text}


def view_text(view: Any) -> str:
    """What the human sees: the view's own text, or its family's picture of it."""
    return VIEW_PICTURES.get(family_name(view), str)(view)


def outcome_line(outcome: Any, names: Sequence[str]) -> str:
    """The result in words: the winner, the fool, the scores."""
    if outcome is None:
        return "End of the record: the game was not finished."
    parts = []
    if outcome.order:
        parts.append(f"{names[outcome.order[0]]} wins")
    if outcome.loser is not None:
        parts.append(f"{names[outcome.loser]} is the fool")
    elif outcome.draw:
        parts.append("nobody is the fool (a tie)")
    scores = getattr(outcome, "scores", ())
    if scores:
        table = ", ".join(f"{names[s]} {scores[s]}" for s in range(len(scores)))
        parts.append(f"scores after {outcome.rounds} round(s): {table}")
    note = getattr(outcome, "note", "")
    if note:
        parts.append(f"({note})")
    return "; ".join(parts) + "."


def events(before: Any, after: Any, names: Sequence[str]) -> list[str]:
    """What an action made happen that the next picture does not show: a round scored, a
    trick won, a doubt settled, a player out."""
    out: list[str] = []
    rnd = getattr(after, "last_round", None)
    if rnd is not None and rnd is not getattr(before, "last_round", None):
        who = names[rnd.winner] if rnd.winner is not None else "nobody (blocked)"
        pens = ", ".join(f"{names[s]} {p}" for s, p in enumerate(rnd.penalties))
        out.append(f"Round {rnd.number + 1} is over: {who} went out. Penalty points: {pens}.")
    trick = getattr(after, "last_trick", None)
    if trick is not None and trick is not getattr(before, "last_trick", None):
        fools = " and ".join(names[s] for s in trick.fools) or "nobody"
        out.append(f"{names[trick.winner]} wins the trick; the Fool: {fools}.")
    reveal = getattr(after, "last_reveal", "")
    if reveal and reveal != getattr(before, "last_reveal", ""):
        out.append(reveal)
    gone = [s for s in getattr(after, "out", []) if s not in getattr(before, "out", [])]
    out += [f"{names[s]} is out." for s in gone]
    return out


#: What the human types for Fool!'s wild 1 (a bare number picks a move from the list).
WILD_TEXT = "w1"


def move_text(action: Any) -> str:
    """An action as the human types it: its notation, except that Fool!'s wild 1 is ``w1``
    (the engine also reads a bare ``1``, which the terminal keeps for move number 1)."""
    text = str(action)
    return WILD_TEXT if text == "1" and getattr(action, "deck", "") == "fool" else text


def moves_line(legal: Sequence[Any]) -> str:
    return "Your moves: " + "  ".join(f"[{i + 1}] {move_text(a)}" for i, a in enumerate(legal))


class FamilyTerminal:
    """One non-Durak game at the terminal: the human at ``human``, a bot in every other seat
    (``None`` in ``players`` marks the human). Forced moves are played for the human unless
    ``auto`` is off; ``undo`` takes back his last choice and everything since."""

    def __init__(self, state: Any, names: Sequence[str], players: Sequence[Any], human: int,
                 read: InputFn = input, write: OutputFn = print, auto: bool = True,
                 hint: bool = False, seed: int = 0) -> None:
        self.state = state
        self.names = list(names)
        self.players = list(players)
        self.human = human
        self.read = read
        self.write = write
        self.auto = auto
        self.show_hints = hint
        self.seed = seed
        #: (seat, action, the state before it, chosen by the human) per move played.
        self.history: list[tuple[int, Any, Any, bool]] = []
        self._hinter: Any = None

    def run(self) -> bool:
        """Play to the end or until the human leaves; True when the game finished."""
        while not self.state.is_over:
            seat = self.state.to_act
            self.tell_trumps()
            if self.players[decider(self.state)] is None:
                legal = list(self.state.view(seat).legal)
                if self.auto and len(legal) == 1:
                    self.play(seat, legal[0], note=FORCED_NOTE)
                    continue
                action = self.ask(seat)
                if action is None:
                    return False
                if action is _UNDONE:
                    continue
                self.play(seat, action, chosen=True)
            else:
                bot = self.players[decider(self.state)]
                self.play(seat, bot.choose(self.state.view(seat)))
        return True

    def tell_trumps(self) -> None:
        """Let a :class:`bito.term.Printer` highlight the trump suit (China fool, Polish fool,
        the preludes' second phase); games without trumps have none to tell."""
        set_trumps = getattr(self.write, "set_trumps", None)
        if set_trumps is None:
            return
        trumps = getattr(self.state, "trumps", None)
        if trumps is None:
            suit = getattr(self.state, "trump_suit", -1)
            trumps = (suit,) if isinstance(suit, int) and suit >= 0 else ()
        set_trumps(trumps)

    def play(self, seat: int, action: Any, chosen: bool = False, note: str = "") -> None:
        before = self.state
        shown = seen_by(before, action, self.human)
        words = shown.pretty()
        line = f"{self.names[seat]}: {WILD_TEXT if move_text(shown) == WILD_TEXT else words}"
        self.write(f"{line} {note}" if note else line)
        self.state = before.apply(action)
        self.history.append((seat, action, before, chosen))
        for text in events(before, self.state, self.names):
            self.write(text)

    def undo(self) -> str:
        """Take back the human's last chosen move and every move after it."""
        if all(p is None for p in self.players):
            return "Nothing to undo: there are no bots in this game to take moves back from."
        marks = [chosen for _, _, _, chosen in self.history]
        if True not in marks:
            return "Nothing to undo: you have not chosen a move yet in this game."
        last = len(marks) - 1 - marks[::-1].index(True)
        move = self.history[last][1]
        since = len(marks) - last - 1
        self.state = self.history[last][2]
        del self.history[last:]
        after = f" and {since} move{'s' if since > 1 else ''} since" if since else ""
        return f"Took back your move {move_text(move)}{after}. Your turn again."

    def hint_line(self, view: Any) -> str:
        """What the strong bot would play from the human's view (its level's search)."""
        try:
            if self._hinter is None:
                from bito.bots.levels import make_level

                self.write("Thinking (the strong bot looks at your position)...")
                self._hinter = make_level("strong", self.seed)
            choice = self._hinter.choose(view)
        except (BitoError, ValueError, NotImplementedError, ImportError, TypeError) as e:
            return f"No hint in this game: the strong bot cannot play it ({e})."
        words = choice.pretty()
        said = f" ({words})" if words != str(choice) else ""
        return f"Hint: the strong bot would play {move_text(choice)}{said}."

    def ask(self, seat: int) -> Any:
        """Show the human's view and read one legal action; None when he leaves, _UNDONE
        after an undo (the loop then shows the position again)."""
        state = self.state
        view = state.view(seat)
        legal = list(view.legal)
        self.write("")
        self.write(view_text(view))
        self.write(moves_line(legal))
        if self.show_hints:
            self.write(self.hint_line(view))
        while True:
            try:
                text = self.read("> ").strip()
            except (EOFError, KeyboardInterrupt):
                return None
            word = text.lower()
            if word in ("quit", "exit", "q"):
                return None
            if word in ("help", "?", "h"):
                self.write(family_help(state))
                continue
            if word in ("moves", ""):
                self.write(view_text(view))
                self.write(moves_line(legal))
                continue
            if word in UNDO_WORDS:
                said = self.undo()
                self.write(said)
                if said.startswith("Took back"):
                    return _UNDONE
                continue
            if word in HINT_WORDS:
                self.write(self.hint_line(view))
                continue
            if word.isdigit():
                if 1 <= int(word) <= len(legal):
                    return legal[int(word) - 1]
                self.write(f"Not a move here: choose 1 to {len(legal)}, not {word}"
                           + (f" (the wild 1 is {WILD_TEXT})" if word == "1" else "") + ".")
                continue
            try:
                action = state.parse_action(text)
                state.apply(action)
            except BitoError as e:  # bad text, an illegal move: the user types again
                write_reason = " ".join(str(e).split())
                self.write(f"Not a move here: {write_reason}")
                continue
            for option in legal:  # keep the engine's own object (its text names wild 1s etc.)
                if option == action:
                    return option
            return action


#: ``FamilyTerminal.ask``'s answer after an undo.
_UNDONE = object()


def play_family(spec: str, args: argparse.Namespace, bots: Sequence[str], seed: int,
                read: InputFn = input, write: OutputFn = print) -> int:
    """``bito play`` for a non-Durak game: one human at ``args.seat`` against bots."""
    state = new_game(spec, args.players, seed=seed)
    human = args.seat
    kinds = iter(bots)
    names: list[str] = []
    players: list[Any] = []
    bot_names = iter(BOT_NAMES)
    for s in range(args.players):
        if s == human:
            names.append(HUMAN_NAME)
            players.append(None)
        else:
            kind = next(kinds)
            names.append(f"{next(bot_names)} ({kind})")
            players.append(make_bot(kind, seed * 101 + s))
    write(f"{spec}, {args.players} players, seed {seed}. You are seat {human}. "
          "Type help for the notation.")
    write("Seats: " + ", ".join(f"{s} {name}" for s, name in enumerate(names)))
    if getattr(args, "deals", 1) > 1:
        write("(--deals is ignored: this game plays its rounds inside one game)")
    term = FamilyTerminal(state, names, players, human, read, write,
                          auto=not getattr(args, "no_auto", False),
                          hint=bool(getattr(args, "hint", False)), seed=seed)
    finished = term.run()
    state = term.state
    if finished:
        write(str(state))
        write(outcome_line(state.outcome, names))
    if args.save:
        path = Path(args.save)
        history = [(seat, action) for seat, action, _, _ in term.history]
        write_record(path, record_text(spec, state, seed, names, history))
        write(f"Saved the game to {path}.")
    return 0


def record_text(spec: str, state: Any, seed: int, names: Sequence[str],
                history: Sequence[tuple[int, Any]]) -> str:
    """A full JSON Lines record (the format of :mod:`bito.record`) of a non-Durak game."""
    header = {"bito": "record", "version": 1, "game": family_for(spec).name, "variant": spec,
              "players": len(names), "seed": seed, "names": list(names)}
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps({"n": i + 1, "seat": s, "action": str(a)})
              for i, (s, a) in enumerate(history)]
    if state.outcome is not None:
        lines.append(json.dumps({"outcome": state.outcome.to_json()}))
    return "\n".join(lines) + "\n"


def family_frames(record: Any, states: Sequence[Any], names: Sequence[str], moves: list[str]
                  ) -> tuple[list[str], list[str], str]:
    """``bito replay`` pictures of a non-Durak record: each state's printable form."""
    total = len(record.actions)
    for i, (seat, action) in enumerate(record.actions, 1):
        moves.append(f"Move {i} of {total}: {action}  ({names[seat]}: {action.pretty()})")
    return moves, [str(st) for st in states], outcome_line(states[-1].outcome, names)
