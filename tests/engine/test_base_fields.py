"""The core keeps the base games' fields; each rule's additions live in its own records
(issue 32 item 2).

A seat's view (:class:`DurakView`) holds what every Durak game shows; what a rule adds to
it is a frozen record its hook module defines, found by type with ``view.extension``. These
tests fail when a rule's field creeps back into the view, the deal or the state, or a
catalogue number into the state machine's words.
"""

from __future__ import annotations

import importlib
import io
import tokenize
from dataclasses import fields, is_dataclass
from pathlib import Path
from types import ModuleType

import pytest

import bito.games.durak as durak_package
from bito.games import new_game
from bito.games.durak import DurakState, DurakView
from bito.games.durak.blind import DealtOrder, FaceOut
from bito.games.durak.bout_extras import Extras
from bito.games.durak.dummy import DummyController, TossingDummy
from bito.games.durak.dummy_seat import DummySeat, PlayingDummy
from bito.games.durak.exchange import Chosen
from bito.games.durak.facts import DealFact
from bito.games.durak.joker_gifts import GiftUnderWay
from bito.games.durak.own_trumps import OwnTrumps, PersonalTrumps
from bito.games.durak.secret_trump import SecretCard, SecretTurned
from bito.games.durak.set_aside import SetAside
from bito.games.durak.setup import Deal, rule_facts
from bito.games.durak.stock import FaceDown, Tallies
from bito.games.durak.teams import Partnership, Teams
from bito.games.durak.view import ViewExtension

#: What every Durak game shows a seat (VARIANTS.md §1): hands and counts, the table, the
#: trump suits that beat for this seat now and the trump card, the stock and the cards lying
#: face up in it (§1.1: the trump card, face up under the stock), whose turn, the legal
#: moves, the outcome, and ``extensions``, each rule's own record.
BASE_VIEW = {
    "seat", "players", "rules", "hand", "hand_counts", "known", "attack", "defence",
    "trump_suit", "trumps", "trump_card", "trump_card_in_stock", "stock_count",
    "discard_count", "phase", "to_act", "attacker", "leader", "defender", "taking", "bout",
    "out", "legal", "outcome", "seen_discard", "beats", "decider", "table_ranks",
    "uncovered", "stock_face_up", "extensions",
}

#: The facts of one deal of the base games (VARIANTS.md §1: the pack, the hands, the stock,
#: the trump card and what trumps, who deals and attacks first, whether the deal is led
#: "under the fool" (§1.6's first-bout transfer, §1.8's next leader), the match), the option
#: values of §1 the core's move generator reads on every move (the caps and lead limits of
#: §1.4-1.5, §1.4's pair-plus-one lead), the rule set's hooks and seat-order memos, and
#: ``facts``, the records each rule keeps of its own (``deal.fact(Kind)``).
BASE_DEAL = {
    "rules", "players", "seed", "match", "dealer", "trump_suit", "trump_card", "hands",
    "stock", "first_attacker", "first_defender", "shown", "under_fool", "trump", "cap",
    "first_bout_cap", "uncapped_after_stock", "cap_varies", "lead_max", "lead_most",
    "lead_pair_plus_one", "throw_in", "transfer", "hand_size", "cover_closes", "repetition",
    "transfer_only_new", "transfer_loose", "idle_limit",
    "hooks", "thrower_orders", "draw_orders", "facts",
}

#: Each rule's deal record and a game that plays the rule.
DEAL_RECORDS: dict[type[DealFact], tuple[str, int]] = {
    Teams: ("double_fool", 4),
    DummySeat: ("podkidnoy+playing_dummy", 3),
    DummyController: ("podkidnoy+tossing_dummy", 3),
    DealtOrder: ("podkidnoy+blind_face_out", 3),
    FaceDown: ("podkidnoy+buy_in", 3),
    PersonalTrumps: ("podkidnoy+own_trumps", 3),
    SecretCard: ("podkidnoy+secret_trump", 3),
    SetAside: ("podkidnoy+no_stock", 3),
}

#: Each rule's view record and a game that plays the rule (seat 0's view shows it).
RECORDS: dict[type[ViewExtension], tuple[str, int]] = {
    Partnership: ("double_fool", 4),
    TossingDummy: ("podkidnoy+tossing_dummy", 3),
    PlayingDummy: ("podkidnoy+playing_dummy", 3),
    Tallies: ("podkidnoy+gradual_access", 3),
    FaceOut: ("podkidnoy+blind_face_out", 3),
    OwnTrumps: ("podkidnoy+own_trumps", 3),
}


def test_the_view_keeps_only_the_base_games_fields() -> None:
    names = {f.name for f in fields(DurakView)}
    assert names - BASE_VIEW == set(), "a rule's field belongs in its view record"
    assert BASE_VIEW - names == set()


def test_the_deal_adds_no_rules_fact() -> None:
    names = {f.name for f in fields(Deal)}
    assert names - BASE_DEAL == set(), "a rule's deal fact belongs to its hook"
    assert BASE_DEAL - names == set()


def test_the_base_game_deal_holds_no_rules_record() -> None:
    for spec in ("simple", "podkidnoy", "perevodnoy"):
        deal = new_game(spec, players=4, seed=3).deal
        assert deal.facts == ()
        assert all(deal.fact(kind) is None for kind in DEAL_RECORDS)


@pytest.mark.parametrize("record", list(DEAL_RECORDS), ids=lambda r: r.__name__)
def test_each_rules_deal_record_is_frozen_and_found_by_type(record: type[DealFact]) -> None:
    spec, players = DEAL_RECORDS[record]
    s = new_game(spec, players=players, seed=4)
    assert isinstance(s, DurakState)
    found = s.deal.fact(record)
    assert found is not None and type(found) is record
    assert is_dataclass(found) and record.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert [type(f) for f in s.deal.facts] == [record]
    # the rule set's own record, which the dealing completes
    assert [type(f) for f in rule_facts(s.rules, players)] == [record]


def _durak_modules() -> list[ModuleType]:
    package = Path(durak_package.__file__).parent
    return [importlib.import_module(f"bito.games.durak.{p.stem}")
            for p in sorted(package.glob("*.py")) if p.stem != "__init__"]


def test_every_deal_record_is_a_frozen_record_of_a_hook_module() -> None:
    """A rule's deal facts live in its own module, beside the hook that sets them."""
    found = []
    for module in _durak_modules():
        for name, value in vars(module).items():
            if (isinstance(value, type) and issubclass(value, DealFact)
                    and value is not DealFact and value.__module__ == module.__name__):
                found.append(name)
                assert hasattr(module, "HOOK"), f"{name} is not defined by a rule's module"
                assert is_dataclass(value) and value.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert set(found) >= {kind.__name__ for kind in DEAL_RECORDS}


def test_a_rules_record_settles_the_outcome() -> None:
    """The outcome's sides come from the rules' records: the fool's team loses (#53-55) and
    the playing dummy's seat is named (#57), with or without a person losing."""
    for spec, players, kind in (("double_fool", 4, Teams), ("podkidnoy+playing_dummy", 3,
                                                             DummySeat)):
        for seed in range(3):
            s = new_game(spec, players=players, seed=seed)
            assert isinstance(s, DurakState)
            while not s.is_over:
                s = s.apply(s.legal_actions()[0])
            o = s.outcome
            assert o is not None
            fact = s.deal.fact(kind)
            if isinstance(fact, Teams):
                assert o.teams == fact.teams
                assert o.losing_team == (None if o.loser is None else fact.team_of[o.loser])
            else:
                assert isinstance(fact, DummySeat) and o.dummy == fact.seat
                assert o.teams == () and o.losing_team is None


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
    others = [kind for kind in (*RECORDS, Chosen, GiftUnderWay, Extras, SecretTurned)
              if kind is not record]
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


def test_no_string_of_the_state_machine_cites_a_catalogue_number() -> None:
    """A refusal's detail may reach a player (the terminal prints it; the web falls back to
    it), and a player never reads a catalogue number or a source citation: no string in the
    state machine, message or otherwise, cites one."""
    import re

    import bito.games.durak.state as state_module

    path = Path(state_module.__file__)
    docstrings = {n for n, _ in _words(path)}  # (these may cite the sources they follow)
    strings = [(tok.start[0], tok.string)
               for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
               if tok.type == tokenize.STRING and (
                   re.search(r"#\d", tok.string)
                   or (tok.start[0] not in docstrings and re.search(r"\bS\d+:\d", tok.string)))]
    assert strings == []


@pytest.mark.parametrize(("option", "game", "under_fool", "bar", "words"), [
    ("first_game", 0, 0, "FIRST_BOUT", "first bout of the first game"),
    ("under_fool", 1, 1, "UNDER_FOOL", "this deal is led under the fool"),
])
def test_a_first_bout_transfer_is_refused_in_words_without_a_number(
        option: str, game: int, under_fool: int, bar: str, words: str) -> None:
    """#78 (``transfer.first_bout``): the core's refusal of a first-bout transfer keeps its
    words and names no catalogue entry."""
    from bito.games.durak.position import parse_position
    from bito.games.durak.reasons import TransferBar

    state = parse_position(
        f"perevodnoy+no_transfer_first_bout={option} players=3 trump=6h stock=6hAh "
        f"attacker=0 hands=AcKc/7hKdQs/JcJdQd table=7s bout=0 game={game} "
        f"under_fool={under_fool}")
    block = state.transfer_block()
    assert block is not None and block.bar is TransferBar[bar]
    assert block.detail == words


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_stock_groups_face_down_cards_are_dealt_into_its_own_record(players: int) -> None:
    """#37 (buy-in) and #35 (gradual access): the cards dealt face down beside the hands are
    the stock rule's record (``deal.fact(FaceDown)``), each seat's buy-in of the size the
    pack allows, and every card of the pack lies in exactly one place."""
    from bito.cards import cards_of
    from bito.games.durak.setup import reserve_size

    for seed in range(10):
        s = new_game("podkidnoy+buy_in+gradual_access", players=players, seed=seed)
        assert isinstance(s, DurakState)
        deal = s.deal
        dealt = deal.fact(FaceDown)
        assert dealt is not None
        size = reserve_size(deal.rules, players, len(deal.rules.deck()))
        assert [r.bit_count() for r in dealt.reserves] == [size] * players
        assert all(h.bit_count() == 1 for h in deal.hands)  # one usable card each (#35)
        places = [*deal.hands, *dealt.reserves, *dealt.locked,
                  sum(1 << c for c in deal.stock)]
        assert sum(p.bit_count() for p in places) == len(deal.rules.deck())
        union = 0
        for p in places:
            union |= p
        assert sorted(cards_of(union)) == sorted(deal.rules.deck())
