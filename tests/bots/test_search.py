"""The search bot and its possible worlds.

Worlds rebuilt from a seat's view must agree with that view in everything the seat can see (so
the search plays the real rules from the real public position), must keep every card where
public information puts it, and the search bots must play only legal moves in every base game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bito.bots import bot_names, clock, make_bot
from bito.bots.determinize import template
from bito.bots.levels import LEVELS, make_level
from bito.bots.search import SearchBot
from bito.games.durak import DurakView, new_game
from bito.games.durak.actions import BLOCK, GIVE

VIEW_FIELDS = ("hand", "hand_counts", "known", "attack", "defence", "phase", "to_act",
               "attacker", "defender", "leader", "taking", "stock_count", "seen_discard",
               "trump_card_in_stock", "out", "trumps", "trump_card", "extensions")


@pytest.mark.parametrize(("variant", "players"), [
    ("podkidnoy", 2), ("perevodnoy", 2), ("simple", 2), ("podkidnoy", 4), ("perevodnoy", 3),
    ("podkidnoy+throw_in.by=neighbours", 5), ("perevodnoy+first_bout_cap_five", 2),
    ("podkidnoy+joker_gift", 2), ("podkidnoy+joker_gift_block_combo", 3),
    ("podkidnoy+counter_throw", 2), ("podkidnoy+counter_throw", 3),
    ("podkidnoy+armenian_unlimited", 2), ("podkidnoy+cunning", 3), ("podkidnoy+impudent", 2),
    ("podkidnoy+second_try", 2), ("perevodnoy+poker", 2), ("podkidnoy+self_throw", 3),
    ("podkidnoy+tossing_dummy", 2), ("podkidnoy+tossing_dummy", 3),
    ("podkidnoy+tossing_dummy+dummy.visible_to=all", 3),
    ("believe_not_believe", 2), ("believe_not_believe", 3),
])
def test_worlds_agree_with_the_view(variant: str, players: int) -> None:
    rng = random.Random(11)
    for seed in range(3):
        s = new_game(variant, players, seed=seed)
        bots = [make_bot("heuristic", seed + k) for k in range(players)]
        while not s.is_over:
            seat = s.to_act
            view = s.view(seat)
            t = template(view)
            for _ in range(2):
                world = t.sample(rng)
                w = world.view(seat)
                for f in VIEW_FIELDS:
                    assert getattr(w, f) == getattr(view, f), (f, repr(s))
                assert set(w.legal) == set(view.legal), repr(s)
                # Cards publicly known to be in a hand stay in that hand; nothing is invented.
                for other in range(players):
                    assert world.hands[other] & view.known[other] == view.known[other]
                all_cards = 0
                for h in world.hands:
                    assert not all_cards & h
                    all_cards |= h
                for c in world.stock:
                    assert not all_cards >> c & 1
                    all_cards |= 1 << c
                assert not all_cards & world.discard
            action = bots[seat].choose(view) if rng.random() < 0.8 else rng.choice(view.legal)
            s = s.apply(action)


def test_worlds_vary_the_hidden_cards() -> None:
    s = new_game("podkidnoy", 2, seed=4)
    t = template(s.view(s.to_act))
    rng = random.Random(1)
    other = 1 - s.to_act
    hands = {t.sample(rng).hands[other] for _ in range(20)}
    assert len(hands) > 10  # 6 hidden cards out of 24 unseen: repeats would be a bug


class Legal:
    def __init__(self, bot: SearchBot) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, view: DurakView):  # type: ignore[no-untyped-def]
        action = self.bot.choose(view)
        assert action in view.legal
        return action


@pytest.mark.parametrize(("variant", "players"), [("perevodnoy", 2), ("podkidnoy", 3),
                                                  ("simple", 2)])
def test_search_bot_plays_legal_games(variant: str, players: int) -> None:
    from bito.sim import play_game

    s = new_game(variant, players, seed=21)
    bots = [Legal(SearchBot(k, think_ms=0, playouts=12, min_worlds=1, solver_nodes=1000))
            for k in range(players)]
    result = play_game(s, bots)
    assert result.outcome is not None


def test_levels_are_registered_bots() -> None:
    assert set(LEVELS) <= set(bot_names())
    for level in LEVELS:
        assert make_bot(level, 1).name == level
    with pytest.raises(ValueError, match="unknown level"):
        make_level("grandmaster")


def test_search_prefers_a_move_that_avoids_a_sure_loss() -> None:
    # Three players (no exact solver: the choice comes from the playouts), stock empty. Seat 0
    # defends the Qh with its last card, the Kh: covering takes it out of the game, so it
    # cannot be the fool; taking leaves it with two hearts against a trump and two diamonds.
    from bito.notation import parse_position

    s = parse_position("podkidnoy players=3 trump=9c stock=- hands=Kh/8d9d/7c table=Qh "
                       "attacker=2 phase=defend")
    bot = SearchBot(3, think_ms=0, playouts=60, min_worlds=2)
    estimates = {str(e.action): e for e in bot.analyse(s.view(0))}
    assert estimates["Kh>Qh"].score == 1.0 and estimates["Kh>Qh"].proven is None
    assert estimates["take"].score < estimates["Kh>Qh"].score
    assert str(bot.choose(s.view(0))) == "Kh>Qh"


@pytest.mark.parametrize("variant", ["podkidnoy+joker_gift", "podkidnoy+joker_gift_block_combo"])
def test_search_plays_joker_gifts(variant: str) -> None:
    """#24 (VARIANTS.md: "black joker → P gives O any 2 cards of P's choice"; A2 "Rec. at once,
    before the bout goes on") and #84:
    the gift under way is public (``view.gift``) and a world rebuilds it, so the giver's
    choice is searched like any other (the search raises on a gift it cannot replay)."""
    from bito.bots.levels import durak_searchable
    from bito.sim import play_game

    gifts = 0
    for seed in range(1, 4):
        s = new_game(variant, 2, seed=seed)
        assert durak_searchable(s.view(0))
        bot = SearchBot(seed, think_ms=0, playouts=16, min_worlds=2, solver_nodes=2000)
        result = play_game(s, [Legal(bot), make_bot("heuristic", seed)])
        assert result.outcome is not None
        gifts += sum(1 for a in result.actions if a.kind in (GIVE, BLOCK))
    assert gifts > 0, "no gift was made (else the test checks nothing)"


@pytest.mark.parametrize("variant", ["podkidnoy+armenian", "podkidnoy+armenian_poker"])
def test_search_plays_the_armenian_stock_top_lead(variant: str) -> None:
    """#40 (VARIANTS.md: "The attacker may open (lead) with the top card of the stock ...
    instead of a card from his hand"; #43 builds on it): the lead has no card of the hand,
    and the search must still judge it.
    Every decision of the search seat is searched (no fallback to the heuristic) and legal."""
    from bito.bots.levels import durak_searchable
    from bito.sim import play_game

    for seed in (1, 2):
        s = new_game(variant, 2, seed=seed)
        assert durak_searchable(s.view(0))
        bot = SearchBot(seed, think_ms=0, playouts=24, min_worlds=2, solver_nodes=2000)
        result = play_game(s, [Legal(bot), make_bot("heuristic", seed)])
        assert result.outcome is not None
    leads = [a for a in new_game(variant, 2, seed=3).legal_actions() if not a.cards]
    assert leads, "the deal offers a stock-top lead (else the test checks nothing)"


def test_random_rollouts_judge_every_move() -> None:
    """``rollout="random"`` (kernel random playouts, or the engine's without the kernel)
    scores every legal move in [0, 1] over the same worlds, and plays a legal one."""
    s = new_game("podkidnoy", 2, seed=3)
    view = s.view(s.to_act)
    bot = SearchBot(1, think_ms=0, playouts=40, rollout="random")
    move = bot.choose(view)
    assert move in view.legal
    assert {e.action for e in bot.last} == set(view.legal)
    assert all(0.0 <= e.score <= 1.0 and e.samples >= 4 for e in bot.last)
    assert len({e.score for e in bot.last}) > 1  # the playouts tell the moves apart


def test_compile_notice_checks_every_compiled_piece(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 7 of issue 20: the notice must fire when any piece the level loads is missing
    from numba's cache, not only the playouts (the endgame search compiles for 25 s too)."""
    pytest.importorskip("numba")
    from bito import kernel
    from bito.bots import rollouts

    if not kernel.available():
        pytest.skip("the kernel is switched off here")
    import importlib

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(kernel, "__file__", str(tmp_path / "kernel" / "__init__.py"))
    assert not rollouts.compiled_search_cached()  # nothing cached
    names = []
    for module, function in rollouts.COMPILED_ENTRY_POINTS:
        dispatcher = getattr(importlib.import_module(f"bito.kernel.{module}"), function)
        line = dispatcher.py_func.__code__.co_firstlineno
        names.append(f"{module}.{function}-{line}.py311.nbi")
    assert {n.split("-")[0] for n in names} >= {"greedy.greedy_move_values",
                                               "solver.value_to_act"}
    (tmp_path / names[0]).write_text("")
    assert not rollouts.compiled_search_cached()  # the playouts alone are not enough
    for name in names[1:]:
        (tmp_path / name).write_text("")
    assert rollouts.compiled_search_cached()


def test_face_down_covers_are_honest_as_often_as_modelled() -> None:
    """#59 (VARIANTS.md, S4:16: every cover must beat the attack card it lies on): in the
    attacker's worlds at the call, the covers are honest at least as often as the model's
    honesty whenever the defender's dealt hand could cover (issue 20, item 5); uniform worlds
    made honest covers rare."""
    from bito.bots.determinize import COVER_HONESTY
    from bito.games.durak.believe import CALL_PHASE, honest

    checked = 0
    for seed in range(40):
        s = new_game("believe_not_believe", 2, seed=seed)
        bots = [make_bot("heuristic", seed + k) for k in range(2)]
        while not s.is_over and s.phase != CALL_PHASE:
            s = s.apply(bots[s.to_act].choose(s.view(s.to_act)))
        if s.is_over:
            continue
        view = s.view(s.to_act)
        t = template(view)
        rng = random.Random(seed)
        worlds = [t.sample(rng) for _ in range(400)]
        rate = sum(honest(w) for w in worlds) / len(worlds)
        assert rate >= COVER_HONESTY * 0.5, (seed, rate)  # most worlds can cover early on
        uniform = sum(honest(t.build(rng.sample(list(t.pool), len(t.pool))))
                      for _ in range(400)) / 400
        assert rate > uniform, (seed, rate, uniform)
        checked += 1
        if checked == 5:
            return
    pytest.fail(f"only {checked} calls reached in 40 games")


def test_the_call_follows_the_modelled_covers() -> None:
    """#59 (S4:16: believe honest covers, doubt a bluff): over the heuristic's call positions
    (it covers honestly when it can) the search's call is right more often than not, and at
    a call it reports the worlds it judged rather than playouts."""
    from bito.bots.determinize import CALL_WORLDS
    from bito.games.durak.actions import BELIEVE
    from bito.games.durak.believe import CALL_PHASE, honest

    calls = right = 0
    for seed in range(6):
        s = new_game("believe_not_believe", 2, seed=seed)
        bots = [make_bot("heuristic", seed + k) for k in range(2)]
        searcher = SearchBot(seed, think_ms=0, playouts=50)
        while not s.is_over:
            view = s.view(s.to_act)
            if s.phase == CALL_PHASE:
                call = searcher.choose(view)
                assert searcher.last[0].samples == CALL_WORLDS
                calls += 1
                right += (call.kind == BELIEVE) == honest(s)
            s = s.apply(bots[s.to_act].choose(view))
    assert calls >= 20
    assert right / calls > 0.75, (right, calls)


def test_min_worlds_yield_to_the_clock_in_a_wide_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20, item 7: with a time budget the search keeps sampling its ``min_worlds`` only
    until ``WORLDS_GRACE`` budgets have passed (#59's covers run on the Python engine and a
    world of a wide decision costs a playout per move); without a clock it keeps them all."""
    from bito.bots.heuristic import HeuristicBot

    s = new_game("believe_not_believe", 2, seed=4)
    heuristic = HeuristicBot(0)
    while len(s.legal_actions()) < 8:  # a wide decision: cover face down, or lead
        s = s.apply(heuristic.choose(s.view(s.to_act)))
    view = s.view(s.to_act)
    # The searches' clock advances a tenth of a millisecond each time it is read, whatever
    # the machine is doing: the test is about the rule, not about this machine's speed.
    ticks = iter(range(10**9))
    monkeypatch.setattr(clock, "now", lambda: next(ticks) / 10_000)
    clocked = SearchBot(1, think_ms=1.0, min_worlds=500)
    clocked.choose(view)
    assert 1 <= clocked.last[0].samples < 500
    counted = SearchBot(1, think_ms=0, playouts=1, min_worlds=3)
    counted.choose(view)
    assert counted.last[0].samples == 3


@pytest.mark.parametrize("variant", ["perevodnoy", "podkidnoy"])
def test_the_guide_plays_the_heuristics_move_only_among_tied_moves(variant: str) -> None:
    """Issue 20, item 3: with ``guide`` the search plays the heuristic's move when its sample
    cannot tell it from the best, and otherwise what it played without the guide; never a move
    the sample calls worse."""
    from bito.bots.heuristic import HeuristicBot

    guided_differs = vetoed = 0
    for seed in range(3):
        s = new_game(variant, 2, seed=seed)
        heuristic = HeuristicBot(seed)
        while not s.is_over and s.stock:  # (playouts decide while the stock lasts)
            view = s.view(s.to_act)
            if len(view.legal) > 2:
                guided = SearchBot(seed, think_ms=0, playouts=200, guide=True)
                plain = SearchBot(seed, think_ms=0, playouts=200)
                rule = guided.heuristic_move(view)
                estimates = guided.analyse(view)
                unguided = plain.analyse(view)
                assert estimates[0].tied
                tied = {e.action for e in estimates if e.tied}
                # the same worlds and playouts: the guide changes the choice, not the sample
                assert tied == {e.action for e in unguided if e.tied}
                if rule in tied:
                    assert estimates[0].action == rule
                    guided_differs += rule != unguided[0].action
                else:
                    assert estimates[0].action == unguided[0].action
                    vetoed += 1
            s = s.apply(heuristic.choose(view))
    # both branches were met: the guide changed some choices, and the search overruled it
    assert guided_differs and vetoed


def test_the_playouts_throw_in_a_queen_only_past_the_default_limit() -> None:
    """The playouts' throwers throw in plain cards up to ``PLAIN_LIMIT`` of the dearest plain
    card's worth while the stock lasts (a jack in a 36-card pack: a queen covers 6 cards, the
    ace 8); a search may raise it (``SearchBot.plain_limit``) to throw queens as the
    heuristic does (its ``cheap_throw``). Podkidnoy (#3): a card of a rank on the table may be
    thrown in."""
    from bito.bots.rollouts import PLAIN_LIMIT, card_worth, greedy_move
    from bito.games.durak.playout import move_generators
    from bito.notation import parse_position

    s = parse_position("podkidnoy players=2 trump=9s stock=9s8s7s6s8h7h9c "
                       "hands=Qc7d8d9hTh/6c7c6h6d8c table=Qd<Kd attacker=0 phase=throw")
    acts = move_generators(s)[s.phase]()
    assert sorted(str(a) for a in acts) == ["Qc", "pass"]
    default = greedy_move(s, acts, card_worth(s.beats, s.deal.trump.suits, PLAIN_LIMIT))
    raised = greedy_move(s, acts, card_worth(s.beats, s.deal.trump.suits, 0.8))
    assert (str(default), str(raised)) == ("pass", "Qc")


def test_without_the_tie_break_a_dropped_move_is_never_played() -> None:
    """``tie_alpha=0`` plays the best mean; with the halving that is the best mean of the
    moves searched to the end, never a move dropped halfway on fewer worlds."""
    s = new_game("perevodnoy", 2, seed=5)
    from bito.bots.heuristic import HeuristicBot

    heuristic = HeuristicBot(5)
    checked = 0
    while not s.is_over and s.stock and checked < 6:
        view = s.view(s.to_act)
        if len(view.legal) > 3:
            bot = SearchBot(1, think_ms=0, playouts=300, halving=1.0, tie_alpha=0)
            estimates = bot.analyse(view)
            most = max(e.samples for e in estimates)
            assert estimates[0].samples == most
            kept = [e for e in estimates if e.samples == most]
            assert estimates[0].score == max(e.score for e in kept)
            checked += 1
        s = s.apply(heuristic.choose(view))
    assert checked >= 3
