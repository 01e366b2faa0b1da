"""Bots on real games: the heuristic plays legally everywhere, plays its rules of thumb, beats
random; the card tracker agrees with the true deal and never knows more than it may."""

from __future__ import annotations

import random
import re

import pytest

from bito.bots import RandomBot, bot_names, make_bot
from bito.bots.heuristic import HeuristicBot
from bito.bots.tracking import CardTracker
from bito.cards import card_str, parse_card, split_cards, standard_deck
from bito.games.durak import Action, DurakState, DurakView, new_game, parse_action
from bito.notation import parse_position
from bito.sim import play_game, run_sim


class LegalityChecker:
    """Wraps a bot and fails the test the moment it returns a move not in ``view.legal``."""

    def __init__(self, bot: HeuristicBot | RandomBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves = 0

    def choose(self, view: DurakView) -> Action:
        assert view.legal, "a bot was asked to move with no legal move"
        action = self.bot.choose(view)
        assert action in view.legal, f"{action} is not legal here: {view.legal}"
        self.moves += 1
        return action


# --- legality on every base game and table size ---------------------------------------------

@pytest.mark.parametrize("variant", ["simple", "podkidnoy", "perevodnoy"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_heuristic_only_plays_legal_moves(variant: str, players: int) -> None:
    games = 30 if players <= 3 else 15
    moves = 0
    for g in range(games):
        rng = random.Random(g)
        bots = [LegalityChecker(HeuristicBot(g * 10 + s) if s == 0 or rng.random() < 0.5
                                else RandomBot(g * 10 + s)) for s in range(players)]
        bots = bots[g % players:] + bots[:g % players]
        result = play_game(new_game(variant, players, seed=1000 + g), bots)
        assert result.outcome.draw or result.outcome.loser is not None
        moves += sum(b.moves for b in bots if b.name == "heuristic")
    assert moves > 0


@pytest.mark.parametrize("spec,players", [
    ("podkidnoy+lead.shape=single", 3),
    ("simple+lead.shape=rozaliev+deal.hand_size=5", 4),
    ("simple+lead.shape=same_rank_1or2", 2),
    ("podkidnoy+uncapped_after_stock+first_bout_cap_five", 2),
    ("perevodnoy+transfer.forbid_if_trump_on_table=true+throw_in.by=neighbours", 5),
    ("podkidnoy+deck.size=52", 8),
    ("podkidnoy+deck.size=24+end.draw_allowed=false", 2),
])
def test_heuristic_is_legal_under_house_rules(spec: str, players: int) -> None:
    for g in range(3):
        bots = [LegalityChecker(HeuristicBot(s + g)) for s in range(players)]
        result = play_game(new_game(spec, players, seed=g), bots)
        assert len(result.actions) == sum(b.moves for b in bots)


def test_heuristic_is_registered() -> None:
    assert "heuristic" in bot_names()
    assert isinstance(make_bot("heuristic", 3), HeuristicBot)


def test_heuristic_is_deterministic_for_a_seed() -> None:
    def actions(bot_seed: int) -> tuple[Action, ...]:
        bots = [HeuristicBot(bot_seed), HeuristicBot(bot_seed + 1), HeuristicBot(bot_seed + 2)]
        return play_game(new_game("perevodnoy", 3, seed=77), bots).actions

    assert actions(5) == actions(5)


def test_heuristic_beats_random_clearly() -> None:
    stats = run_sim("podkidnoy", 2, 200, ["heuristic", "random"], seed=3)
    assert stats.errors == 0
    assert stats.non_losses_by_bot["heuristic"] > 0.85
    assert stats.non_losses_by_bot["random"] < 0.3


# --- rules of thumb in set-up positions -------------------------------------------------------

def choose(position: str) -> str:
    state = parse_position(position)
    return str(HeuristicBot(0).choose(state.view(state.to_act)))


def early(position: str, size: int = 10) -> str:
    """``position`` (trump 6h) with a stock of ``size`` cards not used elsewhere in it: early in
    the deal, while the stock is large."""
    used = {6 + 16 * 2}  # the six of hearts: the face-up trump card, bottom of the stock
    for field in re.findall(r"(?:hands|table)=(\S+)", position):
        for part in re.split(r"[/<,]", field):
            used.update(split_cards(part))
    spare = [c for c in standard_deck(36) if c not in used][: size - 1]
    return f"{position} trump=6h stock=6h{''.join(card_str(c) for c in spare)}"


def test_covers_with_the_cheapest_card() -> None:
    assert choose(early("podkidnoy players=2 hands=Kc9s/7sTsAhQh7c9d "
                  "table=6s attacker=0")) == "7s>6s"


def test_covers_plain_before_trump() -> None:
    assert choose(early("podkidnoy players=2 hands=Kc8s/JcAs7h9d8d7d "
                  "table=9c attacker=0")) == "Jc>9c"


def test_keeps_high_trumps_early_but_not_in_the_endgame() -> None:
    assert choose(early("podkidnoy players=2 hands=Kc8s/AhTs9s7d8d6s table=7c attacker=0")
                  ) == "take"
    late = "podkidnoy players=2 trump=6h stock=- hands=Kc8s/AhTs9s7d8d6s table=7c attacker=0"
    assert choose(late) == "Ah>7c"


def test_leads_a_low_pair_together() -> None:
    assert choose(early("podkidnoy players=2 hands=7c7dKcAsTh9s/8s8hJsQsKsAc "
                  "attacker=0")) == "7c+7d"


def test_leads_cheap_plain_cards_not_trumps() -> None:
    assert choose(early("podkidnoy players=2 hands=7hQcAs/8s8hJsQsKsAc "
                  "attacker=0")) == "Qc"


def test_throws_in_cheap_cards_but_not_trumps_early() -> None:
    base = "podkidnoy players=2 table=7c<9c attacker=0 phase=throw"
    assert choose(early(f"{base} hands=9dTsAd/8s8hJsQsKsAc")) == "9d"
    assert choose(early(f"{base} hands=9hTsAd/8s8hJsQsKsAc")) == "pass"


def test_transfers_with_a_plain_card() -> None:
    assert choose(early("perevodnoy players=2 hands=KcAsTd/8s9cAhKhJd6s "
                  "table=8c attacker=0")) == "=8s"


def test_endgame_leads_what_the_defender_cannot_beat() -> None:
    # The defender holds only clubs: a spade must be taken, a seven of clubs would be covered.
    assert choose("podkidnoy players=2 trump=6h stock=- hands=9s7c/8cTc attacker=0") == "9s"


def test_endgame_keeps_an_unbeatable_trump_for_last() -> None:
    # Leading the ace of trumps would make him take it, and it would beat our last card later.
    assert choose("podkidnoy players=2 trump=6h stock=- hands=Ah7c/8c9s attacker=0") == "7c"


# --- the card tracker -------------------------------------------------------------------------

def _check_tracker(state: DurakState, seat: int, tracker: CardTracker) -> None:
    """Compare what the tracker believes with the true deal (which the tracker never sees)."""
    stock_trump = 1 << state.trump_card if state.stock else 0
    hidden_elsewhere = 0
    for s in range(state.players):
        if s == seat:
            assert tracker.known[s] == 0
            continue
        assert tracker.known[s] & ~state.hands[s] == 0, "a 'known' card is not in that hand"
        hidden_elsewhere |= state.hands[s] & ~tracker.known[s]
        assert tracker.possible(s) & state.hands[s] == state.hands[s]
        exact = tracker.exact_hand(s)
        assert exact is None or exact == state.hands[s]
    stock = 0
    for c in state.stock:
        stock |= 1 << c
    assert tracker.discard == state.discard
    assert tracker.unseen == hidden_elsewhere | (stock & ~stock_trump)
    assert tracker.unseen & state.hands[seat] == 0


@pytest.mark.parametrize("variant,players", [("podkidnoy", 2), ("perevodnoy", 3),
                                             ("simple", 4), ("podkidnoy", 6)])
def test_tracker_matches_the_true_deal(variant: str, players: int) -> None:
    exact_seen = 0
    for g in range(4):
        state = new_game(variant, players, seed=g)
        trackers = [CardTracker() for _ in range(players)]
        rng = random.Random(g)
        while not state.is_over:
            for seat, tracker in enumerate(trackers):
                tracker.update(state.view(seat))
                _check_tracker(state, seat, tracker)
                opponents = [s for s in tracker.opponents() if tracker.hidden_count(s)]
                exact_seen += bool(opponents) and tracker.exact_hand(opponents[0]) is not None
            acts = state.legal_actions()
            state = state.apply(acts[rng.randrange(len(acts))])
    assert exact_seen > 0, "the tracker never pinned down a hand in an empty-stock endgame"


def test_tracker_knows_picked_up_cards_and_records_played_cards() -> None:
    state = parse_position(early("podkidnoy players=2 hands=7cKs/8s9s7dAh table=7s attacker=0"))
    tracker = CardTracker()
    tracker.update(state.view(0))
    state = state.apply(parse_action("take"))
    state = state.apply(parse_action("7c"))
    state = state.apply(parse_action("pass"))
    tracker.update(state.view(0), [(0, parse_action("7c"))])
    assert tracker.known[1] == (1 << parse_card("7s")) | (1 << parse_card("7c"))
    assert tracker.played[0] == 1 << parse_card("7c")
    assert tracker.unseen & tracker.known[1] == 0


def test_tracker_resets_on_a_new_deal() -> None:
    tracker = CardTracker()
    state = new_game("podkidnoy", 2, seed=1)
    rng = random.Random(1)
    while state.discard == 0 or state.stock:
        acts = state.legal_actions()
        state = state.apply(acts[rng.randrange(len(acts))])
    tracker.update(state.view(0))
    assert tracker.discard
    fresh = new_game("podkidnoy", 2, seed=2)
    tracker.update(fresh.view(0))
    assert tracker.discard == 0
    _check_tracker(fresh, 0, tracker)


def test_tracker_needs_a_view_first() -> None:
    with pytest.raises(RuntimeError):
        CardTracker().possible(1)
