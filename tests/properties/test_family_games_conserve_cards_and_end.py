"""Every game outside the Durak family, at every seat count it takes: random full games keep
every card of the deck in exactly one place, offer a move until the game is over, and end by a
rule within the game's documented bound (docs/variants.md, "Where rules meet: the other
families' options and endings").

The deck each game must hold is derived from the rules, not from the engine: the pack the
catalogue names (``deck_size``), two packs of 52 and the jokers for the adjacent-rank game
beyond ``one_pack_max`` players (#94, S3:15), and for *Fool!* exactly ``hand_size`` cards per
player, all different, from the 88-card deck (#95, S2:19)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bito.cards import build_deck, standard_deck
from bito.games import family_of, family_rules_for, new_game
from bito.games.durak.state import DurakState
from bito.games.tricks.fool import fool_deck
from bito.rules.registry import all_variants

FAMILIES = ("shedding", "tricks", "social", "bouts")
IDS = [v.id for v in all_variants() if v.kind == "game" and v.family in FAMILIES]
CASES = [(vid, n) for vid in IDS
         for n in range(family_rules_for(vid).players_min, family_rules_for(vid).max_players + 1)]
#: Games per case: enough to meet long games and endings, within the suite's time budget.
GAMES = 3


def _cards(zone: Any) -> list[int]:
    if isinstance(zone, int):
        return [i for i in range(zone.bit_length()) if zone >> i & 1]
    return list(zone)


def durak_zones(state: DurakState) -> list[Any]:
    table = [c for c in (*state.attack, *state.defence) if c >= 0]
    zones: list[Any] = [*state.hands, state.stock, state.discard, table]
    for extra in ("aside", "set_aside"):
        if isinstance(getattr(state, extra, None), int):
            zones.append(getattr(state, extra))
    return zones


def zones(state: Any) -> list[Any]:
    """Every place a card can lie, by family."""
    main = getattr(state, "main", None)
    if isinstance(main, DurakState):  # #67/#68: phase 2 is a Durak game
        return [*durak_zones(main), state.stock, state.pile]
    family = state.rules.family
    if family == "bouts":
        return [*state.hands, state.stock, state.discard, state.centre()]
    if family == "tricks":
        return [*state.hands, [c for _, c in state.trick], state.gone]
    if family == "social":
        return [*state.hands, state.pile, getattr(state, "claim", [])]
    return [*state.hands, state.stock, state.pile]


def expected_deck(vid: str, players: int) -> Counter[int] | None:
    """The deck the rules deal (None for *Fool!*, checked by size and uniqueness)."""
    rules = family_rules_for(vid)
    if family_of(vid) == "tricks":
        return None
    if rules.variant == "ontoys_adjacent_rank":
        copies = 1 if players <= rules.one_pack_max else 2
        return Counter(build_deck(52, jokers=rules.jokers, copies=copies))
    return Counter(standard_deck(rules.deck_size))


def bound(state: Any) -> int:
    """The most actions the game may take by its documented last guards."""
    rules = state.rules
    if hasattr(rules, "round_move_cap"):
        return rules.rounds * rules.round_move_cap
    if hasattr(rules, "max_rounds"):  # Fool!: rounds x tricks x plays per trick
        return rules.max_rounds * rules.hand_size_for(state.players) * state.players
    return int(rules.move_cap) + 100_000  # a prelude's phase 2 is a Durak game after it


def check_conserved(state: Any, vid: str, players: int) -> None:
    held = Counter(c for z in zones(state) for c in _cards(z))
    deck = expected_deck(vid, players)
    if deck is None:
        rules = state.rules
        assert sum(held.values()) == rules.hand_size_for(players) * players
        assert max(held.values()) == 1
        assert set(held) <= set(fool_deck(rules, players)) | set(range(128, 134))
    else:
        assert held == deck


@pytest.mark.parametrize(("vid", "players"), CASES)
def test_random_games_conserve_cards_offer_moves_and_end_by_rule(vid: str, players: int) -> None:
    """Every state holds the deck exactly; legal actions are non-empty until the game is
    over; the game ends within its bound, and never by a move cap (a last guard only)."""
    for seed in range(GAMES):
        state = new_game(vid, players, seed=seed)
        rng = random.Random(seed)
        limit = bound(state)
        steps = 0
        while True:
            check_conserved(state, vid, players)
            if state.is_over:
                break
            actions = state.legal_actions()
            assert actions, f"{vid} {players}p seed {seed}: no legal action at step {steps}"
            state = state.apply(actions[rng.randrange(len(actions))])
            steps += 1
            assert steps <= limit
        note = str(getattr(state.outcome, "note", "") or "")
        assert "cap" not in note, f"{vid} {players}p seed {seed} ended by a cap: {note}"


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_fool_last_trick_is_not_counted_twice(players: int) -> None:
    """#95; S2:57 "the game ends": once the last trick is over its cards are in the round's
    played cards only, so a finished game still holds hand_size x players cards (48 of 48
    with four players, not 51)."""
    state = new_game("friese_fool", players, seed=players)
    rng = random.Random(players)
    while not state.is_over:
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
    assert state.trick == []
    assert state.cards_total() == state.rules.hand_size_for(players) * players
