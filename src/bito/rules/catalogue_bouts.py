"""Variants II: Durak games with a different bout structure (#65-73, VARIANTS.md §3.9).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`. Akulina (#73) is a Durak game
(two options on Rozaliev's simple fool); the others change the bout itself and are played by
the engines of :mod:`bito.games.bouts` (family ``bouts``), whose option values per id are in
:data:`BOUT_OPTIONS` (merged into the games' option table, so ``bito variants ID`` and the
``family+key=value`` specs work as for the other non-Durak games).
"""

from __future__ import annotations

from typing import Any, Final

from bito.rules.catalogue_games import GAME_OPTIONS
from bito.rules.registry import Variant, register

#: Option values of each bout-structure id, in the engines' own option names (``heap.*``,
#: ``chinese.*``); ``engine`` picks the state machine, ``base`` starts from another id.
BOUT_OPTIONS: Final[dict[str, dict[str, Any]]] = {
    "heaped": {"engine": "heap"},
    "heaped_top_n": {"base": "heaped", "heap.take": "top"},
    "chain_fool": {"engine": "heap", "heap.mode": "chain", "heap.hand_size": 0,
                   "heap.take": "bottom"},
    "chinese": {"engine": "chinese"},
    "chinese_pass_on": {"base": "chinese", "chinese.pass_on": True},
}
GAME_OPTIONS.update(BOUT_OPTIONS)

register(Variant(
    id="chinese", number=65, family="bouts",
    names=("China fool", "Китайский дурак", "kitayskiy durak", "Chinese fool"),
    summary="Whole pack dealt; the 9♦ holder attacks first; once the 9♦ is covered nobody may "
            "throw in; a defender who fails takes only the first card played at him.",
    description=(
        "Throw-in fool with the whole pack dealt out one card at a time and no stock: the "
        "last card dealt is shown, fixes the trump and stays with whoever received it (with "
        "5 players the first seat left of the dealer, who gets the odd card). The holder of the 9♦ "
        "attacks first with any lead. Bouts are podkidnoy bouts (up to 6 cards, never more "
        "than the defender held), with two changes: after the 9♦ has been led or thrown in "
        "and covered, no more cards may be thrown in that bout (chinese.block_trigger="
        "covered_with_nine: after a cover made with the 9♦); and a defender who gives up "
        "takes only the first card played at him, the rest of the table going to the "
        "discard, and misses his turn. A take ends the bout at once. A player whose hand is "
        "empty after a bout is out; the last holding cards is the fool."),
    references="VARIANTS #65, §3.9; S0:83 (dealt as in piled fool: S0:25, S0:243)",
))

register(Variant(
    id="chinese_pass_on", number=66, family="bouts",
    names=("Chinese with the leftovers passed on", "Siberian fool (name unverified)"),
    summary="China fool where the uncovered cards of a failed defence pass on to the next "
            "player, who must cover them all.",
    description=(
        "As China fool, but when a defender gives up after covering the first card, he takes "
        "that first card, the covered pairs are discarded and the uncovered cards pass to "
        "the player on his left, who must cover them all with no throw-ins; if he cannot, "
        "the same rule applies to him. If he covers them all he attacks next. A defender who "
        "fails on the first card takes it and misses his turn; the other table cards are "
        "discarded (chinese.first_fail=pass_on passes the uncovered ones on instead)."),
    references="VARIANTS #66, §3.9; S0:125",
))

register(Variant(
    id="heaped", number=69, family="bouts",
    names=("Fool heaped", "Fool piled up", "heaped fool"),
    summary="Three cards each; cover the card led at you, then lead one of your own to the "
            "next player; covered cards pile up in the centre and a failure takes the heap.",
    description=(
        "2-6 players, 36 cards, three each; the next card is turned up as trump under the "
        "stock. The holder of the lowest trump leads any one card to his left neighbour, who "
        "must cover it and then at once lead one card of his own to his left neighbour, and "
        "so on. Covered cards stay in a heap in the centre. A player who cannot (or will "
        "not) cover takes the whole heap and the player on his left leads next. After every "
        "action everyone below three cards draws up to three, the player who acted first. "
        "With the stock empty a player without cards is out (the next player leads); the "
        "last holding cards is the fool."),
    references="VARIANTS #69, §3.9; S1:82-84",
))

register(Variant(
    id="heaped_top_n", number=70, family="bouts",
    names=("Fool heaped, option B",),
    summary="Heaped fool where a failure takes only the top 3 cards of the heap (top 5 when "
            "the card not covered is a trump).",
    description=("As heaped fool, but a player who does not cover takes the top three cards "
                 "of the heap, the card he failed on among them, or the top five when that "
                 "card is a trump (all of it if the heap is smaller); the rest stays in the "
                 "centre (heap.take_top, heap.take_top_trump)."),
    references="VARIANTS #70, §3.9; S1:86",
))

register(Variant(
    id="chain_fool", number=71, family="bouts",
    names=("Chain fool", "modern fool piled up"),
    summary="Whole pack dealt; each player covers the top card of a chain; a chain as long as "
            "the players still in is discarded; a failure takes the chain's bottom card.",
    description=(
        "2-6 players, 36 cards dealt out one at a time; the last card is shown as trump and "
        "kept by the dealer. The player on the dealer's left leads any card to his left "
        "neighbour, and each next player must cover the top card of the chain. When the "
        "chain holds as many cards as players still in, it is discarded and the player left "
        "of the one who covered last starts a new chain (heap.restart=last_coverer: that "
        "player himself). A player who cannot (or will not) cover takes the bottom card of "
        "the chain and the next player must cover the top card, or lead a fresh card if the "
        "chain is empty. The first out wins; the last holding cards is the fool."),
    references="VARIANTS #71, §3.9; S1:88-89 (first half)",
))

register(Variant(
    id="akulina", number=73, family="durak", base="simple",
    names=("Akulina", "Акулина", "Damka", "Дамка", "game No. 6"),
    summary="Rozaliev's simple fool where a lead is one or more cards of one suit and the "
            "queen of spades can never be covered.",
    description=(
        "2-4 players, each for himself, 36 cards, five each with the trump turned up under "
        "the stock, refilled to five (as in Rozaliev's simple fool, A1). The attacker leads "
        "one or several cards of one suit, any ranks, at most five and never more than the "
        "defender holds; there are no throw-ins. The defender covers every card or takes "
        "them all. The queen of spades, 'Akulina', cannot be covered by anything (so a lead "
        "containing it must be taken), but it covers like any other queen of spades."),
    options={"deal.hand_size": 5, "lead.max": 5, "lead.shape": "same_suit",
             "beats.unbeatable": ("Qs",), "players.max": 4},
    references="VARIANTS #73, §3.9; S4:12-13",
))

BOUT_OPTIONS.update({
    "two_phase_japanese": {"engine": "prelude"},
    "deck_duel_prelude": {"engine": "prelude", "prelude.kind": "flip",
                          "prelude.main": "podkidnoy", "prelude.main_options": ""},
    "polish_fool": {"engine": "polish"},
})
GAME_OPTIONS.update(BOUT_OPTIONS)

register(Variant(
    id="two_phase_japanese", number=67, family="bouts",
    names=("Card-contest prelude, then Japanese fool", "two-phase Japanese fool"),
    summary="Hands are built by a card contest (highest card starts a pile the next player "
            "takes), then Japanese fool is played with ♦ trumps and ♣ as the closed suit.",
    description=(
        "Phase 1: the whole pack is the stock and hands start empty. Each round every player "
        "turns one card, from the round's first drawer (by lot, later the last taker) "
        "clockwise. The highest card by rank starts a pile in the centre (tied highest cards "
        "go on top of it); the next player clockwise must lay a higher card, cannot, and takes "
        "the pile with his own card; the other players keep the cards they turned. When the "
        "stock is gone, phase 2 is Japanese fool with the hands built: diamonds are trump "
        "and clubs (not spades) are beaten only by higher clubs; the lowest diamond leads; a "
        "player with no cards is out."),
    references="VARIANTS #67, §3.9; S0:131-133",
))

register(Variant(
    id="deck_duel_prelude", number=68, family="bouts",
    names=("Deck-flip prelude, then throw-in fool", "deck duel"),
    summary="Hands are built by turning cards from the stock and winning the centre with a "
            "higher card of its suit; then throw-in (or transfer) fool with those hands.",
    description=(
        "Phase 1: hands start empty. The first player (by lot) turns a card into the centre. "
        "In turn each player turns a card: if it is a higher card of the suit of the card to "
        "beat he takes the whole centre and his card into his hand, otherwise his card goes "
        "beside it; then he turns the next card as the card the next player must beat. When "
        "the stock is gone the centre is put out of play and phase 2 is podkidnoy "
        "(prelude.main=perevodnoy: transfer fool) with the hands built and no stock; the suit "
        "of the last card turned is trump and the lowest trump leads."),
    references="VARIANTS #68, §3.9; S0:174",
))

register(Variant(
    id="polish_fool", number=72, family="bouts",
    names=("Polish fool", "Дурак польский", "deck-flipping fool"),
    summary="Hands start empty: beat the top centre card from your hand or by turning the "
            "stock; a failed turn takes both cards; with the stock gone a failure takes the "
            "top three centre cards.",
    description=(
        "A reconstruction of a fragment whose opening is lost. The trump card lies face up in "
        "the centre as the first card to beat; the rest of the pack is the stock and hands "
        "start empty. On his turn a player beats the top centre card with a card from his "
        "hand or by turning the top card of the stock; a card that beats stays on the pile "
        "and he turns the next stock card onto it for the next player. A turned card that "
        "does not beat goes into his hand with the card he failed to beat, and he turns "
        "another card for the next player. Once the stock is empty a player who cannot beat "
        "takes the top three centre cards (an empty centre is opened with any card). The "
        "first to empty his hand wins; the last holding cards is the fool."),
    references="VARIANTS #72, §3.9; S1:89 (second half)",
))
