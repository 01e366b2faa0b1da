"""The Durak family on the compiled kernel (issue 35 item 2): the rules brought in, each
played move by move against the reference engine, the kernel's own deals of the deal rules,
and the differential verifier covering every catalogue entry the kernel accepts.

The reference engine is the source of truth: each test plays the same positions on both
engines (``bito.kernel.verify.compare_game`` compares every position and every legal-action
set) or reads the rule's text where the kernel deals by itself.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

import pytest

from bito import kernel
from bito.cards import rank_of, suit_of
from bito.games.durak import new_game
from bito.rules import rules_for
from bito.rules.kernel_rules import KERNEL_OPTIONS

np = pytest.importorskip("numpy", reason="the kernel needs the fast extra")
pytest.importorskip("numba", reason="the kernel needs the fast extra")

from bito.kernel import layout as L  # noqa: E402
from bito.kernel.batch import dealt  # noqa: E402
from bito.kernel.convert import (  # noqa: E402
    CardIndex,
    card_index,
    kernel_snapshot,
    pack_of,
    reference_snapshot,
    rule_facts,
)
from bito.kernel.core import deal_of  # noqa: E402
from bito.kernel.verify import VERIFIED, compare_game  # noqa: E402

#: The catalogue entries issue 35 brought onto the kernel, as the catalogue defines them.
BROUGHT_IN = (
    "podkidnoy+wild_58",  # #28: wild cards; a cover with one closes the bout to throw-ins
    "perevodnoy_refusal",  # #9: the last duel's transfer back
    "transfer_no_throw",  # #12: a lead holds the whole rank
    "japanese_revealed_trump",  # #14: a spade turned up is put back
    "podkidnoy+no_stock",  # #32
    "podkidnoy+piled_up",  # #33
    "podkidnoy+draw_when_empty",  # #34
    "podkidnoy+arithmetic_progression",  # #36
    "podkidnoy+lead_strongest",  # #46
    "podkidnoy+no_skip_after_take",  # #52
    "podkidnoy+exchange",  # #31
    "perevodnoy+joker_gift",  # #24 (and A3's joker passed on)
    "podkidnoy+joker_gift_block_combo",  # #84
    "podkidnoy+points_fool",  # #61
    "podkidnoy+figure_count",  # #62
    "podkidnoy+epaulettes",  # #63
    "podkidnoy+buy_in",  # #37
    "podkidnoy+treshka",  # #47
    "podkidnoy+armenian_unlimited",  # #83
    "podkidnoy+secret_trump",  # #18
    "podkidnoy+trump_swap",  # #97
    "akulina",  # #73: leads of one suit, the queen of spades unbeatable
)


@pytest.mark.parametrize("spec", BROUGHT_IN)
def test_the_variants_brought_in_play_move_by_move_as_the_reference(spec: str) -> None:
    """Every position and every legal-action set of random games, on both engines (the rule
    facts of ``bito.rules.kernel_rules``, never a second reading of the rules)."""
    rules = rules_for(spec)
    assert kernel.supports(rules, rules.players_min), spec
    rng = random.Random(spec)
    for game in range(3):
        players = rules.players_min + game % 2
        state = new_game(rules, players, seed=rng.getrandbits(40))
        assert compare_game(state, rng) is None


@pytest.mark.parametrize("spec", ["podkidnoy+joker_gift_block_combo",
                                  "perevodnoy+joker_gift"])
def test_joker_gift_options_play_as_the_reference(spec: str) -> None:
    """#24 A1 (a joker cover gives too) and A3's giver (the new defender), on both engines."""
    rules = rules_for(spec).with_options(**{"specials.gift_trigger": "any_play",
                                            "specials.joker_transfer_giver": "new_defender"})
    rng = random.Random(24)
    for _ in range(3):
        assert compare_game(new_game(rules, 2, seed=rng.getrandbits(40)), rng) is None


@pytest.mark.parametrize("spec", ["podkidnoy+piled_up", "podkidnoy+no_stock",
                                  "podkidnoy+buy_in", "podkidnoy+secret_trump",
                                  "podkidnoy+arithmetic_progression"])
def test_the_kernel_deals_the_deal_rules_as_the_reference(spec: str) -> None:
    """#33 (every card dealt, the dealer's last card shows the trump), #32 (the stock set
    aside), #37 (the buy-in dealt first), #18 (the secret card out of the stock), #36 (one
    card each): given the reference shuffle and dealer the kernel deals the same position."""
    rules = rules_for(spec)
    for seed in range(12):
        players = 2 + seed % 3
        shuffle = random.Random(seed)
        deck = list(rules.deck())
        shuffle.shuffle(deck)
        dealer = shuffle.randrange(players)
        mine = deal_of(rule_facts(rules, players), np.array(deck, np.int64), dealer, 0)
        ref = new_game(rules, players, seed=seed)
        assert kernel_snapshot(mine) == reference_snapshot(ref)
        assert int(mine[L.TRUMP_CARD]) == ref.deal.trump_card
        assert int(mine[L.SECRET]) == ref.deal.trump.hidden


def _own_deals(spec: str, players: int) -> list[Any]:
    rules = rules_for(spec)
    return [dealt(rule_facts(rules, players), pack_of(rules), seed) for seed in range(30)]


def test_albanian_stacks_the_pack_aces_first() -> None:
    """#23; "aces on top, then kings": every card dealt to a hand ranks at least as high
    as every card left in the stock (the kernel's own deal)."""
    for s in _own_deals("podkidnoy+albanian", 2):
        hands = [c for seat in range(2) for c in range(64) if int(s[L.HANDS + seat]) >> c & 1]
        stock = [int(c) for c in s[L.STOCK:L.STOCK + s[L.N_STOCK]]]
        assert len(hands) == 12 and len(stock) == 24
        assert min(rank_of(c) for c in hands) >= max(rank_of(c) for c in stock)


def test_the_searched_indicator_lies_under_the_stock() -> None:
    """#80: the first card of the agreed trump suit lies face up under the stock, so it is
    drawn last; every card is dealt or in the stock once (the kernel's own deal)."""
    rules = rules_for("japanese_diamond_indicator")
    suit = "cdhs".index(rules.trump_fixed_suit)
    for s in _own_deals("japanese_diamond_indicator", 2):
        bottom = int(s[L.STOCK])
        assert suit_of(bottom) == suit and int(s[L.TRUMP_CARD]) == bottom
        cards = [int(c) for c in s[L.STOCK:L.STOCK + s[L.N_STOCK]]]
        cards += [c for seat in range(2) for c in range(64) if int(s[L.HANDS + seat]) >> c & 1]
        assert sorted(cards) == sorted(int(c) for c in pack_of(rules))


def test_wild_cards_fit_one_card_set() -> None:
    """#28's 58 cards (52, two jokers, four wild cards) are numbered in 63 bits, in the
    reference order."""
    index = card_index(rules_for("podkidnoy+wild_58"))
    assert isinstance(index, CardIndex) and len(index.codes) == 58
    assert list(index.codes) == sorted(index.codes)


def _coverage() -> list[dict[str, Any]]:
    path = Path(__file__).resolve().parents[2] / "tools" / "kernel_coverage.py"
    spec = importlib.util.spec_from_file_location("kernel_coverage", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rows: list[dict[str, Any]] = module.coverage()
    return rows


def test_the_verifier_covers_every_entry_the_kernel_plays() -> None:
    """Issue 35: ``bito bench --verify`` plays every Durak-family catalogue entry the kernel
    accepts: a verified game holds all its options, or the verifier draws each of them."""
    rows = _coverage()
    on = [r for r in rows if r["kernel"]]
    assert len(on) >= 60
    drawn = {o.key: o.draws for o in KERNEL_OPTIONS if o.draws}
    verified = [rules_for(s).options() for s in VERIFIED]
    for row in on:
        want = rules_for(row["spec"]).changed_options()
        assert (any(all(v.get(k) == x for k, x in want.items()) for v in verified)
                or all(x in drawn.get(k, ()) for k, x in want.items())), row
    for row in rows:
        if not row["kernel"]:
            assert "=" in row["why"], row  # refused by a rule fact, never by its id
