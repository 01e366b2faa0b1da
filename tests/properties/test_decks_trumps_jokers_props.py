"""Invariants of the core under the Variants I options (issue 3), by random play.

Over every playable issue-3 spec (games by id, house rules on each base they accept): no card
is ever created or lost, every game ends within a bound, every state reached has a position
text that parses back to the same state, and every covering move obeys the deal's beat table.
Plus the ``end.repetition`` rule on a hand-built cycle, counted independently of the engine.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.cards import cards_of
from bito.errors import BitoError
from bito.games.durak import DurakState, new_game
from bito.notation import parse_position, position_text
from bito.rules import resolve
from bito.rules.options import pending_options
from bito.rules.registry import all_variants
from conftest import P, assert_conserved, fingerprint, mask_of, play, random_walk, table_cards

ISSUE3 = frozenset((*range(13, 31), 80, 81, 82, 84))
#: Stacks in which one house rule changes another (#20 on #19, options of #19 and #26).
EXTRA = ("podkidnoy+royal+ace_only_by_trump", "perevodnoy+royal+beats.royal_suit_scope=any_suit",
         "podkidnoy+single_joker+specials.joker_beaten_by_any=true",
         "japanese+royal+albanian", "big_fool_twin_block+transfer.enabled=true")
#: Big decks played at random with six players take a few thousand actions at most.
LIMIT = 8000


def playable_specs() -> list[str]:
    """Every issue-3 spec the engine plays today (pending ones are tested in the registry file)."""
    out = []
    for v in all_variants():
        if v.number not in ISSUE3:
            continue
        bases = [v.id] if v.kind == "game" else [f"{b}+{v.id}" for b in v.applies_to]
        out += bases
    out += EXTRA
    playable = []
    for spec in out:
        try:
            rules = resolve(spec).rules
        except BitoError:
            continue
        if not pending_options(rules):
            playable.append(spec)
    return playable


SPECS = playable_specs()


def all_zones(state: DurakState) -> list[int]:
    """Every place a card can be, as masks: the hands, the stock, the table, the discard pile
    and the cards set aside (#18: the secret card while it lies face down or turned)."""
    return [*state.hands, mask_of(state.stock), mask_of(table_cards(state)), state.discard,
            state.aside]


def assert_every_card_once(state: DurakState) -> None:
    """conftest.assert_conserved, with the set-aside secret card (#18) as one more place."""
    every = [c for z in all_zones(state) for c in cards_of(z)]
    assert len(every) == len(set(every)), "a card is in two places"
    assert set(every) == set(state.rules.deck()), "cards created or lost"
    assert_conserved_outside_aside(state)


def assert_conserved_outside_aside(state: DurakState) -> None:
    """Without a secret card the core's own check applies unchanged."""
    if not state.aside:
        assert_conserved(state)


def test_the_released_options_are_covered() -> None:
    """The sample space is not empty and includes every released family of options."""
    joined = " ".join(SPECS)
    for vid in ("japanese", "no_trump", "suitless", "royal", "big_fool", "albanian",
                "double_joker", "single_joker", "novosibirsk_two_joker", "wild_58"):
        assert vid in joined


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, int]:
    spec = draw(st.sampled_from(SPECS))
    rules = resolve(spec).rules
    players = draw(st.integers(2, min(6, rules.max_players)))
    seed = draw(st.integers(0, 2**32 - 1))
    return spec, players, seed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.randoms(use_true_random=False))
def test_random_play_conserves_cards_and_ends(game: tuple[str, int, int],
                                              rng: random.Random) -> None:
    """Core invariants under every Variants I option: hands + stock + table + discard are the
    deck at every step; covers obey the beat table of the deal; the game ends (issue 3 "Card
    conservation and every other invariant of the core must still hold")."""
    spec, players, seed = game
    state = new_game(spec, players=players, seed=seed)
    assert_every_card_once(state)
    deck = mask_of(state.rules.deck())
    size = deck.bit_count()
    last = state
    for step, (before, action, after) in enumerate(random_walk(state, rng, limit=LIMIT)):
        if action.kind_name == "defend":
            beats = before.view(before.defender).beats
            assert beats[action.target] >> action.cards[0] & 1
        # Every step: the zones hold exactly the deck's cards, each once (bit counts add up).
        zones = all_zones(after)
        union = 0
        for z in zones:
            union |= z
        assert union == deck and sum(z.bit_count() for z in zones) == size, (spec, step)
        if step % 25 == 0:
            assert_every_card_once(after)
        last = after
    assert_every_card_once(last)
    assert last.is_over
    out = last.outcome
    assert out.draw == (out.loser is None)
    if not out.draw:
        assert 0 <= out.loser < players


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.randoms(use_true_random=False))
def test_every_reached_position_round_trips(game: tuple[str, int, int],
                                            rng: random.Random) -> None:
    """Issue 3 "the cards these variants add ... get a documented notation that round-trips":
    every state of a random game (jokers, wild cards, twins, fixed or absent trumps) prints to
    a position that parses back to the same state and prints the same text."""
    spec, players, seed = game
    state = new_game(spec, players=players, seed=seed)
    steps = 0
    for _, _, after in random_walk(state, rng, limit=LIMIT):
        steps += 1
        if steps % 3 and not after.is_over:
            continue  # every third state keeps the test lean; the last one always
        text = position_text(after)
        back = parse_position(text)
        assert position_text(back) == text
        assert fingerprint(back) == fingerprint(after)
        assert [str(a) for a in back.legal_actions()] == [str(a) for a in after.legal_actions()]


# --- end.repetition --------------------------------------------------------------------------

#: Three players, stock gone, every defender takes: 7c and Jc travel round the table, so the
#: hands come back every six bouts (P0 leads 7c at P1, P2 leads Jc at P0, P1 leads 7c at P2...).
CYCLE = "podkidnoy{extra} players=3 trump=6h stock=- hands=7c8d/9cTd/JcQd attacker=0"


#: The same cycle with cards left in the stock: every hand keeps six cards or more, so nobody
#: ever draws and the stock never runs out.
CYCLE_STOCK = ("podkidnoy{extra} players=3 trump=6h stock=6hAsKs hands=7c8d9s9d9hTsTh/"
               "9cTdJsJhQsQhKh/JcQdKdAdAhKcAc attacker=0")


def cycle(extra: str = "", bouts: int = 40, start: str = CYCLE) -> tuple[object, list[tuple]]:
    """Play the cycle: the attacker leads whichever of 7c / Jc he holds, the defender takes,
    the throwers pass. Returns the last state and the openings seen after each bout."""
    s = P(start.format(extra=extra))
    openings: list[tuple] = []
    for _ in range(bouts):
        if s.is_over:
            break
        lead = next(a for a in s.legal_actions() if str(a) in ("7c", "Jc"))
        s = play(s, str(lead), "take")
        while s.phase_name == "throw":
            s = play(s, "pass")
        if s.phase_name == "lead":
            openings.append((tuple(s.hands), s.attacker, s.defender))
    return s, openings


def test_a_drawn_deal_prints_and_reads_back_with_its_result() -> None:
    """A deal drawn by ``end.repetition`` ends with every hand still full, so its position
    carries ``end=loser:order:reason`` (docs/notation.md), reads back to the same outcome,
    and a malformed ``end`` is refused naming the field."""
    from bito.errors import InvalidNotationError

    s, _ = cycle("+end.repetition=2")
    assert s.is_over and sum(1 for h in s.hands if h) == 3
    text = position_text(s)
    assert " end=-:" in text and text.endswith(":repetition")
    back = parse_position(text)
    assert back.outcome == s.outcome and position_text(back) == text
    for bad in ("end=-:0.1:repetition", "end=7:0.1.2:x", "end=nonsense"):
        with pytest.raises(InvalidNotationError, match="end"):
            parse_position(text.rsplit(" end=", 1)[0] + " " + bad)


@pytest.mark.parametrize("times", [2, 3])
def test_repetition_draws_when_an_opening_comes_back(times: int) -> None:
    """``end.repetition`` (engine rule, docs/variants.md): with the stock gone, the deal is drawn
    the moment the same bout opening (every hand, attacker, defender) has come up ``times``
    times. Counted here from the openings themselves."""
    s, _ = cycle(f"+end.repetition={times}")
    assert s.is_over and s.outcome.draw and s.outcome.loser is None
    _, free = cycle("+end.repetition=0", bouts=60)
    bouts_played = s.bout  # bouts completed, the drawing one included
    seen: dict[tuple, int] = {}
    first = None
    for i, key in enumerate(free):
        seen[key] = seen.get(key, 0) + 1
        if seen[key] == times:
            first = i + 1
            break
    assert first == bouts_played
    assert all(s.hands) and sum(h.bit_count() for h in s.hands) == 6  # nobody went out
    assert_conserved(s)


def test_without_repetition_rule_the_cycle_goes_on() -> None:
    """``end.repetition=0`` keeps the old behaviour: the same table plays on, here for 60
    bouts, until ``end.idle_bouts=100`` would end it."""
    s, openings = cycle("+end.repetition=0+end.idle_bouts=100", bouts=60)
    assert not s.is_over and len(openings) == 60
    assert len(set(openings)) == 6


def test_repetition_also_ends_a_cycle_above_a_full_stock() -> None:
    """Issue 3 "games terminate": the cycle above with three cards still in the stock never
    lets anyone draw (every hand holds six or more), so the bout openings repeat exactly as
    with an empty stock; the deal should be drawn just the same."""
    s, openings = cycle(bouts=60, start=CYCLE_STOCK)
    assert len(set(openings)) == 6 and len(s.stock) == 3
    assert s.is_over and s.outcome.draw
