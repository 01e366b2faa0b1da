"""The core keeps the base games' fields; each rule's additions live in its own records
(issue 32 item 2).

A seat's view (:class:`DurakView`) holds what every Durak game shows; what a rule adds to
it is a frozen record its hook module defines, found by type with ``view.extension``. These
tests fail when a rule's field creeps back into the view, the deal or the state, or a
catalogue number into the state machine's words.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

from bito.games import new_game
from bito.games.durak import DurakState, DurakView
from bito.games.durak.blind import FaceOut
from bito.games.durak.bout_extras import Extras
from bito.games.durak.dummy import TossingDummy
from bito.games.durak.dummy_seat import PlayingDummy
from bito.games.durak.exchange import Chosen
from bito.games.durak.joker_gifts import GiftUnderWay
from bito.games.durak.setup import Deal
from bito.games.durak.stock import Tallies
from bito.games.durak.teams import Partnership
from bito.games.durak.view import ViewExtension

#: What every Durak game shows a seat (VARIANTS.md §1): hands and counts, the table, the
#: trump and the stock, whose turn, the legal moves, the outcome; the trump's personal and
#: secret forms (#16, #18) are options the core's beat table reads, so their words stay.
BASE_VIEW = {
    "seat", "players", "rules", "hand", "hand_counts", "known", "attack", "defence",
    "trump_suit", "trumps", "trump_card", "trump_card_in_stock", "stock_count",
    "discard_count", "phase", "to_act", "attacker", "leader", "defender", "taking", "bout",
    "out", "legal", "outcome", "seen_discard", "beats", "decider", "table_ranks",
    "uncovered", "own_trumps", "secret_card", "stock_face_up", "extensions",
}

#: The facts of one deal the core reads. The last group are rules' facts the state machine
#: still reads itself (the dummy's hand slot, the face-down covers, the counter-attack's
#: table entries, the teams of the outcome, the stock a rule set aside): issue 32 moves them
#: out; none may be added.
BASE_DEAL = {
    "rules", "players", "seed", "match", "dealer", "trump_suit", "trump_card", "hands",
    "stock", "first_attacker", "first_defender", "shown", "under_fool", "trumps",
    "high_joker", "jokers_wild", "secret_card", "own_trumps", "face_up", "cap",
    "first_bout_cap", "uncapped_after_stock", "cap_varies", "lead_max", "lead_most",
    "rozaliev", "throw_in", "transfer", "hand_size", "cover_closes", "repetition",
    "transfer_only_new", "transfer_loose", "idle_limit", "take_skip", "thrower_key",
    "hooks", "thrower_orders", "draw_orders",
    # rules' facts still on the deal
    "reserves", "locked", "removed", "hand_order", "team_of", "teams", "team_proxy",
    "face_down", "dummy_controller", "dummy_seat_controller", "dummy_seat", "counters",
}

#: Each rule's view record and a game that plays the rule (seat 0's view shows it).
RECORDS: dict[type[ViewExtension], tuple[str, int]] = {
    Partnership: ("double_fool", 4),
    TossingDummy: ("podkidnoy+tossing_dummy", 3),
    PlayingDummy: ("podkidnoy+playing_dummy", 3),
    Tallies: ("podkidnoy+gradual_access", 3),
    FaceOut: ("podkidnoy+blind_face_out", 3),
}


def test_the_view_keeps_only_the_base_games_fields() -> None:
    names = {f.name for f in fields(DurakView)}
    assert names - BASE_VIEW == set(), "a rule's field belongs in its view record"
    assert BASE_VIEW - names == set()


def test_the_deal_adds_no_rules_fact() -> None:
    names = {f.name for f in fields(Deal)}
    assert names - BASE_DEAL == set(), "a rule's deal fact belongs to its hook"
    assert BASE_DEAL - names == set()


def test_the_state_keeps_no_window_on_a_rules_memory() -> None:
    assert not {"gift", "extra", "books"} & set(dir(DurakState))


def test_the_base_game_view_has_no_records() -> None:
    s = new_game("podkidnoy", players=3, seed=1)
    assert all(s.view(seat).extensions == () for seat in range(3))


@pytest.mark.parametrize("record", list(RECORDS), ids=lambda r: r.__name__)
def test_each_rules_record_is_frozen_and_found_by_type(record: type[ViewExtension]) -> None:
    spec, players = RECORDS[record]
    s = new_game(spec, players=players, seed=2)
    assert isinstance(s, DurakState)
    view = s.view(0)
    found = view.extension(record)
    assert found is not None and type(found) is record
    assert is_dataclass(found) and record.__dataclass_params__.frozen  # type: ignore[attr-defined]
    others = [kind for kind in (*RECORDS, Chosen, GiftUnderWay, Extras) if kind is not record]
    assert all(view.extension(kind) is None or kind in {type(e) for e in view.extensions}
               for kind in others)
    assert new_game("podkidnoy", players=players, seed=2).view(0).extension(record) is None


def _words(path: Path) -> list[tuple[int, str]]:
    """The comments and docstrings of a module, with their line numbers."""
    out = []
    previous = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.INDENT,
                                                          tokenize.DEDENT, tokenize.NL):
            out.append((tok.start[0], tok.string))  # a string standing alone: a docstring
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type
    return out


def test_the_state_machine_cites_no_catalogue_number() -> None:
    """The state machine describes the base game and its options in its own words; which
    catalogue entry sets an option is the catalogue's business."""
    import re

    import bito.games.durak.state as state_module

    cited = [(n, w) for n, w in _words(Path(state_module.__file__)) if re.search(r"#\d", w)]
    assert cited == []
