"""Invariants of the Durak engine, checked with Hypothesis over random games.

Games are drawn over the three base games stacked with house-rule modifiers (VARIANTS §1,
§3.10), 2-6 players, deck sizes 24/32/36/52, random seeds and match contexts; play is random.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.cards import HIDDEN, cards_of, rank_of, standard_deck, suit_of
from bito.errors import IllegalActionError
from bito.games.durak import (
    PASS_ACTION,
    TAKE_ACTION,
    Action,
    attack,
    defend,
    new_game,
    transfer,
)
from bito.games.durak.state import DEFEND_PHASE, LEAD, OVER
from bito.games.game import Game
from bito.notation import parse_censored, position_text
from bito.record import load_record, record_from_game
from conftest import (
    MAX_ACTIONS,
    assert_conserved,
    fingerprint,
    game_specs,
    random_walk,
    start,
    table_cards,
)

FAST = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
choice_seeds = st.integers(0, 2**32 - 1)


def cap_now(state) -> float:
    """The most attack cards this bout may hold now (VARIANTS §1.5 Cap, #75, #76)."""
    rules = state.rules
    cap: float = rules.throw_in_cap
    if rules.throw_in_first_bout_cap and state.bout == 0 and not state.taking:
        cap = min(cap, rules.throw_in_first_bout_cap)
    if rules.throw_in_uncapped_after_stock and not state.stock:
        cap = float("inf")
    return cap


@FAST
@given(game_specs(), choice_seeds)
def test_cards_are_never_created_lost_or_duplicated(spec, cseed):
    """VARIANTS §1.1 deck / §1.3 flow: after every action hands + stock + table + discard ==
    the deck, pairwise disjoint."""
    s = start(spec)
    assert_conserved(s)
    for _, _, after in random_walk(s, random.Random(cseed)):
        assert_conserved(after)


@FAST
@given(game_specs(), choice_seeds)
def test_table_limits(spec, cseed):
    """VARIANTS §1.5 Cap (6 / #75 five in the first bout unless D takes / #76 none after the
    stock) and 'uncovered attack cards never exceed D's hand'; §1.4 lead <= D's hand."""
    s = start(spec)
    for before, action, after in random_walk(s, random.Random(cseed)):
        if before.phase == LEAD:
            assert len(action.cards) <= before.hands[before.defender].bit_count()
            assert len(action.cards) <= before.rules.lead_max
        if after.is_over:
            continue
        assert len(after.attack) <= cap_now(after)
        uncovered = sum(1 for d in after.defence if d < 0)
        assert uncovered == after.uncovered
        assert uncovered <= after.hands[after.defender].bit_count()


def _random_action(rng: random.Random, deck: list[int]) -> Action:
    """Any action of the whole action space, legal or not."""
    kind = rng.randrange(7)
    c = rng.choice(deck)
    if kind == 0:
        return attack(c)
    if kind == 1:
        same = [x for x in deck if rank_of(x) == rank_of(c) and x != c]
        return attack(c, rng.choice(same)) if same else attack(c)
    if kind == 2:
        return attack(c, rng.choice([x for x in deck if x != c]))
    if kind == 3:
        return defend(c, rng.choice(deck))
    if kind == 4:
        return transfer(c)
    return TAKE_ACTION if kind == 5 else PASS_ACTION


@FAST
@given(game_specs(), choice_seeds)
def test_legal_exactly_when_apply_accepts(spec, cseed):
    """An action is legal exactly when apply accepts it: every legal action applies; random
    actions from the whole action space that are not legal raise IllegalActionError naming a
    rule, and leave the state untouched."""
    s = start(spec)
    rng = random.Random(cseed)
    deck = list(standard_deck(s.rules.deck_size))
    tried_illegal = 0
    for before, _, _ in random_walk(s, random.Random(cseed ^ 0x5A5A)):
        legal = before.legal_actions()
        assert len(set(legal)) == len(legal), "an action is offered twice"
        for a in legal:
            assert before.is_legal(a)
            before.apply(a)
        print_before = fingerprint(before)
        for _ in range(4):
            a = _random_action(rng, deck)
            if a in legal:
                before.apply(a)
                continue
            assert not before.is_legal(a)
            tried_illegal += 1
            try:
                before.apply(a)
            except IllegalActionError as e:
                assert e.rule and e.detail and str(e).startswith(e.rule)
            else:
                raise AssertionError(f"illegal {a} accepted")
        assert fingerprint(before) == print_before
    assert tried_illegal > 0


@SLOW
@given(game_specs(), choice_seeds)
def test_apply_never_mutates_its_input(spec, cseed):
    """GUIDE §2 'state.apply(action) -> new state (pure; the old state is untouched)': the
    position text and the legal actions of the old state are the same after apply."""
    s = start(spec)
    for before, action, after in random_walk(s, random.Random(cseed)):
        text = position_text(before)
        legal = [str(a) for a in before.legal_actions()]
        again = before.apply(action)
        assert position_text(before) == text
        assert [str(a) for a in before.legal_actions()] == legal
        assert fingerprint(again) == fingerprint(after)


@SLOW
@given(game_specs(), choice_seeds)
def test_record_round_trip(spec, cseed):
    """GUIDE §3 records: to_jsonl -> load_record -> replay reaches the same final position;
    the censored record replays to exactly what the seat saw."""
    game = Game(start(spec))
    for _, action, _ in random_walk(game.state, random.Random(cseed)):
        game.push(action)
    record = record_from_game(game)
    loaded = load_record(record.to_jsonl())
    states = loaded.replay()
    assert position_text(states[-1]) == position_text(game.state)
    assert loaded.outcome == game.state.outcome.to_json()
    seat = cseed % game.state.players
    censored = load_record(record.censored(seat).to_jsonl())
    assert censored.censored_for == seat and "seed" not in censored.header
    assert censored.views[-1] == position_text(game.state, seat)


@FAST
@given(game_specs(), choice_seeds)
def test_same_seed_same_game(spec, cseed):
    """GUIDE §2 'a game is fully determined by (variant, rules, players, seed, actions)'."""
    a, b = start(spec), start(spec)
    assert fingerprint(a) == fingerprint(b)
    walk_a = random_walk(a, random.Random(cseed))
    walk_b = random_walk(b, random.Random(cseed))
    for (_, act_a, after_a), (_, act_b, after_b) in zip(walk_a, walk_b, strict=True):
        assert act_a == act_b and fingerprint(after_a) == fingerprint(after_b)


def _shown_at_deal(s) -> list[set[int]]:
    """Cards everybody sees during the deal (§1.1, §1.8): the whole-deck trump card (dealer),
    and the card that makes the first attacker first (his lowest trump, or his cards of the
    lowest rank when nobody holds a trump)."""
    n = s.players
    public: list[set[int]] = [set() for _ in range(n)]
    if not s.stock:
        public[s.deal.dealer].add(s.trump_card)
    hands = [cards_of(h) for h in s.hands]
    a = s.attacker
    trumps = [c for c in hands[a] if suit_of(c) == s.trump_suit]
    if trumps:
        public[a].add(min(trumps, key=rank_of))
    else:
        low = min(rank_of(c) for h in hands for c in h)
        public[a].update(c for c in hands[a] if rank_of(c) == low)
    return public


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_specs(), choice_seeds)
def test_views_never_hold_another_seats_hidden_card(spec, cseed):
    """GUIDE §2 'state.view(seat) -> everything that seat may know, and nothing more'; VARIANTS
    §4.14. Public knowledge is tracked from the action log: cards a player picked up from the
    table, the face-up trump card once drawn, the card shown at the deal. A view's known cards
    of other seats are a subset; picked-up cards are in it; the censored position shows '??'
    for everything else."""
    s = start(spec)
    n = s.players
    public = _shown_at_deal(s)
    taken_public: list[set[int]] = [set() for _ in range(n)]
    take_declared = False
    for before, action, after in random_walk(s, random.Random(cseed)):
        if action.kind_name == "take":
            take_declared = True
        if after.bout > before.bout or after.is_over:
            if take_declared:
                picked = set(table_cards(before)) | set(action.cards)
                public[before.defender] |= picked
                taken_public[before.defender] |= picked
            take_declared = False
        if before.stock and not after.stock:
            for p in range(n):
                if after.hands[p] >> after.trump_card & 1:
                    public[p].add(after.trump_card)
        for p in range(n):
            held = set(cards_of(after.hands[p]))
            public[p] &= held
            taken_public[p] &= held
        for seat in range(n):
            v = after.view(seat)
            assert v.hand == after.hands[seat]
            censored = parse_censored(position_text(after, seat))
            for other in range(n):
                known = set(cards_of(v.known[other]))
                assert known <= public[other], (seat, other)
                assert taken_public[other] <= known
                if other == seat:
                    continue
                shown = censored.hands[other]
                assert {c for c in shown if c != HIDDEN} <= public[other]
                assert len(shown) == after.hands[other].bit_count()
            if after.stock:
                assert censored.stock[0] == after.trump_card
                assert all(c == HIDDEN for c in censored.stock[1:])
            assert (v.legal != ()) == (seat == after.to_act)


@FAST
@given(game_specs(), choice_seeds)
def test_every_game_terminates(spec, cseed):
    """VARIANTS §1.3 loop: every bout ends and the game ends with an outcome, in a bounded
    number of actions; the outcome names one fool or a draw."""
    s = start(spec)
    steps = 0
    end = s
    for _, _, after in random_walk(s, random.Random(cseed), limit=MAX_ACTIONS):
        steps += 1
        end = after
    assert end.is_over and end.outcome is not None and steps < MAX_ACTIONS
    o = end.outcome
    assert o.draw == (o.loser is None)
    assert len(o.order) == len(set(o.order))
    if o.loser is not None:
        assert o.order[-1] == o.loser
        holders = [p for p in range(end.players) if end.hands[p]]
        assert holders in ([o.loser], [])
    assert end.legal_actions() == []


@FAST
@given(game_specs(), choice_seeds)
def test_exactly_one_seat_acts(spec, cseed):
    """GUIDE §2 'exactly one seat acts at a time': to_act is one seat; the defender in the
    defend phase, the attacker in the lead phase, a thrower (never the defender) in the throw
    phase, nobody once the game is over."""
    s = start(spec)
    states = [s] + [after for _, _, after in random_walk(s, random.Random(cseed))]
    for st_ in states:
        if st_.phase == OVER:
            assert st_.to_act == -1 and not st_.legal_actions()
            continue
        assert isinstance(st_.to_act, int) and 0 <= st_.to_act < st_.players
        assert st_.legal_actions()
        assert not st_.out_mask >> st_.to_act & 1  # a seat that is out never acts
        if st_.phase == DEFEND_PHASE:
            assert st_.to_act == st_.defender
        elif st_.phase == LEAD:
            assert st_.to_act == st_.attacker and not st_.attack
        else:
            assert st_.to_act != st_.defender and st_.to_act in st_.throwers
            assert st_.hands[st_.to_act]


def test_different_seeds_give_different_deals():
    """GUIDE §2 randomness lives in the seed: distinct seeds give (almost always) distinct deals."""
    deals = {tuple(new_game("podkidnoy", 2, seed).hands) for seed in range(50)}
    assert len(deals) == 50
