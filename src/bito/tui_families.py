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
from bito.games.protocol import seen_by
from bito.tui import BOT_NAMES, HUMAN_NAME, write_record

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

HELP = """\
Type a move by its number from the list, or in notation:
  7h        play the seven of hearts        Qh=s   play a wild queen and call spades
  draw      draw from the stock             pass   end your turn / keep a straight face
  sound     make your animal's sound        laugh  laugh at someone's sound
  claim     finish a Cheat claim            doubt  doubt the claim on the table
  g12 / 1   play green 12 / a wild 1 (Fool!)
  9h>7h     cover 7h with 9h                take   give up / take what the rules say
  turn      turn the top card of the stock (preludes, Polish fool); Durak moves in phase 2
Other commands: help, moves (show the position again), quit."""


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
    history: list[tuple[int, Any]] = []
    quit_early = False
    while not state.is_over:
        seat = state.to_act
        if players[seat] is None:
            action = _ask(state, human, read, write)
            if action is None:
                quit_early = True
                break
        else:
            action = players[seat].choose(state.view(seat))
        write(f"{names[seat]}: {seen_by(state, action, human).pretty()}")
        before = state
        state = state.apply(action)
        history.append((seat, action))
        for line in events(before, state, names):
            write(line)
    if not quit_early:
        write(str(state))
        write(outcome_line(state.outcome, names))
    if args.save:
        path = Path(args.save)
        write_record(path, record_text(spec, state, seed, names, history))
        write(f"Saved the game to {path}.")
    return 0


def _ask(state: Any, seat: int, read: InputFn, write: OutputFn) -> Any:
    """Show the human's view and read one legal action; None when he quits."""
    view = state.view(seat)
    legal = list(view.legal)
    write("")
    write(view_text(view))
    write("Your moves: " + "  ".join(f"[{i + 1}] {a}" for i, a in enumerate(legal)))
    while True:
        try:
            text = read("> ").strip()
        except EOFError:
            return None
        if text in ("quit", "exit", "q"):
            return None
        if text in ("help", "?"):
            write(HELP)
            continue
        if text in ("moves", ""):
            write(view_text(view))
            write("Your moves: " + "  ".join(f"[{i + 1}] {a}" for i, a in enumerate(legal)))
            continue
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        try:
            action = state.parse_action(text)
            state.apply(action)
        except BitoError as e:  # bad text, an illegal move: the user types again
            write(f"Not a move here: {e}")
            continue
        for option in legal:  # keep the engine's own object (its text names wild 1s etc.)
            if option == action:
                return option
        return action


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
