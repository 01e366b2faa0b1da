"""The compiled kernel against the reference engine (issue 6), and its fallback.

The reference engine is the source of truth: every test here derives its expectation from it
(the same position, the same legal actions, the same deal, the same random stream for the
fallback), never from a number written into the test. The games use the base games of
VARIANTS.md §1 with random §1 option sets, seat counts and match contexts
(``bito.kernel.verify.random_deal``). Speed is measured by ``bito bench``, not here.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito import kernel
from bito.games.durak import new_game
from bito.games.durak.playout import random_playout as reference_playout
from bito.rules import Rules, rules_for

numba = pytest.importorskip("numba", reason="the kernel needs the fast extra")

from bito.kernel import layout as L  # noqa: E402
from bito.kernel.convert import (  # noqa: E402
    from_state,
    kernel_snapshot,
    pack_of,
    reference_snapshot,
    rule_facts,
)
from bito.kernel.state import KernelState  # noqa: E402
from bito.kernel.verify import (  # noqa: E402
    BASES,
    NAMED,
    VERIFIED,
    _replay,
    _trace,
    compare_game,
    random_deal,
    random_rules,
    verify_chunk,
)


def _arrays(trace: tuple[list[int], ...]) -> list[object]:
    import numpy as np

    return [np.array(x, np.int64) for x in trace]


# --- what the kernel claims to play ------------------------------------------------------------


@pytest.mark.parametrize("base", BASES)
def test_supports_the_base_games_for_every_seat_count(base: str) -> None:
    rules = rules_for(base)
    assert [p for p in range(2, 9) if kernel.supports(rules, p)] == list(
        range(2, rules.max_players + 1))


@pytest.mark.parametrize("option", [
    {"deck.copies": 2}, {"beats.binding": "all_other_players"}, {"trump.per_player": True},
    {"defense.self_throw": True}, {"defense.exchange": 2}, {"defense.face_down": True},
    {"discard.recycle_every": 2}, {"dummy.mode": "tossing"},
])
def test_refuses_options_beyond_the_base_games(option: dict[str, object]) -> None:
    """Variants I options the kernel does not play (#16's personal trumps, #48's self-throw,
    #42's exchange with the stock, #59's face-down covers, #38's recycled discard, dummies, two
    decks...): callers must fall back. (#25's high joker, #28's wild cards, #24's gifts and
    #14's spades it plays since issue 35: ``test_kernel_rule_facts.py``,
    ``test_kernel_family.py``; #3's partial defence and #22's twin block:
    ``test_kernel_bout_rules.py``.)"""
    rules = Rules().with_options(**option)
    assert not kernel.supports(rules, 2)


@pytest.mark.parametrize("variant", NAMED)
def test_supports_the_named_variants_at_every_seat_count(variant: str) -> None:
    """Issue 20 item 4: the variants the verifier plays by name (beat tables, #10, #39, #40,
    #53-55) are played by the kernel at every seat count the variant allows (partnerships: an
    even number, §3.6); #21's two decks from the move at most 63 cards are in play."""
    rules = rules_for(variant)
    allowed = [p for p in range(rules.players_min, min(rules.max_players, 8) + 1)
               if rules.team_layout == "none" or p % 2 == 0]
    takes = kernel.supports if rules.deck_copies == 1 else kernel.supports_in_play
    assert [p for p in range(2, 9) if takes(rules, p)] == allowed


def test_supports_every_option_the_verifier_draws() -> None:
    rng = random.Random(11)
    for base in BASES:
        for _ in range(50):
            assert kernel.supports(random_rules(base, rng), 2)


def test_available_with_numba_installed() -> None:
    assert kernel.available()


# --- differential testing ----------------------------------------------------------------------


@pytest.mark.parametrize("base", VERIFIED)
def test_every_position_and_legal_set_agrees(base: str) -> None:
    """Full snapshots and legal-action sets compared after every action of 40 random games."""
    rng = random.Random(f"strict-{base}")
    for _ in range(40):
        state = random_deal(base, rng)
        assert compare_game(state, rng) is None, state.rules.changed_options()


@pytest.mark.parametrize("base", BASES)
def test_trace_replay_agrees_on_random_option_sets(base: str) -> None:
    """The fast check of ``bito bench --verify`` on a sample: no disagreement, and the sample
    really spreads over many option sets."""
    report = verify_chunk((base, 150, 20261122))
    assert report.disagreements == 0, report.first_failure
    assert report.games == 150 and report.actions > 150 * 10
    assert len(report.option_sets) > 100


def test_trace_replay_catches_a_planted_difference() -> None:
    """The checker is not blind: a kernel position with another trump suit's beat table must
    disagree."""
    state = new_game("podkidnoy", 2, seed=99)
    trace = _trace(state, random.Random(6))
    start = from_state(state)
    assert _replay(start, *_arrays(trace[:4]), trace[4], trace[5]) == -1
    wrong = start.copy()
    other = L.TRUMP_ROWS + 64 * ((wrong[L.TRUMP] + 1) % 4)
    wrong[L.BEATS:L.BEATS + 64] = wrong[other:other + 64]
    assert _replay(wrong, *_arrays(trace[:4]), trace[4], trace[5]) >= 0


def test_a_repetition_draw_agrees() -> None:
    """``end.repetition`` (an engine rule, default 3): with the stock gone, the third time
    one opening recurs draws the deal. A deal and move stream found by the verifier, where
    the reference engine ends that way; the kernel must follow it to the same draw."""
    from bito.games.durak import MatchContext

    rules = rules_for("simple").with_options(**{
        "deck.size": 24, "trump.reject_indicator": ("L",), "lead.shape": "single",
        "transfer.forbid_if_trump_on_table": True})
    match = MatchContext(game_number=1, dealer=1, previous_fool=1, previous_winner=2)
    state = new_game(rules, 3, seed=2440973227800015942, match=match)
    ref, rng = state, random.Random(388)
    while not ref.is_over:
        legal = ref.legal_actions()
        ref = ref.apply(legal[rng.randrange(len(legal))])
    assert ref.outcome is not None and ref.outcome.draw and ref.outcome.reason == "repetition"
    assert compare_game(state, random.Random(388)) is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**62), base=st.sampled_from(BASES), players=st.integers(2, 6))
def test_any_deal_agrees_move_by_move(seed: int, base: str, players: int) -> None:
    state = new_game(base, players, seed=seed)
    assert compare_game(state, random.Random(seed)) is None


def test_kernel_deal_matches_the_reference_deal() -> None:
    """Given the reference shuffle and dealer, the kernel deals the same hands, stock, trump
    and first attacker (options whose deal draws no further random number, §1.1 and §1.8)."""
    import numpy as np

    from bito.kernel.core import deal_of

    rng = random.Random(21)
    checked = 0
    while checked < 300:
        rules = random_rules(rng.choice(BASES), rng)
        if (rules.trump_source == "any_card" or rules.trump_reject_indicator
                or rules.first_attacker_no_trump_fallback == "lot"):
            continue
        players = rng.randint(2, min(6, rules.max_players))
        seed = rng.getrandbits(48)
        shuffle = random.Random(seed)
        deck = list(rules.deck())
        shuffle.shuffle(deck)
        dealer = shuffle.randrange(players)
        dealt = deal_of(rule_facts(rules, players), np.array(deck, np.int64), dealer, 0)
        assert kernel_snapshot(dealt) == reference_snapshot(new_game(rules, players, seed=seed))
        checked += 1


def test_kernel_deal_buries_a_rejected_trump_card() -> None:
    """#74 (ace_not_trump_indicator): with a stock to choose from, the turned card is never an
    ace, and the deal still holds every card once."""
    rules = rules_for("podkidnoy+ace_not_trump_indicator")
    losers, _ = kernel.play_random_games(rules, 2, 5, 3)  # the same code path, end to end
    assert len(losers) == 5
    import numpy as np

    from bito.kernel.core import deal_of

    pack = pack_of(rules)
    for seed in range(200):
        deck = np.random.default_rng(seed).permutation(pack)
        dealt = deal_of(rule_facts(rules, 2), deck, seed % 2, seed)
        assert dealt[L.TRUMP_CARD] % 16 != 14
        hands = [int(h) for h in dealt[L.HANDS:L.HANDS + 2]]
        stock = [int(c) for c in dealt[L.STOCK:L.STOCK + dealt[L.N_STOCK]]]
        cards = sorted(stock + [c for h in hands for c in range(64) if h >> c & 1])
        assert cards == sorted(int(c) for c in pack)


# --- playouts and the fallback -----------------------------------------------------------------


def test_playouts_are_reproducible_and_leave_the_state_alone() -> None:
    state = new_game("perevodnoy", 3, seed=4)
    before = reference_snapshot(state)
    first = kernel.random_playouts(state, 50, seed=8)
    assert kernel.random_playouts(state, 50, seed=8) == first
    assert reference_snapshot(state) == before
    assert set(first) <= {0, 1, 2, None} and len(set(first)) > 1
    assert kernel.random_playout(state, 8) == first[0]


def test_playout_losers_follow_the_reference_distribution() -> None:
    """From one position, who ends as the fool: the kernel's frequencies lie within five
    standard errors of the reference engine's (fixed seeds: the test is deterministic)."""
    state = new_game("podkidnoy", 3, seed=12)
    n = 2000
    mine = kernel.random_playouts(state, n, seed=1)
    rng = random.Random(2)
    theirs = [reference_playout(state, rng)[0].loser for _ in range(n)]
    for seat in range(3):
        p = theirs.count(seat) / n
        assert abs(mine.count(seat) / n - p) < 5 * (p * (1 - p) * 2 / n) ** 0.5 + 1e-9


def test_fallback_is_the_reference_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the kernel (BITO_KERNEL=off), random_playout is the reference playout with
    ``random.Random(seed)``, the same loser game for game."""
    monkeypatch.setenv("BITO_KERNEL", "off")
    kernel.available.cache_clear()
    try:
        assert not kernel.available()
        for seed in range(5):
            state = new_game("podkidnoy", 2, seed=seed)
            want = reference_playout(state, random.Random(seed))[0].loser
            assert kernel.random_playout(state, seed) == want
    finally:
        monkeypatch.delenv("BITO_KERNEL")
        kernel.available.cache_clear()
    assert kernel.available()


def test_unsupported_rules_fall_back() -> None:
    state = new_game("podkidnoy+throw_in.cap=5", 2, seed=3)  # supported: the kernel plays
    assert kernel.supports_state(state)
    rules = rules_for("podkidnoy").with_options(**{"defense.self_throw": True})
    assert not kernel.supports(rules, 2)
    with pytest.raises(ValueError, match="does not play"):
        from bito.bench import kernel_games

        kernel_games(rules, 2, 0, 1)


# --- the search interface ----------------------------------------------------------------------


def test_kernel_state_steps_like_the_reference() -> None:
    from bito.errors import IllegalActionError

    rng = random.Random(3)
    ref = new_game("perevodnoy", 4, seed=17)
    ks = KernelState.from_state(ref)
    while not ref.is_over:
        legal = ref.legal_actions()
        assert sorted(map(str, ks.legal_actions())) == sorted(map(str, legal))
        assert ks.to_act == ref.to_act and ks.phase == ref.phase
        action = rng.choice(legal)
        before = ks.snapshot()
        nxt = ks.apply(action)
        assert ks.snapshot() == before  # apply leaves the old position alone
        ref, ks = ref.apply(action), nxt
    assert ks.is_over and ks.loser == ref.outcome.loser  # type: ignore[union-attr]
    assert ks.random_playouts(3, 1) == [ks.loser] * 3
    start = KernelState.from_state(new_game("podkidnoy", 2, seed=1))
    with pytest.raises(IllegalActionError):
        start.apply(next(a for a in new_game("podkidnoy", 2, seed=2).legal_actions()
                         if a not in start.legal_actions()))


# --- bench -------------------------------------------------------------------------------------


def test_bench_reports_kernel_rows_beside_reference_rows() -> None:
    from bito.bench import BenchCase, run_bench

    report = run_bench(games=300, engines=["reference", "kernel"],
                       cases=[BenchCase("podkidnoy-2p", "podkidnoy", 2)])
    ref, ker = report["results"]
    assert (ref["engine"], ker["engine"]) == ("reference", "kernel")
    assert ker["games"] == 300 and ker["games_per_second"] > 0
    assert ker["speedup"] == round(ker["games_per_second"] / ref["games_per_second"], 1)
    # the same game: mean length within a few actions of the reference (random deals differ)
    assert abs(ker["mean_actions"] - ref["mean_actions"]) < 15


def test_bench_verify_command(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from bito.cli import main

    code = main(["bench", "--verify", "20", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["disagreements"] == 0
    assert data["games"] == 20 * len(VERIFIED)
    assert [r["variant"] for r in data["verify"]] == list(VERIFIED)
