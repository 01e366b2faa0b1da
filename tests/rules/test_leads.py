"""Variants II through the engine: leads and the simple family (issue 4).

Catalogue ids #2-6 (Rozaliev's simple fool and its options, with pairs, from groups), #46 (lead
the strongest), #47 (treshka) and #52 (no skip after take); the transfer family (#9-12) is in
test_transfer.py.
Each test names the id and the seed line it checks (S0 = seeds/000_*.txt, S1 = 001, S4 = 004);
the expected moves are written out from the rule text, never read back from the engine.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.errors import RulesError
from bito.games.durak import new_game
from bito.games.durak.actions import ATTACK
from bito.games.durak.state import pair_plus_one
from bito.rules import resolve
from conftest import P, assert_conserved, cards, hand, legal, mask_of, play, rule_of


def m(text: str) -> int:
    """A set of cards written back to back, as a bitmask."""
    return mask_of(cards(text))

# --- #2 simple_classic_5card (S1:52-54) ----------------------------------------------------


def test_rozaliev_deal_five_cards_left_of_dealer_leads() -> None:
    """#2, S1:53: 2-5 players, five cards each, and the player next to the dealer leads."""
    rules = resolve("simple_classic_5card").rules
    assert (rules.players_min, rules.max_players) == (2, 5)
    for players in (2, 3, 5):
        for seed in range(4):
            s = new_game("simple_classic_5card", players=players, seed=seed)
            assert all(h.bit_count() == 5 for h in s.hands)
            assert s.attacker == (s.deal.dealer + 1) % players
    with pytest.raises(RulesError):
        new_game("simple_classic_5card", players=6, seed=0)


def test_rozaliev_leads_single_pair_or_pair_plus_one_no_throw_in() -> None:
    """#2, S1:53: "from any card, or from two cards of the same value, or from two cards of
    the same value and one more card"; nothing is thrown in afterwards."""
    s = P("simple_classic_5card players=2 trump=6h stock=6hAc hands=7c7d9s/8c8dJsQsKs "
          "attacker=0")
    assert legal(s) == {"7c", "7d", "9s", "7c+7d", "7c+7d+9s"}
    s = play(s, "7c+7d")
    s = play(s, "8c>7c", "8d>7d")
    assert s.phase_name == "lead" and s.attacker == 1  # bito at once: no throw-in round


# --- #3 simple_partial_defense (S1:56) -----------------------------------------------------


def test_partial_defence_discards_covered_pairs_and_takes_the_rest() -> None:
    """#3, S1:56: the defender "has the right to beat some of the cards ... and take the
    remaining ones. The beaten are sent to the retreat", and having failed to beat one he
    loses his turn to attack."""
    start = P("simple_partial_defense players=3 trump=6h stock=- hands=7c7d9sKc/8c9hJsQs/AsAd "
              "attacker=0")
    s = play(start, "7c+7d+9s", "8c>7c", "take")
    assert s.discard == start.discard | m("7c8c")
    assert hand(s, 1) == cards("9hJsQs7d9s")
    assert s.attacker == 2 and s.defender == 0  # the taker is skipped
    assert_conserved(s)


def test_without_partial_defence_the_taker_picks_up_his_covers_too() -> None:
    """#3 against #2 (S1:53 "the move is made once"): in Rozaliev's simple fool a taker takes
    everything on the table, his own covers included."""
    start = P("simple_classic_5card players=3 trump=6h stock=- hands=7c7d9sKc/8c9hJsQs/AsAd "
              "attacker=0")
    s = play(start, "7c+7d+9s", "8c>7c", "take")
    assert s.discard == start.discard
    assert hand(s, 1) == cards("9hJsQs7c7d9s8c")


# --- #4 with_pairs (S0:155-159; S1:58) -----------------------------------------------------


def test_with_pairs_allows_exactly_three_lead_shapes() -> None:
    """#4, S1:58: "with one card; two cards of the same value and one more card; two cards of
    the same value, two more cards of the same value and one card. There can be no other
    possible moves" (S0:157-159). A bare pair is no lead (A1)."""
    s = P("with_pairs players=2 trump=6h stock=6hAc hands=7c7d9s9hKd/8c8dJsQsKs attacker=0")
    singles = {"7c", "7d", "9s", "9h", "Kd"}
    pair_plus_one = {"7c+7d+9s", "7c+7d+9h", "7c+7d+Kd", "7c+9h+9s", "7d+9h+9s", "Kd+9h+9s"}
    two_pairs = {"7c+7d+Kd+9h+9s"}
    assert legal(s) == singles | pair_plus_one | two_pairs
    assert rule_of(s, "7c+7d") == "lead shape"


def test_with_pairs_the_extra_card_may_match_the_pair() -> None:
    """#4 A3 ("and any other card", S0:157): a pair plus a third card of the same rank."""
    s = P("with_pairs players=2 trump=6h stock=6hAc hands=7c7d7h/8c8dJsQsKs attacker=0")
    assert "7c+7d+7h" in legal(s)


def test_with_pairs_lead_never_exceeds_the_defenders_hand() -> None:
    """#4 on #2 (S1:53, "a move is made with at most five cards", never more than the
    defender holds): against two cards only single cards remain."""
    s = P("with_pairs players=2 trump=6h stock=- hands=7c7d9s9hKd/8c8d attacker=0")
    assert legal(s) == {"7c", "7d", "9s", "9h", "Kd"}


# --- #5 pairs_only (S1:60) -----------------------------------------------------------------


def test_pairs_only_leads_a_pair_and_nothing_else() -> None:
    """#5, S1:60: "you can only play with a paired card and only with two cards"."""
    s = P("pairs_only players=2 trump=6h stock=6hAc hands=7c7d7h9s/8c8dJsQsKs attacker=0")
    assert legal(s) == {"7c+7d", "7c+7h", "7d+7h"}


def test_pairs_only_without_a_pair_the_attack_passes_on() -> None:
    """#5, S1:60: "If there is none, the move passes to the next player" (A1: he attacks his
    own left neighbour)."""
    s = P("pairs_only players=3 trump=6h stock=6hAcAd hands=7c8d9s/8c8hJs/QsQdKs attacker=0")
    assert legal(s) == {"pass"}
    s = play(s, "pass")
    assert (s.attacker, s.defender, s.to_act) == (1, 2, 1)
    assert legal(s) == {"8c+8h"}


def test_pairs_only_nobody_has_a_pair_everyone_draws_one() -> None:
    """#5 A1: nobody in the circle holds a pair and the stock is not empty: everyone draws
    one card, the attacker first, and he tries again."""
    s = P("pairs_only players=2 trump=6h stock=6hAcKs7h hands=7c8d9s/8c9hJs attacker=0")
    assert legal(s) == {"pass"}
    s = play(s, "pass")
    # The top of the stock is its end: 7h to the attacker, then Ks to the defender.
    assert hand(s, 0) == cards("7c8d9s7h") and hand(s, 1) == cards("8c9hJsKs")
    assert s.attacker == 0 and s.phase_name == "lead"
    assert legal(s) == {"7c+7h"}


def test_pairs_only_with_the_stock_gone_a_single_card_may_lead() -> None:
    """#5 A1 (engine decision, no seed): with no pair anywhere and nothing left to draw, a
    single card opens the bout, so the game cannot stall; that nobody holds a pair is learnt
    by passing the lead round every seat (docs/variants.md), not from the hidden hands."""
    s = P("pairs_only players=2 trump=6h stock=- hands=7c8d/8c9hJs attacker=0")
    assert legal(s) == {"pass"}
    s = play(s, "pass")
    assert (s.attacker, s.to_act) == (0, 0)
    assert legal(s) == {"7c", "8d"}
    assert rule_of(P("pairs_only players=2 trump=6h stock=- hands=7c7d/8c9h attacker=0"),
                   "pass") == "lead pass"


# --- #6 from_groups (S0:161-163) -----------------------------------------------------------


def test_from_groups_adds_trips_alone_and_quads_with_or_without_one() -> None:
    """#6, S0:163: "you can play with threes and fours of cards of the same rank. It is not
    necessary to add another card to the card groups. It is forbidden to add cards to the
    troika" (A1: quads may take one more card)."""
    s = P("from_groups players=2 trump=6h stock=6hAc hands=7c7d7h9sKd/8c8dJsQsKs attacker=0")
    got = legal(s)
    assert "7c+7d+7h" in got  # three of a kind, alone
    assert "7c+7d+7h+9s" not in got and "7c+7d+7h+Kd" not in got  # nothing added to three
    s = P("from_groups players=2 trump=6h stock=6hAc hands=7c7d7h7s9s/8c8dJsQsKs attacker=0")
    got = legal(s)
    assert {"7c+7d+7h+7s", "7c+7d+7h+7s+9s"} <= got
    assert "7c+7d" not in got  # still no bare pair (A3)


def test_from_groups_alternatives_are_options() -> None:
    """#6 A1/A3 options: no quads plus one; a bare pair allowed."""
    spec = "from_groups+lead.patterns=single,pair,trips,quads"
    s = P(f"{spec} players=2 trump=6h stock=6hAc hands=7c7d7h7s9s/8c8dJsQsKs attacker=0")
    got = legal(s)
    assert "7c+7d" in got and "7c+7d+7h+7s" in got and "7c+7d+7h+7s+9s" not in got


# --- #46 lead_strongest (S0:50) ------------------------------------------------------------


@pytest.mark.parametrize("base", ["simple", "podkidnoy", "perevodnoy"])
def test_lead_strongest_trump_first(base: str) -> None:
    """#46, S0:50: "you can only walk by yourself strong card": a trump is stronger than any
    plain card, so with the 8h in hand (hearts trump) only the 8h may open."""
    s = P(f"{base}+lead_strongest players=2 trump=6h stock=6hAc hands=7cKsKd8h/9cTdJsQsAs "
          "attacker=0")
    assert legal(s) == {"8h"}
    assert rule_of(s, "Ks") == "lead strongest"


def test_lead_strongest_equal_plain_ranks_are_a_free_choice() -> None:
    """#46 A1/A2: without a trump the highest rank is the strongest; kings of two suits tie
    and may go alone or together where the base allows several cards of a rank."""
    s = P("podkidnoy+lead_strongest players=2 trump=6h stock=6hAc hands=7cKsKd/9cTdJsQsAs "
          "attacker=0")
    assert legal(s) == {"Ks", "Kd", "Kd+Ks"}


# --- #47 treshka (S0:62) -------------------------------------------------------------------


def test_treshka_leads_three_cards_of_any_rank() -> None:
    """#47, S0:62: "you need to enter immediately with three cards" of any ranks (A1)."""
    s = P("podkidnoy+treshka players=2 trump=6h stock=6hAc hands=7c9dKsJh/9cTdJsQsAs "
          "attacker=0")
    assert legal(s) == {"7c+9d+Ks", "7c+9d+Jh", "7c+Jh+Ks", "9d+Jh+Ks"}


def test_treshka_fewer_cards_only_when_a_hand_is_smaller() -> None:
    """#47, S0:62: "If a player has only two in his hands - with two, if one - with one"; and
    never more than the defender holds (A: lead.size = min(3, attacker, defender))."""
    two = P("simple+treshka players=2 trump=6h stock=- hands=7c9d/9cTdJsQsAs attacker=0")
    assert legal(two) == {"7c+9d"}
    short = P("simple+treshka players=2 trump=6h stock=- hands=7c9dKsJh/9cTd attacker=0")
    assert {len(a.split("+")) for a in legal(short)} == {2}


# --- #52 no_skip_after_take (S0:128) -------------------------------------------------------


@pytest.mark.parametrize("base", ["simple", "podkidnoy", "perevodnoy", "japanese"])
def test_no_skip_after_take_the_taker_attacks_next(base: str) -> None:
    """#52, S0:128: "if a player cannot beat the cards and takes them, he does not skip a
    move, but he goes under the next player"."""
    s = P(f"{base}+no_skip_after_take players=3 trump=6h stock=- hands=7c9c/8dTs/JcQc "
          "attacker=0")
    s = play(s, "7c", "take")
    while s.phase_name == "throw":
        s = play(s, "pass")
    assert (s.attacker, s.defender) == (1, 2)
    plain = play(P(f"{base} players=3 trump=6h stock=- hands=7c9c/8dTs/JcQc attacker=0"),
                 "7c", "take")
    while plain.phase_name == "throw":
        plain = play(plain, "pass")
    assert (plain.attacker, plain.defender) == (2, 0)


# --- bots and the terminal -------------------------------------------------------------------


def test_heuristic_bot_covers_what_it_can_before_a_partial_take() -> None:
    """#3 for the bots: facing two sevens it cannot both beat (the 7d needs a higher diamond
    or a trump, it holds neither), the heuristic bot first covers the 7c with a plain card,
    which the rule sends to the discard, and only then takes."""
    from bito.bots.heuristic import HeuristicBot

    s = P("simple_partial_defense players=2 trump=6h stock=6hAc hands=7c7dKs/8c9sJsQs "
          "attacker=0")
    s = play(s, "7c+7d")
    bot = HeuristicBot(1)
    first = bot.choose(s.view(1))
    assert str(first) == "8c>7c"
    s = s.apply(first)
    assert str(bot.choose(s.view(1))) == "take"


def test_terminal_tells_the_table_about_a_lead_pass() -> None:
    """#5 in `bito play`: the pass in the lead phase is announced as passing the attack on,
    and the next line names the new attacker and his target."""
    from bito.tui import bout_events, describe_action

    s = P("pairs_only players=3 trump=6h stock=6hAcAd hands=7c8d9s/8c8hJs/QsQdKs attacker=0")
    after = play(s, "pass")
    text = describe_action("Anna", s.legal_actions()[0], s.phase)
    assert "passes the attack on" in text
    names = ["You", "Anna", "Boris"]
    assert any("Anna attacks Boris instead" in line
               for line in bout_events(s, after, s.legal_actions()[0], names))


# --- the pair-plus-one leads as the rule reads, for any hand (#2, S1:53) -------------------


def _pair_plus_one_as_read(hand: int) -> list[tuple[int, ...]]:
    """S1:53 read literally: every pair of one value with any one more card, each set of
    three once, listed where the loops over pairs (low card, then high) and then over the
    other cards (low to high) first meet it."""
    cards_ = [c for c in range(64) if hand >> c & 1]
    out: list[tuple[int, ...]] = []
    for i, a in enumerate(cards_):
        for b in cards_[i + 1:]:
            if a % 16 == b % 16:
                for extra in cards_:
                    trio = tuple(sorted({a, b, extra}))
                    if len(trio) == 3 and trio not in out:
                        out.append(trio)
    return out


@settings(max_examples=300, deadline=None)
@given(st.sets(st.sampled_from([s * 16 + r for s in range(4) for r in range(6, 15)]),
               max_size=14))
def test_pair_plus_one_leads_are_every_pair_with_one_more_card_once(hand_cards: set[int]) -> None:
    """#2, S1:53 ("from two cards of the same value and one more card"): the engine's list
    (cached per hand, since a #59 search asks for the same hands again and again) holds
    every such set of three once, in the order of the literal reading, asked twice."""
    hand = sum(1 << c for c in hand_cards)
    want = _pair_plus_one_as_read(hand)
    for _ in range(2):  # the second answer comes from the cache
        got = pair_plus_one(hand)
        assert [a.cards for a in got] == want
        assert all(a.kind == ATTACK and a.mask.bit_count() == 3 for a in got)
