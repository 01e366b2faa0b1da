"""The rules the compiled kernel (:mod:`bito.kernel`) plays, written once, as data.

The kernel is a second implementation of the base games (VARIANTS.md §1, house rules #74-#79
and the engine's end-of-game rules) and of the variants issue 20 brought in: every beat
relation of one deck (read as the reference engine's table), #10's transfer at any time, #40's
lead from the stock, #39's second try, the partnerships of #53-55, and #29 Estonian's jokers,
group throw-ins and #11's transfer (a deck of at most 63 cards: not two decks); and those
issue 35 brought in: #96's transfer by showing a trump, and the joker systems whose jokers
only change what beats what and which suits are trumps (#25, #26, #27, #81).

Issue 35 item 2 brought in most of the rest of the family: #24's and #84's joker gifts, #28's
wild cards, #12's and #46's lead filters and #47's three cards, the deals of #23, #32, #33,
#37 and #80, #73's leads of one suit, #9, #14, #18, #31, #34, #36, #52, #83, #97 and the
tallies of #61-63; then #3's partial defence, #4-6's lead patterns and #5's passed lead, and
#22's twin that blocks throw-ins (on two decks, from the move at most 63 cards are in play).

What it refuses, it refuses by rule fact, never by a game's name: an option not declared
here, or a value outside ``plays`` (so personal trumps, the gradual access and recycled
discard, the poker exchange, self-throws, counters, the cunning and impudent throw-ins after
a take, dummies, hands held face out and face-down covers fall back to the reference engine,
as ``tools/kernel_coverage.py`` lists).

Which options it honours is a fact about the rules, so it lives here, next to the option specs,
and not in the kernel package: ``bito.kernel.supports`` reads it to decide when to fall back to
the reference engine, the differential verifier (``bito.kernel.verify``) draws its random
option sets from it, and ``tests/engine/test_kernel_rules_data.py`` checks it against
:data:`OPTION_SPECS` and against the kernel's conversion of rules to arrays. An option that is
not declared here must keep its base-game default for the kernel to play a game, so a new
option cannot slip into the kernel unnoticed.

This module imports nothing outside :mod:`bito.rules` (no numba, no numpy).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from bito.rules.options import OPTION_SPECS, Rules

#: How the kernel learns an option's value:
#: ``facts``: the conversion writes it into the rule facts of the kernel's array
#: (``bito.kernel.convert.rule_facts``), so two values give two different arrays;
#: ``deal``: the reference engine's deal settles it, and the kernel takes over the dealt
#: position (it never reads the option itself);
#: ``seats``: only ``supports`` reads it, as a bound on the seat count;
#: ``unused``: the kernel never meets a game where it matters (it refuses the one value of
#: another option that would make it count).
Reading = Literal["facts", "deal", "seats", "unused"]


@dataclass(frozen=True)
class KernelOption:
    """One option the kernel reads."""

    key: str
    reading: Reading
    plays: tuple[Any, ...] | None = None
    """The values the kernel plays; ``None``: any value the rules accept. For a list-valued
    option, the items a list may hold (any list of them, in any order)."""
    draws: tuple[Any, ...] = ()
    """What the differential verifier sets the option to, at random, when it varies a base
    game; empty: the verifier leaves it at the base game's value."""


#: Every option the kernel reads, in the order the verifier draws them (that order is part of
#: which games a verifier seed makes, so appending is safe and reordering is not).
KERNEL_OPTIONS: Final[tuple[KernelOption, ...]] = (
    KernelOption("deck.size", "facts", (24, 32, 36, 52), (24, 36, 52)),
    KernelOption("deal.hand_size", "facts", None, (5, 6)),
    KernelOption("players.min", "seats"),
    KernelOption("players.max", "seats"),
    # fixed (#13 Japanese, #80) and none (#15): no card is turned; the beat table says the rest
    KernelOption("trump.source", "facts",
                 ("stock_top", "last_card", "bottom_card", "any_card", "fixed", "none"),
                 ("stock_top", "last_card", "bottom_card", "any_card", "fixed", "none")),
    # #74: an ace or the lowest rank turned up may be put back; jokers always are (§3.3, and
    # #29 A3 names it); #14's spades.
    KernelOption("trump.reject_indicator", "facts", ("A", "L", "joker", "mega", "spades"),
                 ((), ("A",), ("L",), ("A", "L"))),
    KernelOption("trump.fixed_suit", "facts"),  # the deal reads it under trump.source=fixed
    KernelOption("first_attacker.rule", "facts", None, ("lowest_trump", "left_of_dealer")),
    KernelOption("first_attacker.no_trump_fallback", "facts", None, ("lowest_card", "lot")),
    KernelOption("next_game_leader", "deal", None,
                 ("from_under_fool", "under_fool", "previous_winner", "left_of_dealer",
                  "lowest_trump")),
    # #73's leads of one suit, and of the patterns (#4-6, #47) only #47's three any cards
    KernelOption("lead.shape", "facts",
                 ("same_rank", "single", "same_rank_1or2", "rozaliev", "patterns", "same_suit"),
                 ("same_rank", "single", "same_rank_1or2", "rozaliev")),
    KernelOption("lead.max", "facts", None, (6, 5, 3)),
    KernelOption("throw_in.enabled", "facts"),
    KernelOption("throw_in.by", "facts", None, ("all", "neighbours")),
    KernelOption("throw_in.cap", "facts", None, (6, 5, 4)),
    KernelOption("throw_in.first_bout_cap", "facts", None, (0, 5)),
    KernelOption("throw_in.uncapped_after_stock", "facts", None, (False, True)),
    KernelOption("transfer.enabled", "facts"),
    KernelOption("transfer.forbid_if_trump_on_table", "facts", None, (False, True)),
    KernelOption("transfer.first_bout", "facts", None, ("allowed", "first_game", "under_fool")),
    KernelOption("draw.order", "facts", None,
                 ("attacker_first", "right_of_defender_first", "attacker_then_strict_clockwise",
                  "defender_first")),
    KernelOption("end.draw_allowed", "facts", None, (True, False)),
    KernelOption("end.repetition", "facts", None, (3, 2, 0)),
    KernelOption("end.idle_bouts", "facts", None, (50, 20, 100)),
    # What beats what (VARIANTS.md §4.6): the kernel copies the reference engine's beat table
    # (``bito.games.durak.relation``) into its array, so each of these is a different table,
    # never a branch of the compiled code. (#73's beats.unbeatable below; not binding or
    # identical: they come with personal trumps or two decks the kernel does not play.)
    KernelOption("beats.restricted_suit", "facts", None, ("c", "s")),  # #13, #14
    KernelOption("beats.royal", "facts", None, (False, True)),  # #19
    KernelOption("beats.royal_suit_scope", "facts", None, ("same_suit", "any_suit")),  # #19 A1
    KernelOption("beats.ace_only_by_trump", "facts", None, (False, True)),  # #20
    KernelOption("beats.deuce_beats_ace", "facts", None, (False, True)),  # #29
    KernelOption("beats.deuce_scope", "facts", None, ("same_suit", "any_suit")),  # #29 A1
    KernelOption("beats.suit_mode", "facts", None, ("standard", "suitless")),  # #17
    # #10 (transfer_2, S0:259): a transfer while some attack cards are covered, matching the
    # last uncovered card (or, #10 A3, every uncovered card)
    KernelOption("transfer.window", "facts", None, ("before_first_cover", "any_time")),
    KernelOption("transfer.match", "facts", None, ("last_uncovered", "all_uncovered")),
    # #40 (Armenian, S0:32): a bout may open with the top card of the stock
    KernelOption("lead.stock_top", "facts", None, ("off", "once")),
    # #83: any number of stock cards a bout, and throw-ins from the stock
    KernelOption("lead.stock_top_throw_in", "facts"),
    # #39 (S0:29): a defender who cannot beat a card may draw the stock's top and go on
    KernelOption("defense.second_try", "facts", None, ("off", "per_card", "per_bout")),
    # Partnerships (#53 pair fool, #54 double fool, #55 team fool): who throws in, who is
    # attacked next, proxies for a seat gone out. No draws: the base games' random option sets
    # mix in transfers and seat counts partnerships refuse; the verifier plays the named
    # variants instead.
    KernelOption("team.layout", "facts"),
    KernelOption("team.throw_in", "facts"),
    KernelOption("team.attack", "facts"),
    KernelOption("team.proxy", "facts"),
    # Jokers (#29 Estonian): a deck of at most 63 cards, numbered by the conversion
    # (``bito.kernel.convert.card_index``); the joker systems whose jokers only change what
    # beats what (the beat table, as data) and match each other for throw-ins; not #25-#27's
    # high and wild jokers nor #24's gifts. Verified through the named variants, not drawn.
    KernelOption("deck.jokers", "facts"),
    KernelOption("deck.mega", "facts"),  # #30 Capital's mega card: a card of its own rank
    # What the jokers beat and are beaten by, all of it in the beat tables the conversion
    # writes for each card the deal may turn up (#25's high joker and two trump suits, #27's
    # wild jokers after a turned joker): not #24's gifts nor #28's wild cards, which change
    # the bout itself.
    KernelOption("specials.joker", "facts",
                 ("any", "estonian", "single", "double", "double_color_only", "novosibirsk")),
    KernelOption("specials.joker_beaten_by_any", "facts"),  # #26's option
    KernelOption("specials.joker_unbeatable", "facts"),  # #81 A1
    KernelOption("specials.wild_jokers", "facts"),  # #27 A1
    # #11 (S0:29-31), in #29: a transfer neutralises the uncovered cards
    KernelOption("transfer.new_defender_beats", "facts"),
    # #29 (S0:119): two, three or four cards of one rank thrown in as one action
    KernelOption("throw_in.groups", "facts"),
    # #21 (S0:53): a hand this big after taking loses at once; a rule fact for any deck (Big
    # fool's own two decks are past the kernel's 63 cards, so it is drawn into the base games)
    KernelOption("end.instant_loss_cards", "facts", None, (0, 16, 24)),
    # #96 (show_trump_transfer): the defender passes the attack on by showing a trump of the
    # rank led, keeping it (a no-op in a game without transfers)
    KernelOption("transfer.show_trump", "facts", None, (False, True)),
    # Issue 35: more of the family. #28's wild cards (a deck of 58: two jokers, four wild
    # cards, numbered by the conversion) and the cover with one that closes the bout to
    # throw-ins (not #28 A2's cover that clears the table at once)
    KernelOption("deck.wild", "facts"),
    KernelOption("specials.cover_ends_throw_in", "facts"),
    # #52: the taker attacks next
    KernelOption("take.skip", "facts", None, (True, False)),
    # #12's whole rank and #46's strongest card, filters of the leads (not #4-6's patterns
    # nor #5's pass of the lead)
    KernelOption("lead.must_include_all_of_rank", "facts", None, (False, True)),
    KernelOption("lead.strongest_only", "facts", None, (False, True)),
    # #9: the last duel's transfer back to the attacker gone out
    KernelOption("transfer.refusal", "facts", None, (False, True)),
    # #34: only an empty hand draws; #36: hands fill to one card more after each bout (not
    # #35's gradual access, #37's buy-in, #38's recycled discard or the tallies of #61-63)
    KernelOption("draw.when", "facts", ("every_bout", "hand_empty"),
                 ("every_bout", "hand_empty")),
    KernelOption("draw.progressive", "facts"),
    KernelOption("draw.target_cap", "facts"),
    # The deal: #33's whole pack dealt, #32's stock set aside, #23's pack stacked by rank,
    # #80's indicator searched for (the kernel's own deal does each; a position taken over
    # from the reference engine is dealt already)
    KernelOption("deal.whole_pack", "facts"),
    KernelOption("deal.remove_stock", "facts"),
    KernelOption("deck.order", "facts"),
    KernelOption("trump.search_indicator", "facts"),
    # #31: hands pass to the left after each refill (not the exchange of chosen cards)
    KernelOption("exchange.mode", "facts", ("none", "whole_hand")),
    # #24's joker gifts and #84's block: the give phase, its moves, the joker passed on
    # with the other one, a hand of nothing but jokers losing
    KernelOption("specials.joker_gifts", "facts"),
    KernelOption("specials.gift_block_combo", "facts"),
    KernelOption("specials.gift_trigger", "facts"),
    KernelOption("specials.joker_transfer_giver", "facts"),
    # The stock group's books: #61's points, #62's figures, #63's epaulettes (tallies that
    # change nothing in play, kept for the outcome) and #37's buy-in
    KernelOption("score.points", "facts"),
    KernelOption("score.figures", "facts"),
    KernelOption("end.epaulettes", "facts"),
    KernelOption("deal.reserve", "facts"),
    # #4-6's and #47's patterns (with lead.shape=patterns): not three_of_a_rank
    KernelOption("lead.patterns", "facts",
                 ("single", "pair", "pair_plus_one", "two_pairs_plus_one", "trips", "quads",
                  "quads_plus_one", "three_any")),
    # #18: the secret card under the trump card, turned when the stock runs out (its suit
    # then rules: the beat table of its row); A1 draws it last
    KernelOption("trump.secret_second", "facts"),
    KernelOption("trump.secret_drawable", "facts"),
    # #97: the leader swaps the lowest trump for the trump card under the stock
    KernelOption("trump.swap_six", "facts"),
    # #73: cards no card beats (the beat table, as data)
    KernelOption("beats.unbeatable", "facts"),
    # #5: an attacker without an allowed lead passes the attack on (and the draw of a card
    # each, or single cards once the stock is gone, when nobody has one)
    KernelOption("lead.pass_if_no_legal", "facts"),
    # #3: a taker's covered pairs go to the discard, he picks up the open cards
    KernelOption("defense.partial", "facts"),
    # #22: a twin covers its twin (the beat table, as data) and closes the bout to throw-ins;
    # not #21 A1's literal reading
    KernelOption("beats.identical", "facts", ("forbidden", "allowed_blocks")),
)

KERNEL_OPTION: Final[dict[str, KernelOption]] = {o.key: o for o in KERNEL_OPTIONS}
""":data:`KERNEL_OPTIONS` by key."""

_BASE: Final = Rules()
_LIST_OPTIONS: Final = frozenset(k for k, v in _BASE.options().items() if isinstance(v, tuple))


def kernel_refuses(rules: Rules) -> list[str]:
    """The options of ``rules`` the kernel does not play, as ``key=value`` (empty: it plays
    them all); the seat count is the caller's to check."""
    out = []
    for key, value in rules.options().items():
        option = KERNEL_OPTION.get(key)
        if option is None:
            ok = value == getattr(_BASE, OPTION_SPECS[key].attr)
        elif option.plays is None:
            ok = True
        elif key in _LIST_OPTIONS:
            ok = all(item in option.plays for item in value)
        else:
            ok = value in option.plays
        if not ok:
            out.append(f"{key}={value!r}")
    return out


__all__ = ["KERNEL_OPTION", "KERNEL_OPTIONS", "KernelOption", "Reading", "kernel_refuses"]
