"""The blunder suite (bito.bots.blunders) and the tie-break that keeps the search out of the
blunders a strong player sees at once (bito.bots.prudence).

Rules in play: the base games of VARIANTS.md §1 (#1 simple, #3 podkidnoy, #4 perevodnoy); a
trump covers every plain card and only a higher trump covers a trump (§1.2, S0:214), and the
defender may take even when he could cover (S0:247).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.bots.blunders import SuiteError, load_suite, parse_line, parse_suite, run_suite
from bito.bots.hints import tie_reason
from bito.bots.levels import make_level
from bito.bots.prudence import (
    TIE_CAP,
    choose_among_tied,
    keeps_text,
    move_cost,
    paired_gap,
    surviving,
)
from bito.bots.search import SearchBot
from bito.notation import parse_action, parse_position

#: podkidnoy, `bito play --bots strong --seed 11`, move 8 (issue 20): hearts trump, the bot
#: holds 6♥ Q♥ A♥ and no club and must answer 6♣.
ISSUE_POSITION = (
    "podkidnoy players=2 seed=11 dealer=1 game=0 bout=1 trump=9h "
    "stock=9h7s8sAsJs9dJcKhKdQd8h7h9s9cJd6dTc8cAd7c hands=AcTdThJhTs/7d8d6hQhAh6s "
    "known=-/6h table=6c discard=QcKcQsKs phase=defend attacker=0 leader=0 defender=1 "
    "to_act=1 taking=0 throwers=- t_idx=0 passes=1 out=- under_fool=0")

# The figures the suite must reach (issue 20, item 2) at a fixed playout budget; the levels'
# own clocks buy far more (about 2,000 playouts for medium and 13,000 for strong on an idle
# core), so these budgets are harder than the levels' own.
STRONG_PLAYOUTS = 3000
MEDIUM_PLAYOUTS = 500


def _search(level: str, seed: int, playouts: int) -> SearchBot:
    bot = make_level(level, seed, playouts=playouts)
    assert isinstance(bot, SearchBot)
    return bot


# --- the tie-break --------------------------------------------------------------------------

def test_issue_position_covers_with_the_six_of_trumps() -> None:
    # Issue 20: asked six times, the bot chose A♥ three times. Every seed must now give 6♥ at
    # the suite's budget for strong. (Since the playouts model the heuristic's throw-ins,
    # docs/history.md, fourteenth session: one seed of eight takes at 1,000 playouts: its worlds
    # put 6♥ under taking by chance; at 3,000 none does.)
    s = parse_position(ISSUE_POSITION)
    played = Counter(str(_search("strong", seed, STRONG_PLAYOUTS).choose(s.view(1)))
                     for seed in range(8))
    assert played == Counter({"6h>6c": 8}), played


def test_the_old_search_played_the_ace_on_this_position() -> None:
    # Without the tie-break (tie_alpha=0) the same seeds spread over the tied covers: the test
    # above would fail without the change it checks.
    s = parse_position(ISSUE_POSITION)
    played = set()
    for seed in range(8):
        bot = _search("strong", seed, 1000)
        bot.tie_alpha = 0.0
        played.add(str(bot.choose(s.view(1))))
    assert played - {"6h>6c"}


def test_costs_order_covers_like_a_player() -> None:
    s = parse_position(ISSUE_POSITION)
    v = s.view(1)
    six, queen, ace = (move_cost(v, parse_action(t)) for t in ("6h>6c", "Qh>6c", "Ah>6c"))
    take = move_cost(v, parse_action("take"))
    # the lowest trump before taking, taking before a higher trump (the heuristic's rule:
    # trumps decide the endgame)
    assert six < take < queen < ace


def test_cheap_throw_ins_come_before_passing_and_trumps_after() -> None:
    # podkidnoy, the defender covered 6♣ with 9♣; the attacker may throw in 6♦ or 9♥ (trump)
    s = parse_position(
        "podkidnoy players=2 trump=Ah stock=AhTcJcQc hands=6d9hKs/7c8c table=6c<9c "
        "attacker=0 phase=throw")
    v = s.view(0)
    cheap, trump, bito = (move_cost(v, parse_action(t)) for t in ("6d", "9h", "pass"))
    assert cheap < bito < trump


def test_a_cover_that_cannot_hold_the_bout_costs_more_than_taking() -> None:
    # Spades are trump and the defender holds no heart and no spade: nothing covers 6♥, so
    # covering 6♦ first cannot avoid the take.
    s = parse_position(
        "podkidnoy players=2 trump=As stock=AsTcJc hands=Kd8d/7d8c table=6h,6d attacker=0")
    v = s.view(1)
    assert move_cost(v, parse_action("7d>6d")) > move_cost(v, parse_action("take"))


def test_hint_reasons_name_what_is_kept() -> None:
    v = parse_position(ISSUE_POSITION).view(1)
    assert keeps_text(parse_action("6h>6c"), parse_action("Ah>6c"), v) == \
        "keeps the higher trump"
    hopeless = parse_position(
        "podkidnoy players=2 trump=As stock=AsTcJc hands=Kd8d/7d8c table=6h,6d attacker=0")
    hv = hopeless.view(1)
    assert "take anyway" in keeps_text(parse_action("take"), parse_action("7d>6d"), hv)


def test_hint_says_why_it_is_not_the_best_mean() -> None:
    s = parse_position(ISSUE_POSITION)
    v = s.view(1)
    for seed in range(20):
        bot = _search("strong", seed, 400)
        estimates = bot.analyse(v)
        if bot.replaced is not None:
            text = tie_reason(estimates, bot.replaced, v)
            # (the best mean may be a higher trump or, with the heuristic's throw-ins in the
            # playouts, taking: the hint names it either way)
            assert text.startswith(("Why: cover 6♣ with 6♥ rather than cover 6♣ with ",
                                    "Why: cover 6♣ with 6♥ rather than take the cards"))
            assert "a gap this small is chance" in text
            return
    pytest.fail("no seed of 20 had a tied move with a better mean than 6♥ (the sample never "
                "disagreed with the tie-break?)")


def test_identical_moves_tie_and_the_cheapest_is_played() -> None:
    rows = [[1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]] * 10
    tie = choose_among_tied(rows, [5.0, 1.0, 0.0])
    # moves 0 and 1 score alike in every world; move 2 loses a third of the worlds they win
    assert tie.tied == (0, 1)
    assert tie.index == 1 and tie.replaced == 0


def test_a_clear_gap_is_never_a_tie() -> None:
    rows = [[1.0, 0.0]] * 30 + [[0.0, 0.0]] * 10
    tie = choose_among_tied(rows, [100.0, 0.0])
    assert tie.index == 0 and tie.tied == (0,)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=3, max_size=3),
                min_size=1, max_size=40),
       st.lists(st.floats(0, 100), min_size=3, max_size=3))
def test_tie_break_never_gives_up_more_than_the_cap(rows: list[list[float]],
                                                    costs: list[float]) -> None:
    tie = choose_among_tied(rows, costs)
    n = len(rows)
    means = [sum(r[i] for r in rows) / n for i in range(3)]
    assert means[tie.index] >= max(means) - TIE_CAP - 1e-9
    assert tie.index in tie.tied
    # the played move is the cheapest of the tied ones
    assert costs[tie.index] == min(costs[i] for i in tie.tied)
    if tie.index != tie.replaced and tie.replaced is not None:
        gap, _ = paired_gap(rows, tie.replaced, tie.index)
        assert gap <= TIE_CAP + 1e-9


# --- the suite file -------------------------------------------------------------------------

def test_suite_is_large_and_covers_the_base_games() -> None:
    suite = load_suite()
    assert len(suite) >= 60
    variants = Counter(b.position.split()[0].split("+")[0] for b in suite)
    assert set(variants) == {"podkidnoy", "perevodnoy", "simple"}  # (#96 rides on perevodnoy)
    players = Counter(b.state.deal.players for b in suite)
    assert set(players) == {2, 3, 4}
    stages = Counter(b.stage for b in suite)
    assert {"early", "middle", "end"} <= set(stages)
    assert any(b.name == "issue20-seed11-move8" for b in suite)


@pytest.mark.parametrize(("line", "field"), [
    ("x | play 6h>6c | early: r", "4 fields"),
    ("two words | play 6h>6c | r | " + ISSUE_POSITION, "one word"),
    ("x | prefer 6h>6c | r | " + ISSUE_POSITION, "verdict"),
    ("x | play 7h>6c | r | " + ISSUE_POSITION, "not legal"),
    ("x | play 6h>6c |  | " + ISSUE_POSITION, "reason is empty"),
    ("x | play 6h>6c | r | podkidnoy players=2 trump=9x", "bad position"),
    ("x | avoid 6h>6c Qh>6c Ah>6c take | r | " + ISSUE_POSITION, "every legal move"),
])
def test_bad_lines_name_the_field(line: str, field: str) -> None:
    with pytest.raises(SuiteError, match=field):
        parse_line(line, 7)


def test_a_name_twice_is_refused() -> None:
    line = "x | play 6h>6c | early: r | " + ISSUE_POSITION
    with pytest.raises(SuiteError, match="used twice"):
        parse_suite([line, "# comment", line])


# --- the scores (issue 20: strong >= 95 %, medium >= 85 %) ----------------------------------

def test_strong_passes_the_suite() -> None:
    suite = load_suite()
    result = run_suite(suite, lambda i: make_level("strong", 7000 + i,
                                                   playouts=STRONG_PLAYOUTS))
    assert result.score >= 0.95, result.to_json()


def test_medium_passes_the_suite() -> None:
    suite = load_suite()
    result = run_suite(suite, lambda i: make_level("medium", 7000 + i,
                                                   playouts=MEDIUM_PLAYOUTS))
    assert result.score >= 0.85, result.to_json()


def test_the_heuristic_is_scored_the_same_way() -> None:
    # The frozen baseline plays rules of thumb that avoid most of these blunders by design;
    # the figure is recorded in docs/bots.md, the test only checks the runner with a bot of
    # another kind.
    suite = load_suite()
    result = run_suite(suite, lambda i: make_level("easy", i))
    assert result.total == len(suite) and 0 < result.passed <= result.total


def test_every_plain_cover_costs_less_than_every_trump_cover() -> None:
    # §1.2 (S0:214): a trump covers every plain card, so the worth scale puts every trump
    # above every plain card; checked on every position of the suite with one card to cover
    # (with two, a cover can leave the other without a beater, which costs more on purpose).
    checked = 0
    for b in load_suite():
        v = b.state.view(b.state.to_act)
        if sum(1 for d in v.defence if d == -1) != 1:
            continue
        covers = [a for a in v.legal if str(a).count(">") == 1 and a.cards]
        plain = [move_cost(v, a) for a in covers if a.cards[0] // 16 not in v.trumps]
        trump = [move_cost(v, a) for a in covers if a.cards[0] // 16 in v.trumps]
        if plain and trump:
            checked += 1
            assert max(plain) < min(trump), b.name
    assert checked >= 5


# --- the halving (issue 20, item 3): which moves keep their playouts -------------------------

def test_halving_drops_a_dearer_move_that_trails() -> None:
    # moves 0 and 1 score alike; move 2 (the dearest) loses a third of the worlds they win
    rows = [[1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]] * 10
    assert surviving(rows, [1.0, 2.0, 9.0], z=1.0) == [0, 1]


def test_halving_keeps_a_cheaper_move_the_tie_break_may_still_play() -> None:
    # Move 1 (cheap) trails the best by two worlds in 40: more than one standard error, so a
    # dearer move would go; the tie-break would still call it tied, so it stays.
    rows = [[1.0, 1.0]] * 36 + [[1.0, 0.0]] * 2 + [[0.0, 0.0]] * 2
    rows = [[*r, 0.0] for r in rows]  # a third move that always loses
    gap, se = paired_gap(rows, 0, 1)
    assert gap > se  # past z=1 ...
    assert surviving(rows, [5.0, 1.0, 0.0], z=1.0) == [0, 1]  # ... yet kept: cheaper, tied
    assert surviving(rows, [5.0, 9.0, 0.0], z=1.0) == [0]  # dearer: dropped


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=4, max_size=4),
                min_size=2, max_size=40),
       st.lists(st.floats(0, 100), min_size=4, max_size=4),
       st.floats(0.0, 3.0))
def test_halving_never_drops_the_best_or_the_tie_breaks_choice(
        rows: list[list[float]], costs: list[float], z: float) -> None:
    keep = surviving(rows, costs, z)
    n = len(rows)
    means = [sum(r[i] for r in rows) / n for i in range(4)]
    best = max(range(4), key=lambda i: means[i])
    assert best in keep
    # the move the tie-break would play now is never dropped
    assert choose_among_tied(rows, costs).index in keep
    for i in set(range(4)) - set(keep):
        gap, se = paired_gap(rows, best, i)
        assert gap > z * se  # only a move that trails by more than z standard errors goes


def test_halving_gives_the_rest_of_the_budget_to_the_moves_in_the_running() -> None:
    s = parse_position(ISSUE_POSITION)
    dropped_somewhere = False
    for seed in range(4):
        bot = SearchBot(seed, think_ms=0, playouts=1000, halving=1.0)
        estimates = bot.analyse(s.view(1))
        again = SearchBot(seed, think_ms=0, playouts=1000, halving=1.0).analyse(s.view(1))
        assert [(e.action, e.score, e.samples) for e in estimates] == \
            [(e.action, e.score, e.samples) for e in again]  # same seed, same search
        most = max(e.samples for e in estimates)
        fewest = min(e.samples for e in estimates)
        # four moves: 250 worlds each without the halving; a dropped move keeps its first
        # half's worlds and the others share the playouts it leaves
        assert fewest >= 125
        assert sum(e.samples for e in estimates) <= 1000 + 4
        if fewest < most:
            dropped_somewhere = True
            assert all(not e.tied for e in estimates if e.samples == fewest)
    assert dropped_somewhere
