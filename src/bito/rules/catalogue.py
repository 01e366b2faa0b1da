"""The registered variants, by catalogue id (VARIANTS.md §2).

Each entry is data: names, a one-line summary, the rules in words, and the option values that
make it differ from its base. Add a variant by adding an entry here.
"""

from __future__ import annotations

from bito.rules.registry import Variant, register

BASES = ("simple", "podkidnoy", "perevodnoy")

register(Variant(
    id="simple", number=1, family="durak",
    names=("Simple fool", "Простой дурак", "durachki", "prostoy"),
    summary="No throw-ins: the attacker leads one or more cards of one rank, the defender "
            "covers them all or takes them.",
    description=(
        "36 cards, 6 each; the card turned up under the stock is trump and is drawn last. The "
        "holder of the lowest trump attacks the player on his left with one or more cards of "
        "one rank, never more than the defender holds. Nothing can be added afterwards. A card "
        "is beaten by a higher card of its suit or by any trump if it is not a trump; a trump "
        "only by a higher trump. If every card is covered they go to the discard pile and the "
        "defender attacks next; otherwise the defender takes them all and loses his turn. "
        "Everyone refills to 6, the attacker first and the defender last. A player whose hand "
        "is empty once the stock is gone is out; the last player holding cards is the fool."),
    options={"throw_in.enabled": False},
    references="VARIANTS §1.1-1.4, §1.7-1.8; S0:204-217, 286-297; S1:52",
))

register(Variant(
    id="podkidnoy", number=7, family="durak",
    names=("Throw-in fool", "Подкидной дурак", "podkidnoi", "throw-in", "throwing fool",
           "toss fool", "durak"),
    summary="The classic: after the lead every player but the defender may throw in cards of "
            "ranks already on the table, up to six and never more than the defender can cover.",
    description=(
        "As simple fool, and: once the defender has covered the cards in front of him, the "
        "attacker and then the other players clockwise may throw in more cards whose rank "
        "matches any card on the table, attack or defence. A bout holds at most 6 attack cards, "
        "and never more uncovered cards than the defender holds. A defender who gives up and "
        "takes can still be handed more matching cards before he picks everything up. When "
        "everything is covered and everyone has passed, the cards are 'bito' (discarded)."),
    options={},
    references="VARIANTS §1.5; S0:223, 251-253, 300-304; S1:62-63, 91-99",
))

register(Variant(
    id="perevodnoy", number=8, family="durak",
    names=("Transfer fool", "Переводной дурак", "perevodnoi", "translated fool",
           "transferable fool", "transfer"),
    summary="Podkidnoy where the defender, before covering anything, may pass the attack on "
            "to the next player by adding a card of the same rank.",
    description=(
        "As podkidnoy, and: while no card on the table is covered yet and all attack cards "
        "share one rank, the defender may add a card of that rank instead of defending. The "
        "player on his left then defends against all of them, and may transfer again; with two "
        "players the attack goes back to the attacker. A transfer is not allowed if the next "
        "player holds fewer cards than the attack would then contain. The last transferrer "
        "throws in first. After the bout the player on the right of the final defender draws "
        "first and the final defender last."),
    base="podkidnoy",
    options={"transfer.enabled": True, "draw.order": "right_of_defender_first"},
    references="VARIANTS §1.6; S0:224, 255-259, 307; S1:69-72, 101-111; S4:2-4",
))

register(Variant(
    id="ace_not_trump_indicator", number=74, family="durak", kind="modifier",
    names=("Ace cannot be trump", "ace not trump"),
    summary="House rule: a turned-up ace may not be the trump card; it is buried in the stock "
            "and another card is turned.",
    description=(
        "If the card turned up to fix the trump is an ace, it is put back into the stock at a "
        "random place (never at the bottom) and the next card is turned instead. With the "
        "value A,L the lowest rank is refused as well."),
    options={"trump.reject_indicator": ("A",)}, applies_to=BASES,
    parameter="trump.reject_indicator", parameter_default="A",
    references="VARIANTS #74; S0:3",
))

register(Variant(
    id="first_bout_cap_five", number=75, family="durak", kind="modifier",
    names=("First bout five",),
    summary="House rule: the first bout of a deal holds at most 5 attack cards (6 if the "
            "defender takes).",
    description=(
        "In the first bout of each deal no more than five cards may be played at the defender; "
        "if he declares that he takes, a sixth may still be thrown in."),
    options={"throw_in.first_bout_cap": 5}, applies_to=BASES,
    references="VARIANTS #75; S0:304",
))

register(Variant(
    id="uncapped_after_stock", number=76, family="durak", kind="modifier",
    names=("Uncapped after stock",),
    summary="House rule: once the stock is empty, a bout is limited only by the defender's "
            "hand, not by six.",
    description=(
        "While the stock lasts a bout holds at most six attack cards. Once it is empty the "
        "attackers may throw in as many cards as the defender holds."),
    options={"throw_in.uncapped_after_stock": True}, applies_to=BASES,
    references="VARIANTS #76; S0:304",
))

register(Variant(
    id="defender_draws_first", number=77, family="durak", kind="modifier",
    names=("Defender draws first", "the bouncer gets there first"),
    summary="House rule: after a bout the defender refills first, then the attacker, then "
            "the others clockwise.",
    description="The defender draws first; then the player who led the bout, then the rest "
                "clockwise from him.",
    options={"draw.order": "defender_first"}, applies_to=BASES,
    references="VARIANTS #77; S0:249",
))

register(Variant(
    id="no_transfer_first_bout", number=78, family="durak", kind="modifier",
    names=("No transfer in the first bout",),
    summary="House rule: the first bout cannot be transferred (first game of a match, or "
            "with =under_fool, a deal led under the fool).",
    description=(
        "first_game (default of this house rule): in the first bout of the first game of a "
        "match nobody may transfer. under_fool: in a deal whose first attack is made at the "
        "previous fool, the first bout cannot be transferred."),
    options={}, applies_to=("perevodnoy",),
    parameter="transfer.first_bout", parameter_default="first_game",
    references="VARIANTS #78; S0:307; S1:71-72; S4:4",
))

register(Variant(
    id="next_game_leader", number=79, family="durak", kind="modifier",
    names=("Next game leader",),
    summary="House rule set: who attacks first in later deals: from_under_fool (default), "
            "under_fool, previous_winner, left_of_dealer or lowest_trump.",
    description=(
        "from_under_fool: the player on the fool's left attacks his own left neighbour. "
        "under_fool: the player on the fool's right attacks the fool. previous_winner: the "
        "first player out in the previous deal attacks. left_of_dealer: the player on the "
        "dealer's left attacks. lowest_trump: as in the first deal. After a drawn deal the "
        "lowest trump leads."),
    options={}, applies_to=BASES,
    parameter="next_game_leader", parameter_default=None,
    references="VARIANTS #79; S0:217, 278, 293; S1:6, 63, 124",
))
