"""Game records: one JSON Lines file per game, full or censored for one seat.

A full record holds everything needed to replay the game exactly: the rules, the players, the
seed and the match context (which together fix the deal), then one line per action::

    {"bito": "record", "version": 1, "variant": "podkidnoy", "players": 2, "seed": 7, ...}
    {"n": 1, "seat": 1, "action": "7d"}
    {"n": 2, "seat": 0, "action": "9d>7d"}
    ...
    {"outcome": {"loser": 0, "order": [1, 0], "draw": false}}

A censored record, for one seat, leaves out the seed (it would reveal the deal) and instead
carries that seat's censored position (see :mod:`bito.notation`) after every action, so it
replays to exactly what the seat saw. During play only a censored record may be handed out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bito.cards import card_str
from bito.errors import BitoError, IllegalActionError, InvalidNotationError, RecordError
from bito.games import family_for
from bito.games.durak.actions import TOSS, Revealed
from bito.games.durak.blind import FaceOut
from bito.games.durak.view import extension_of
from bito.games.family import seen_by
from bito.games.game import Game
from bito.games.protocol import PlayState, hidden, is_hidden_text

VERSION = 1

AnyState = TypeVar("AnyState", bound=PlayState)
"""The state type of a game being written (a game of any family)."""


@dataclass
class GameRecord:
    """A parsed record. ``views`` is set only for a censored record (one text per frame)."""

    header: dict[str, Any]
    actions: list[tuple[int, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    views: list[str] | None = None

    @property
    def censored_for(self) -> int | None:
        seat = self.header.get("censored_for")
        return seat if isinstance(seat, int) else None

    def start_state(self) -> Any:
        """The dealt position this record starts from (full records only), a state of the
        record's family."""
        return family_for(self.header["variant"]).start_from_record(self.header)

    def replay(self) -> list[Any]:
        """Every state from the deal to the end. Raises :class:`RecordError` naming the line
        of an action that does not fit (wrong seat or illegal)."""
        if self.censored_for is not None:
            raise RecordError(0, "a censored record holds views, not states: use frames()")
        state = self.start_state()
        states = [state]
        for i, (seat, action) in enumerate(self.actions):
            line = i + 2
            if state.is_over:
                raise RecordError(line, "action after the end of the game")
            if seat != state.to_act:
                raise RecordError(line, f"seat {seat} moves but seat {state.to_act} is to act")
            try:
                state = state.apply(action)
            except IllegalActionError as e:
                raise RecordError(line, f"illegal action {action}: {e}") from None
            states.append(state)
        if self.outcome is not None:
            if not state.is_over:
                raise RecordError(len(self.actions) + 2, "an outcome is given but the game "
                                  "is not over after the recorded actions")
            if state.outcome is not None and self.outcome != state.outcome.to_json():
                raise RecordError(len(self.actions) + 2, "the recorded outcome does not match "
                                  "the replay")
        return states

    def frames(self) -> list[tuple[str | None, str]]:
        """(move played to get here, picture of the position) for stepping through a game."""
        names = self.header.get("names") or []
        if self.views is not None:
            moves: list[str | None] = [None] + [
                f"{_name(names, s)}: {a.pretty()} ({a})" for s, a in self.actions]
            return list(zip(moves, self.views, strict=True))
        states = self.replay()
        render = family_for(self.header["variant"]).picture
        out: list[tuple[str | None, str]] = [(None, render(states[0]))]
        for (seat, action), before, st in zip(self.actions, states, states[1:], strict=False):
            # #58: a blind play is shown with the card it turned up
            blind = extension_of(before.view(seat), FaceOut) is not None
            shown = seen_by(before, action, None) if blind else action
            out.append((f"{_name(names, seat)}: {shown.pretty()} ({shown})", render(st)))
        return out

    def censored(self, seat: int) -> GameRecord:
        """The record as ``seat`` may see it."""
        if self.censored_for is not None:
            raise RecordError(0, "already censored")
        states = self.replay()
        header = {k: v for k, v in self.header.items() if k != "seed"}
        header["censored_for"] = seat
        # Durak views are position text; the other families print their views (what the
        # terminal shows that seat)
        family = family_for(self.header["variant"])
        views = [family.position_text(s, seat) for s in states]
        # a move that hid its cards from this seat is written as the seat saw it
        actions = [(mover, seen_by(before, action, seat))
                   for (mover, action), before in zip(self.actions, states, strict=False)]
        return GameRecord(header=header, actions=actions, outcome=self.outcome, views=views)

    def to_jsonl(self) -> str:
        lines = [json.dumps(self.header, ensure_ascii=False)]
        if self.views is not None:
            lines.append(json.dumps({"n": 0, "view": self.views[0]}, ensure_ascii=False))
        for i, (seat, action) in enumerate(self.actions):
            entry: dict[str, Any] = {"n": i + 1, "seat": seat, "action": str(action)}
            if self.views is not None:
                entry["view"] = self.views[i + 1]
            lines.append(json.dumps(entry, ensure_ascii=False))
        if self.outcome is not None:
            lines.append(json.dumps({"outcome": self.outcome}))
        return "\n".join(lines) + "\n"


def _name(names: list[Any], seat: int) -> str:
    return str(names[seat]) if 0 <= seat < len(names) else f"seat {seat}"


def record_from_game(game: Game[AnyState], names: list[str] | None = None, spec: str | None = None,
                     people: list[int] | None = None) -> GameRecord:
    """The full record of a game played through :class:`~bito.games.Game`. ``spec`` is the
    variant spec the game was dealt from, for families whose records name the spec as given
    (a Durak record writes its rules out in full). ``people`` lists the seats people sat in
    (``bito review`` reviews those by default); without it the record does not say."""
    start = game.start
    header: dict[str, Any] = {
        "bito": "record", "version": VERSION,
        **family_for(start).record_fields(start, spec),
        "names": list(names) if names else [f"seat {i}" for i in range(start.players)],
    }
    if people is not None:
        header["people"] = sorted(set(people))
    outcome = game.state.outcome.to_json() if game.state.outcome else None
    return GameRecord(header=header, actions=list(zip(game.seats, game.actions, strict=True)),
                      outcome=outcome)


_REQUIRED = {"variant": str, "players": int}

#: The longest record line and record read: a censored line (a view of a few hundred
#: characters and an action) stays far below the first; the engine's longest games, with a
#: view on every line, below the second. Checked before any parsing, so a crafted file cannot
#: make the loader build something huge.
MAX_RECORD_LINE = 65536
MAX_RECORD = 64 * 1024 * 1024


def load_record(text: str) -> GameRecord:
    """Parse a record. A malformed one raises :class:`RecordError` naming the line at fault."""
    if len(text) > MAX_RECORD:
        raise RecordError(0, f"a record is at most {MAX_RECORD} characters, this one has "
                          f"{len(text)}")
    lines = [ln for ln in text.splitlines()]
    if not lines or not lines[0].strip():
        raise RecordError(1, "empty record: the first line must be the JSON header")
    header = _json_line(lines[0], 1)
    if header.get("bito") != "record":
        raise RecordError(1, 'not a bito record (the header needs "bito": "record")')
    if header.get("version") != VERSION:
        raise RecordError(1, f"unsupported record version {header.get('version')!r}")
    for key, typ in _REQUIRED.items():
        if not isinstance(header.get(key), typ):
            raise RecordError(1, f"header field {key!r} missing or not a {typ.__name__}")
    family = header.get("game", "durak")  # records older than the other families name none
    try:
        game = family_for(header["variant"])
        game.resolve(header["variant"])
    except BitoError as e:
        raise RecordError(1, f"variant: {e}") from None
    actual = game.name
    if family != actual:
        # The header's two fields must agree, or a Mau-Mau record would replay as Durak
        # (and be labelled with the wrong game).
        raise RecordError(1, f"header field 'game' is {family!r} but variant "
                          f"{header['variant']!r} is a game of the {actual!r} family")
    censored = header.get("censored_for")
    _check_header(header)
    seed = header.get("seed")
    if censored is None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(1, "header field 'seed' missing or not a whole number")
    record = GameRecord(header=header, views=[] if censored is not None else None)
    for no, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            continue
        entry = _json_line(raw, no)
        if "outcome" in entry:
            if not isinstance(entry["outcome"], dict):
                raise RecordError(no, "outcome must be an object")
            record.outcome = entry["outcome"]
            continue
        if record.outcome is not None:
            raise RecordError(no, "nothing may follow the outcome line")
        if record.views is not None and "view" in entry:
            if not isinstance(entry["view"], str):
                raise RecordError(no, "'view' must be the view's text")
            if game.views_are_positions:
                try:
                    game.check_position_text(entry["view"])
                except InvalidNotationError as e:
                    raise RecordError(no, f"view: {e.reason}") from None
            record.views.append(str(entry["view"]))
            if entry.get("n") == 0:
                continue
        elif record.views is not None:
            raise RecordError(no, "a censored record needs a view on every line")
        seat, action_text = entry.get("seat"), entry.get("action")
        if not isinstance(seat, int) or not 0 <= seat < header["players"]:
            raise RecordError(no, f"'seat' must be a seat number 0..{header['players'] - 1}")
        if not isinstance(action_text, str):
            raise RecordError(no, "'action' must be the action's text")
        try:
            action: Any
            if censored is not None and is_hidden_text(action_text):
                action = hidden("hidden", action_text.count("?"), action_text)
            elif censored is not None:
                action = game.parse_seen_action(action_text)
            else:
                action = game.parse_action(action_text)
        except InvalidNotationError as e:
            raise RecordError(no, f"action {action_text!r}: {e.reason}") from None
        record.actions.append((seat, action))
    if record.views is not None:
        if len(record.views) != len(record.actions) + 1:
            raise RecordError(len(lines), "a censored record needs the starting view (n = 0)")
        if game.views_are_positions:  # the other families' views are pictures
            _check_censored(record)
    return record


def _is_seat(value: Any, players: int, allow_none: bool = True) -> bool:
    if value is None:
        return allow_none
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def _check_header(header: dict[str, Any]) -> None:
    """Reject header fields of the wrong type or out of range, naming the field (line 1)."""
    n = header["players"]
    if not 2 <= n <= 12:
        raise RecordError(1, f"header field 'players' out of range: {n}")
    names = header.get("names")
    if names is not None and (not isinstance(names, list) or len(names) != n
                              or not all(isinstance(x, str) for x in names)):
        raise RecordError(1, f"header field 'names' must be a list of {n} strings")
    people = header.get("people")
    if people is not None and (not isinstance(people, list)
                               or not all(_is_seat(p, n, allow_none=False) for p in people)):
        raise RecordError(1, f"header field 'people' must be a list of seats 0..{n - 1}")
    match = header.get("match")
    if match is None:
        return
    if not isinstance(match, dict):
        raise RecordError(1, "header field 'match' must be an object")
    number = match.get("game_number", 0)
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise RecordError(1, "header field 'match.game_number' must be a whole number >= 0")
    for key in ("dealer", "previous_fool", "previous_winner"):
        if not _is_seat(match.get(key), n):
            raise RecordError(1, f"header field 'match.{key}' must be a seat 0..{n - 1} or null")
    censored = header.get("censored_for")
    if censored is not None and not _is_seat(censored, n, allow_none=False):
        raise RecordError(1, f"header field 'censored_for' must be a seat 0..{n - 1}")


def _view_field(view: str, key: str) -> str:
    for word in view.split()[1:]:
        k, _, v = word.partition("=")
        if k == key:
            return v
    return ""


def _check_censored(record: GameRecord) -> None:
    """The parts of a censored record that can be checked without the hidden cards: each line's
    seat is the one its previous view says is to act, the seat's own hand changes only by the
    cards it plays or is dealt, and the outcome agrees with the final view."""
    assert record.views is not None
    seat = record.censored_for
    for i, (mover, action) in enumerate(record.actions):
        before = record.views[i]
        if _view_field(before, "phase") == "over":
            raise RecordError(i + 3, "action after the end of the game")
        to_act = _view_field(before, "to_act")
        if to_act != str(mover):
            raise RecordError(i + 3, f"seat {mover} moves but the view says seat {to_act} "
                              "is to act")
        if mover == seat and action.cards:
            hands = _view_field(before, "hands").split("/")
            own = hands[seat] if seat is not None and seat < len(hands) else ""
            if own.startswith("??") and isinstance(action, Revealed):
                continue  # #58: a hand held face out; the card was unseen until played
            if action.kind == TOSS:  # #56: thrown from the dummy's hand, which he sees
                own = _view_field(before, "dummy")
            for card in action.cards:
                if card_str(card) not in own:
                    raise RecordError(i + 3, f"seat {seat} plays {card_str(card)}, which its "
                                      "own view does not show in its hand")
    final = record.views[-1]
    over = _view_field(final, "phase") == "over"
    if record.outcome is not None and not over:
        raise RecordError(len(record.actions) + 3, "an outcome is given but the final view "
                          "shows the game still going")
    if record.outcome is not None:
        out = [int(x) for x in _view_field(final, "out").split(".") if x.isdigit()]
        if list(record.outcome.get("order", []))[: len(out)] != out:
            raise RecordError(len(record.actions) + 3, "the outcome's order does not match "
                              "the final view")


def _json_line(raw: str, no: int) -> dict[str, Any]:
    if len(raw) > MAX_RECORD_LINE:
        raise RecordError(no, f"line longer than {MAX_RECORD_LINE} characters")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as e:
        # json's own words may end in "at" ("Unterminated string starting at"): one "at"
        raise RecordError(no, f"not valid JSON: {e.msg.removesuffix(' at')} at column "
                          f"{e.colno}") from None
    except RecursionError:  # json recurses once per level of nesting
        raise RecordError(no, "JSON nested too deeply") from None
    except ValueError as e:  # a number of more than 4300 digits, which int() refuses
        raise RecordError(no, f"not valid JSON: {' '.join(str(e).split()[:8])}") from None
    if not isinstance(value, dict):
        raise RecordError(no, "each line must be a JSON object")
    return value
