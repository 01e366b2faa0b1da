"""#21 ``big_fool`` (two decks, 72 cards) on the compiled kernel.

The kernel's card sets are one ``int64`` each, so 72 cards do not fit; but a discarded card
never comes back, so once at most 63 cards are in play the kernel takes a position over with
those cards numbered in reference order (``convert.in_play_index``). These tests hold that the
kernel refuses the rest (never a truncated deck), play taken-over games against the reference
move by move, and hold the compiled take-over to the 52-card loss. The rule
positions on the reference engine (a twin never covers its twin, 52 cards lose at once,
either copy may be thrown in) are ``tests/rules/test_decks.py``.
Citations: VARIANTS.md #21 and seeds/000 line 53 (S0:53).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito import kernel
from bito.cards import card_str, parse_card
from bito.games.durak import Action, DurakState, new_game
from bito.games.durak.position import parse_position
from bito.notation import parse_action
from bito.rules import rules_for
from bito.rules.kernel_rules import kernel_refuses

pytest.importorskip("numpy", reason="the kernel needs the fast extra")
pytest.importorskip("numba", reason="the kernel needs the fast extra")

import numpy as np

from bito.bots.rollouts import (
    PLAIN_LIMIT,
    card_worth,
    careful_seats,
    greedy_finish,
    greedy_playout,
    greedy_scores,
    heuristic_defence,
    kernel_greedy_usable,
    seat_score,
)
from bito.kernel import layout as L
from bito.kernel.convert import (
    action_code,
    card_index,
    converted,
    facts_without_cards,
    from_state,
    in_play_index,
    outside_cards,
)
from bito.kernel.core import seed_state, step_of
from bito.kernel.greedy import SCRATCH_SIZE
from bito.kernel.state import KernelState
from bito.kernel.two_decks import (
    deck_tables,
    greedy_values,
    number_cards,
    number_values,
    stock_needed,
    two_deck_greedy_playout,
    two_deck_start,
)
from bito.kernel.verify import compare_game, compare_two_deck_start, taken_over, verify_chunk

BIG = rules_for("big_fool")


def test_whole_games_are_refused_and_a_full_deck_is_not_taken_over() -> None:
    """#21 (S0:53 "2 decks of 36 cards"): 72 cards do not fit an ``int64`` set, so the kernel
    never deals Big fool, and refuses a position while more than 63 cards are in play."""
    assert kernel_refuses(BIG) == ["deck.copies=2"]
    assert not any(kernel.supports(BIG, n) for n in range(2, 7))
    assert all(kernel.supports_in_play(BIG, n) for n in range(2, 7))
    state = new_game("big_fool", players=2, seed=3)
    assert not kernel.supports_state(state) and not kernel_greedy_usable(state)
    assert card_index(BIG) is None and in_play_index(state) is None
    with pytest.raises(ValueError, match="64-bit card sets"):
        from_state(state)


def test_the_take_over_numbers_the_cards_in_play_in_reference_order() -> None:
    """Once 9 cards are discarded the other 63 get indices 0-62, lowest code first, so move
    lists and the greedy tie-break keep the reference's order; twins stay apart."""
    state = taken_over(new_game("big_fool", players=3, seed=8), random.Random(8))
    assert not state.is_over and kernel.supports_state(state)
    index = in_play_index(state)
    assert index is not None and state.discard.bit_count() >= 9
    assert list(index.codes) == sorted(c for c in BIG.deck() if not state.discard >> c & 1)
    assert outside_cards(BIG, index) == state.discard


@pytest.mark.parametrize("spec", ["big_fool", "perevodnoy+deck.copies=2+beats.identical=forbidden"
                                  "+end.instant_loss_cards=52"])
def test_two_deck_games_play_as_in_the_reference(spec: str) -> None:
    """#21: random games from the take-over to the end, compared position by position and
    move list by move list with the reference engine (``verify.compare_game``): the twin ban
    is the beat table's, either copy of a rank is thrown in or transferred by the rank sets,
    and 52 cards lose at once as a rule fact (S0:53; A1, A3)."""
    rng = random.Random(f"two-decks-{spec}")
    for _ in range(6):
        state = new_game(spec, rng.randint(2, 5), seed=rng.getrandbits(40))
        assert compare_game(state, rng) is None


def test_a_fifty_two_card_take_loses_in_the_kernel() -> None:
    """#21; S0:53 "The player who has 52 or more cards loses immediately": P1 holds 50 cards
    (fewer than 63 in play), takes the two sevens and is the fool at once, though P0 holds
    cards; the kernel, which took the position over, ends the game there too."""
    deck = sorted(BIG.deck())
    p0 = [parse_card(x) for x in ("7c", "7c'", "9d", "9d'")]
    p1 = [c for c in deck if c not in p0 and card_str(c)[0] not in "7"][:50]
    hands = "".join(card_str(c) for c in p0) + "/" + "".join(card_str(c) for c in p1)
    s = parse_position(f"big_fool players=2 trump=6h stock=- hands={hands} attacker=0")
    assert kernel.supports_state(s)
    k = KernelState.from_state(s)
    for move in ("7c+7c'", "take", "pass"):
        action = parse_action(move)
        s, k = s.apply(action), k.apply(action)
    assert s.is_over and s.outcome is not None and s.outcome.loser == 1
    assert k.is_over and k.loser == 1


@given(st.data())
@settings(deadline=None, max_examples=60)
def test_the_numbering_keeps_every_card_in_play_and_the_order_of_sets(data: st.DataObject
                                                                       ) -> None:
    """Whatever was discarded (9 cards or more), two sets of cards in play convert to kernel
    sets and back unchanged and compare as the reference's: the greedy playouts break ties on
    the lower set of cards."""
    deck = sorted(BIG.deck())
    gone = data.draw(st.sets(st.sampled_from(deck), min_size=9, max_size=60))
    state = new_game("big_fool", players=2, seed=1)
    state.discard = sum(1 << c for c in gone)  # only the numbering reads it here
    index = in_play_index(state)
    assert index is not None and len(index.codes) == 72 - len(gone)
    live = [c for c in deck if c not in gone]
    a, b = (sum(1 << c for c in data.draw(st.sets(st.sampled_from(live)))) for _ in range(2))
    ka, kb = index.kernel_mask(a), index.kernel_mask(b)
    assert index.reference_mask(ka) == a and 0 <= ka < 1 << 63
    assert (ka < kb) == (a < b)


# --- before 63 cards are in play: the start with the stock's bottom unnumbered ---------------


def _python_greedy(state: DurakState, move: Action, seat: int, seed: int) -> float:
    """A move's greedy score (no randomness) played and finished on the reference engine."""
    child = state.copy()
    child.step_unchecked(move)
    outcome = child.outcome or greedy_playout(child, random.Random(seed), 0.0)
    assert outcome is not None
    return seat_score(outcome.loser, outcome.draw, seat, state.players)


def test_a_start_numbers_all_but_the_bottom_of_the_stock_in_reference_order() -> None:
    """From the deal (72 cards in play) the 9 bottom cards of the stock are left unnumbered
    and the other 63 are numbered lowest code first, as ``in_play_index`` numbers a position
    with 9 cards discarded; the kernel's stock lacks those 9. Past 63 cards in play no start is
    made (the take-over applies)."""
    state = new_game("big_fool", players=3, seed=21)
    start = two_deck_start(state)
    assert start is not None
    bottom = state.stock[:9]
    assert list(start.numbering.codes) == sorted(c for c in BIG.deck() if c not in bottom)
    assert [start.tables.codes[p] for p in start.hidden] == bottom
    assert start.array[L.N_STOCK] == len(state.stock) - 9
    km = start.numbering.kernel_mask
    assert [int(h) for h in start.array[L.HANDS:L.HANDS + 3]] == [km(h) for h in state.hands]
    later = taken_over(state, random.Random(21))
    assert not later.is_over and two_deck_start(later) is None


def test_a_start_needs_a_stock_longer_than_the_hidden_cards_and_the_next_draw() -> None:
    """The kernel's short stock must keep more than the next action can draw (a refill of
    every hand's shortfall, the actor's whole hand counted as played, and one card more), so
    that no rule sees it empty while the real one is not: P0 to lead from six cards, P1 with
    a full hand, so the next action draws at most 7 cards; with 16 cards in the stock (9
    hidden, 7 left) no start is made, with 17 one is."""
    deck = sorted(BIG.deck())
    for stock_size, starts in ((16, False), (17, True)):
        p0 = deck[:6]
        stock, p1 = deck[6:6 + stock_size], deck[6 + stock_size:]
        text = (f"big_fool players=2 trump={card_str(stock[0])} stock={_cards(stock)} "
                f"hands={_cards(p0)}/{_cards(p1)} attacker=0")
        start = two_deck_start(parse_position(text))
        assert (start is not None) == starts
        if start is not None:
            assert stock_needed(start.array) == 7 and start.array[L.N_STOCK] == 8


def _cards(cards: list[int]) -> str:
    return "".join(card_str(c) for c in cards)


@pytest.mark.parametrize("spec", ["big_fool", "perevodnoy+deck.copies=2+beats.identical=forbidden"
                                  "+end.instant_loss_cards=52"])
def test_games_started_from_the_deal_play_as_in_the_reference(spec: str) -> None:
    """#21 (S0:53) from the deal: random games on the reference engine with the kernel
    stepping along from its start, position by position and move list by move list
    (``verify.compare_two_deck_start``); at the renumbering the kernel array must hold what
    the take-over (``converted``) makes of the same position. Most games reach it."""
    rng = random.Random(f"two-deck-start-{spec}")
    reached = 0
    for _ in range(8):
        state = new_game(spec, rng.randint(2, 5), seed=rng.getrandbits(40))
        failure, renumbered = compare_two_deck_start(state, rng)
        assert failure is None
        reached += renumbered
    assert reached >= 4


def test_compiled_greedy_from_the_deal_is_the_python_greedy() -> None:
    """With no randomness the greedy playouts started on the kernel before 63 cards are in
    play finish every move's world as the Python greedy does (the same fool, so the same
    score), across the renumbering: the search judges early moves by the same standard."""
    rng = random.Random("two-deck-greedy")
    compared = 0
    while compared < 12:
        state = new_game("big_fool", rng.randint(2, 4), seed=rng.getrandbits(40))
        for _ in range(rng.randrange(6)):
            state = state.apply(rng.choice(state.legal_actions()))
        if state.is_over or two_deck_start(state) is None:
            continue
        moves = state.legal_actions()
        seed = rng.getrandbits(40)
        kernel_scores = greedy_scores(state, moves, state.to_act, seed, epsilon=0.0)
        assert kernel_scores == [_python_greedy(state, a, state.to_act, seed) for a in moves]
        compared += 1


def test_a_playout_whose_stock_runs_low_first_is_given_back_to_python() -> None:
    """P0 leads from six low cards against P1's 49 with 17 in the stock (8 in the kernel's,
    one more than the next action can draw): the first bout ends with at most a few cards
    discarded (fewer than the 9 hidden) and a refill or a take leaves the kernel's stock at
    what the next action could draw, so the kernel gives those playouts back, and
    ``greedy_scores`` finishes them in Python (every score is the Python greedy's)."""
    deck = sorted(BIG.deck())
    p0 = [parse_card(x) for x in ("6c", "7c", "8c", "6d", "7d", "8d")]
    rest = [c for c in deck if c not in p0]
    stock, p1 = rest[:17], rest[17:]
    state = parse_position(f"big_fool players=2 trump={card_str(stock[0])} "
                           f"stock={_cards(stock)} hands={_cards(p0)}/{_cards(p1)} attacker=0")
    start = two_deck_start(state)
    assert start is not None
    moves = state.legal_actions()
    worth = card_worth(state.beats, state.deal.trump.suits, PLAIN_LIMIT)
    _, given_back = greedy_values(start, moves, 0, 5, worth.kernel_worth(start.tables),
                                  worth.limit_stock, worth.limit_empty, 0, 10_000)
    assert given_back.all()
    assert greedy_scores(state, moves, 0, 5, epsilon=0.0) == [
        _python_greedy(state, a, 0, 5) for a in moves]
    # with the heuristic's models and a margin, given back and finished with them (issue 20)
    _, given_back = greedy_values(start, moves, 0, 5, worth.kernel_worth(start.tables),
                                  worth.limit_stock, worth.limit_empty, 0, 10_000,
                                  worth.two_deck_defence(start.tables, 36), 0b10, 0b10, 0.25)
    assert given_back.all()
    assert greedy_scores(state, moves, 0, 5, 0.0, PLAIN_LIMIT, 0b10, 0b10, 0.25) == [
        _python_model_score(state, a, 0, 5, 0b10, 0b10, 0.25) for a in moves]


@given(st.integers(0, 1 << 30), st.integers(2, 5), st.integers(0, 80))
@settings(deadline=None, max_examples=25)
def test_compiled_card_facts_are_the_take_overs(seed: int, players: int, extra: int) -> None:
    """In any position with 9 or more cards discarded, the card facts the compiled numbering
    reads out of the 72-card tables (beaters, rank sets, ranks, suits, suited cards, trumps,
    cards not to be turned up) are those ``converted`` builds from the reference engine's
    tables for ``in_play_index``'s numbering (#21 A1's twin ban is in the beat table)."""
    rng = random.Random(seed)
    state = taken_over(new_game("big_fool", players=players, seed=seed), rng)
    for _ in range(extra):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    want, index = converted(state)
    tables = deck_tables(BIG, state.beats, state.deal.trump.suits)
    order = np.full(64, -1, np.int64)
    live = [p for p, c in enumerate(tables.codes) if index.holds(c)]
    order[:len(live)] = live
    got = facts_without_cards(BIG, players).copy()
    number_cards(got, order, len(live), tables.cover, tables.match, tables.facts)
    for at in (L.SUITED, L.TRUMP_SET, L.REJECTED):
        assert got[at] == want[at]
    for lo, hi in ((L.BEATS, L.HEAD), (L.RANK_OF, L.SEEN)):
        assert (got[lo:hi] == want[lo:hi]).all()


def test_the_start_check_is_not_blind(monkeypatch: pytest.MonkeyPatch) -> None:
    """``compare_two_deck_start`` catches a renumbering that loses one beat (a card's
    beaters short of their lowest): the planted difference is reported, not passed over."""
    from bito.kernel import verify
    from bito.kernel.two_decks import renumber

    def planted(s: np.ndarray, *args: object) -> int:
        n = int(renumber(s, *args))
        row = L.BEATS + next(k for k in range(n) if s[L.BEATS + k])
        s[row] &= s[row] - 1
        return n

    monkeypatch.setattr(verify, "renumber", planted)
    rng = random.Random("planted")
    failures = []
    while not failures:
        state = new_game("big_fool", 2, seed=rng.getrandbits(40))
        failure, renumbered = compare_two_deck_start(state, rng)
        if renumbered:
            failures.append(failure)
    assert failures[0] is not None and "renumbered array differs" in failures[0]


def test_bench_verify_plays_two_deck_chunks_from_the_deal_too() -> None:
    """``bito bench --verify``'s unit of work compares two games of a two-deck chunk from the
    deal (``two_deck_starts``) besides replaying its games from the take-over."""
    report = verify_chunk(("big_fool", 3, 21_000))
    assert report.disagreements == 0, report.first_failure
    assert report.started == 2 and report.to_json()["two_deck_starts"] == 2


# --- the heuristic's playout models from the deal (issue 20; SearchBot.attack_model) ----------


def _python_model_score(state: DurakState, move: Action, seat: int, seed: int, careful: int,
                        shrewd: int, margin: float) -> float:
    """A move's score (no randomness) finished on the reference engine with the seats in
    ``careful`` defending and those in ``shrewd`` attacking as the heuristic does, a win
    moved up and a loss down by ``margin`` times the share of a hand the fool keeps."""
    child = state.copy()
    child.step_unchecked(move)
    end = child if child.outcome else greedy_finish(child, random.Random(seed), 0.0,
                                                    careful=careful, shrewd=shrewd)
    assert end is not None and end.outcome is not None
    loser = end.outcome.loser
    score = seat_score(loser, end.outcome.draw, seat, state.players)
    if margin and loser is not None:
        share = margin * min(end.hands[loser].bit_count(), state.deal.hand_size) / (
            state.deal.hand_size)
        score += -share if loser == seat else share
    return score


@pytest.mark.parametrize(("players", "models", "margin"), [
    (2, ("opponents", "opponents"), 0.0), (4, ("opponents", "opponents"), 0.0),
    (2, ("all", "greedy"), 0.25), (4, ("greedy", "all"), 0.25)])
def test_compiled_playouts_from_the_deal_with_the_heuristics_models_are_pythons(
        players: int, models: tuple[str, str], margin: float,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """#21 from the deal (S0:53) with the search's playout models on (issue 20: the
    opponents lead, throw in and defend as the heuristic does, ``SearchBot.attack_model``
    and ``defence_model``) and a margin: with no randomness the kernel, its values and flags
    re-indexed at every numbering, finishes every move's world as ``greedy_finish`` does with
    the same models, to the same score to the card, and ``greedy_scores`` takes that start
    (no playout is finished in Python). The models must change some scores (else this would
    not tell a dropped model from a kept one)."""
    from bito.bots import rollouts

    def python_finish(*args: object, **kwargs: object) -> DurakState | None:
        raise AssertionError("a playout was finished in Python")

    rng = random.Random(f"two-deck-models-{players}-{models}-{margin}")
    compared = changed = 0
    while compared < 4:
        state = new_game("big_fool", players, seed=rng.getrandbits(40))
        for _ in range(rng.randrange(5)):
            state = state.apply(rng.choice(state.legal_actions()))
        start = two_deck_start(state)
        if state.is_over or start is None:
            continue
        moves, seat, seed = state.legal_actions(), state.to_act, rng.getrandbits(40)
        careful = careful_seats(models[0], seat, players)
        shrewd = careful_seats(models[1], seat, players)
        worth = card_worth(state.beats, state.deal.trump.suits, PLAIN_LIMIT)
        totals, given_back = greedy_values(
            start, moves, seat, seed, worth.kernel_worth(start.tables), worth.limit_stock,
            worth.limit_empty, 0, 10_000, worth.two_deck_defence(start.tables, 36),
            careful, shrewd, margin)
        assert not given_back.any()
        want = [_python_model_score(state, a, seat, seed, careful, shrewd, margin)
                for a in moves]
        assert [float(x) for x in totals] == pytest.approx(want, abs=1e-12)
        with monkeypatch.context() as patch:
            patch.setattr(rollouts, "greedy_finish", python_finish)
            got = greedy_scores(state, moves, seat, seed, 0.0, PLAIN_LIMIT, careful, shrewd,
                                margin)
        assert got == pytest.approx(want, abs=1e-12)
        changed += want != greedy_scores(state, moves, seat, seed, 0.0)
        compared += 1
    assert changed >= 1


def test_the_heuristics_values_follow_every_numbering() -> None:
    """The heuristic's card values and flags by deck position, read over a start's numbering,
    are those of its numbered cards; after the renumbering they are exactly what
    ``CardWorth.kernel_defence`` builds for the take-over's numbering (``in_play_index``),
    constants included; before it the stock size from which the heuristic may rather take is
    lowered by the hidden cards, as the kernel's stock is short by as many."""
    rng = random.Random("two-deck-values")
    state = new_game("big_fool", 3, seed=77)
    start = two_deck_start(state)
    assert start is not None
    worth = card_worth(state.beats, state.deal.trump.suits, PLAIN_LIMIT)
    by_position = worth.two_deck_defence(start.tables, 36)
    values, flags = worth.defence_values()
    w = np.zeros(64, np.int64)
    dv = np.zeros(136, np.int64)
    order = start.order.copy()
    n = len(start.numbering.codes)
    number_values(w, dv, order, n, worth.kernel_worth(start.tables), by_position, 9)
    assert list(dv[:n]) == [values[c] for c in start.numbering.codes]
    assert list(dv[64:64 + n]) == [flags[c] for c in start.numbering.codes]
    assert dv[128] == 36 // 4 - 9
    later = state
    while later.discard.bit_count() < 9:  # play on until the renumbering
        later = later.apply(rng.choice(later.legal_actions()))
    assert not later.is_over
    index = in_play_index(later)
    assert index is not None
    m = len(index.codes)
    order[:] = -1
    order[:m] = [start.tables.codes.index(c) for c in index.codes]
    number_values(w, dv, order, m, worth.kernel_worth(start.tables), by_position, 0)
    assert (dv == worth.kernel_defence(index, 36)).all()
    assert (w == worth.kernel_worth(index)).all()


def test_a_careful_defender_reads_the_true_stock_size_before_the_renumbering() -> None:
    """HeuristicBot._rather_take (issue 20's defence model): with 9 or more cards in the
    stock (a quarter of a 36-card deck) a defender takes a cheap plain card rather than spend
    a high trump. P1 holds A of trumps and five cards that cannot beat 6c; the stock holds
    17, 8 of them in the kernel's short stock (9 hidden): the reference defence takes, and so
    must the compiled one, though its stock counts 8 (#21, S0:53)."""
    deck = sorted(BIG.deck())
    p1 = [parse_card(x) for x in ("Ah", "6d", "6d'", "6s", "6s'", "7d")]
    stock = [parse_card(x) for x in ("7h", "6c'", "6h", "6h'")]
    stock += [c for c in deck if c not in p1 and c not in stock and c != parse_card("6c")][:13]
    p0 = [c for c in deck if c not in p1 and c not in stock]
    state = parse_position(f"big_fool players=2 trump=7h stock={_cards(stock)} "
                           f"hands={_cards(p0)}/{_cards(p1)} attacker=0")
    start = two_deck_start(state)
    assert start is not None and start.array[L.N_STOCK] == 8
    lead = parse_action("6c")
    after = state.apply(lead)
    worth = card_worth(state.beats, state.deal.trump.suits, PLAIN_LIMIT)
    acts = after.legal_actions()
    assert heuristic_defence(after, acts, worth) == acts[-1]  # the reference takes
    s = start.array.copy()
    order = start.order.copy()
    w = np.zeros(64, np.int64)
    dv = np.zeros(136, np.int64)
    by_worth = worth.kernel_worth(start.tables)
    by_position = worth.two_deck_defence(start.tables, 36)
    number_values(w, dv, order, len(start.numbering.codes), by_worth, by_position, 9)
    step_of(s, *action_code(lead, start.numbering))
    rng = np.empty(1, np.uint64)
    seed_state(rng, 1)
    t = start.tables
    two_deck_greedy_playout(s, order, len(start.numbering.codes), start.hidden,
                            start.trump_position, t.cover, t.match, t.facts, by_worth,
                            by_position, w, dv, np.empty(L.MAX_ACTIONS, np.int64),
                            np.empty(L.MAX_ACTIONS, np.int64), 1, rng, worth.limit_stock,
                            worth.limit_empty, 0, 0b10, 0, np.empty(SCRATCH_SIZE, np.int64))
    assert s[L.TAKING] != 0 and s[L.DEFENCE] == -1
