"""Game records (GUIDE §3 'Records'): JSON Lines, full and censored, replay; errors name the
line at fault."""

from __future__ import annotations

import json
import random

import pytest

from bito.cards import cards_of, split_cards
from bito.errors import RecordError
from bito.games.durak import new_game, parse_action
from bito.games.game import Game
from bito.notation import position_text
from bito.record import load_record, record_from_game
from conftest import lowest_trump_holder, random_walk


def played(variant: str = "podkidnoy", players: int = 3, seed: int = 5, moves: int | None = None,
           choice: int = 1) -> Game:
    game = Game(new_game(variant, players=players, seed=seed))
    for n, (_, action, _) in enumerate(random_walk(game.state, random.Random(choice))):
        if moves is not None and n >= moves:
            break
        game.push(action)
    return game


@pytest.mark.parametrize("variant", ["simple", "podkidnoy", "perevodnoy"])
def test_full_record_round_trip(variant):
    """A full record holds variant, rules, players, seed and actions (GUIDE §3); loading and
    replaying it reaches the same final position and outcome."""
    game = played(variant)
    text = record_from_game(game, names=["ann", "bob", "cy"]).to_jsonl()
    lines = text.splitlines()
    header = json.loads(lines[0])
    assert header["bito"] == "record" and header["players"] == 3 and header["seed"] == 5
    assert json.loads(lines[-1]) == {"outcome": game.state.outcome.to_json()}
    assert len(lines) == len(game.actions) + 2
    rec = load_record(text)
    states = rec.replay()
    assert len(states) == len(game.actions) + 1
    assert position_text(states[-1]) == position_text(game.state)
    assert [str(a) for _, a in rec.actions] == [str(a) for a in game.actions]
    assert rec.to_jsonl() == text
    assert len(rec.frames()) == len(states) and "ann" in rec.frames()[1][0]


def test_unfinished_game_record():
    """A record of a game in progress has no outcome line and replays to where it stopped."""
    game = played(moves=7)
    rec = load_record(record_from_game(game).to_jsonl())
    assert rec.outcome is None
    assert position_text(rec.replay()[-1]) == position_text(game.state)


LOT = "podkidnoy+first_attacker.no_trump_fallback=lot+deck.size=52"
LOT_SEEDS = [s for s in range(3000)
             if lowest_trump_holder(new_game(LOT, players=2, seed=s)) is None][:15]


@pytest.mark.parametrize("spec,seeds", [("simple+trump.source=any_card", range(40)),
                                        ("podkidnoy+ace_not_trump_indicator", range(40)),
                                        (LOT, LOT_SEEDS)], ids=["any_card", "ace", "lot"])
def test_record_replays_same_deal_for_options_that_use_the_rng(spec, seeds):
    """GUIDE §2 'a game is fully determined by (variant, rules, players, seed, actions)': the
    record's start state is the dealt position, also for options that draw from the seed's
    RNG after the dealer is chosen (any_card trump, burying an ace (#74), the lot (B4))."""
    assert len(seeds) >= 5
    for seed in seeds:
        game = Game(new_game(spec, players=2, seed=seed))
        start = load_record(record_from_game(game).to_jsonl()).start_state()
        assert position_text(start) == position_text(game.state), seed


def test_censored_record_holds_only_what_the_seat_saw():
    """A censored record leaves out the seed and carries the seat's censored position after
    every action, so it replays to exactly what the seat saw (record.py docstring)."""
    game = played("perevodnoy", players=3, seed=8)
    full = record_from_game(game)
    states = full.replay()
    for seat in range(3):
        text = full.censored(seat).to_jsonl()
        assert '"seed"' not in text
        rec = load_record(text)
        assert rec.censored_for == seat
        assert rec.views == [position_text(s, seat) for s in states]
        assert len(rec.frames()) == len(states)
        for other in range(3):
            if other != seat:  # other hands' hidden cards never appear in the first view
                hidden = states[0].hands[other] & ~states[0].known[other]
                hand_field = rec.views[0].split("hands=")[1].split()[0].split("/")[other]
                assert not set(cards_of(hidden)) & set(split_cards(hand_field,
                                                                   allow_hidden=True))
        with pytest.raises(RecordError):
            rec.replay()
        with pytest.raises(RecordError):
            rec.censored(0)


def _full_text(moves: int = 6) -> list[str]:
    return record_from_game(played(moves=moves)).to_jsonl().splitlines()


def _load(lines: list[str]) -> RecordError:
    with pytest.raises(RecordError) as info:
        load_record("\n".join(lines) + "\n").replay()
    return info.value


def _header(**changes) -> str:
    lines = _full_text()
    h = json.loads(lines[0])
    for k, v in changes.items():
        if v is None:
            h.pop(k, None)
        else:
            h[k] = v
    return json.dumps(h)


@pytest.mark.parametrize("header,words", [
    ("", "empty"),
    ("not json", "JSON"),
    ('["a list"]', "object"),
    (None, "bito"),  # header without "bito"
    ("version", "version"),
    ("variant", "variant"),
    ("seed", "seed"),
    ("players", "players"),
])
def test_bad_header_is_line_1(header, words):
    """RecordError names line 1 for a bad header (record.py load_record)."""
    lines = _full_text()
    if header is None:
        lines[0] = _header(bito=None)
    elif header == "version":
        lines[0] = _header(version=99)
    elif header == "variant":
        lines[0] = _header(variant="no_such_game")
    elif header == "seed":
        lines[0] = _header(seed=None)
    elif header == "players":
        lines[0] = _header(players="three")
    else:
        lines[0] = header
    e = _load(lines)
    assert e.line == 1 and words.lower() in str(e).lower()


def test_bad_lines_are_named():
    """RecordError.line is the 1-based line at fault: bad JSON, a seat out of range, a move that
    is not notation, a wrong seat, an illegal move, a line after the outcome."""
    lines = _full_text()
    bad = lines[:]
    bad[3] = "{oops"
    assert _load(bad).line == 4
    bad = lines[:]
    bad[2] = json.dumps({"n": 2, "seat": 9, "action": "pass"})
    assert _load(bad).line == 3
    bad = lines[:]
    bad[4] = json.dumps({"n": 4, "seat": 0, "action": "Zz"})
    e = _load(bad)
    assert e.line == 5 and "Zz" in str(e)
    entry = json.loads(lines[3])
    bad = lines[:]
    bad[3] = json.dumps({**entry, "seat": (entry["seat"] + 1) % 3})
    e = _load(bad)
    assert e.line == 4 and "to act" in str(e)
    bad = lines[:]
    bad[1] = json.dumps({"n": 1, "seat": json.loads(lines[1])["seat"], "action": "take"})
    e = _load(bad)
    assert e.line == 2 and "illegal" in str(e)


def test_outcome_line_checks():
    """The outcome line must match the replay and nothing may follow it."""
    lines = record_from_game(played()).to_jsonl().splitlines()
    outcome = json.loads(lines[-1])["outcome"]
    wrong = {**outcome, "loser": (outcome["loser"] or 0) + 1 if outcome["loser"] is not None
             else 0, "draw": False}
    e = _load([*lines[:-1], json.dumps({"outcome": wrong})])
    assert e.line == len(lines)
    e = _load([*lines, json.dumps({"n": 999, "seat": 0, "action": "pass"})])
    assert e.line == len(lines) + 1
    more = [*lines[:-1], json.dumps({"n": len(lines) - 1, "seat": 0, "action": "pass"})]
    e = _load(more)
    assert e.line == len(lines) and "end" in str(e)


def test_censored_record_needs_views():
    """A censored record needs a view on every line (record.py)."""
    full = record_from_game(played(moves=4))
    lines = full.censored(1).to_jsonl().splitlines()
    entry = json.loads(lines[2])
    entry.pop("view")
    lines[2] = json.dumps(entry)
    with pytest.raises(RecordError) as info:
        load_record("\n".join(lines))
    assert info.value.line == 3


def test_replay_via_actions_matches_game_states():
    """Replaying the actions one by one with Game.push/pop gives the recorded states."""
    game = played(moves=20)
    rec = record_from_game(game)
    g = Game(rec.start_state())
    for seat, action in rec.actions:
        assert g.state.to_act == seat
        g.push(str(action))
    assert position_text(g.state) == position_text(game.state)
    last = g.pop()
    assert last == game.actions[-1]
    assert g.state.apply(parse_action(str(last))).to_act == game.state.to_act
