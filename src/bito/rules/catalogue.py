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
    id="show_trump_transfer", number=96, family="durak", kind="modifier",
    names=("Transfer by showing a trump", "Перевод козырем", "show trump"),
    summary="House rule: while nothing is covered, the defender may show the trump of the "
            "attack rank instead of laying it; the attack passes on, the trump stays in hand.",
    description=(
        "A transfer without a card: the defender shows (and keeps) the trump of the rank "
        "led, and the attack passes to the next player as a transfer would, who must cover "
        "the same cards. The shown trump is known to everyone from then on. Each player may "
        "show at most once per bout. Not in the seeds: bito's own entry, the rule many "
        "transfer tables play (docs/variants.md)."),
    options={"transfer.show_trump": True}, applies_to=("perevodnoy",),
    references="bito #96 (not in VARIANTS.md); docs/variants.md",
))

register(Variant(
    id="trump_swap", number=97, family="durak", kind="modifier",
    names=("Trump swap", "Обмен козырной шестёрки", "swap six"),
    summary="House rule: the player about to lead may exchange the six of trumps for the "
            "trump card under the stock while the stock lasts.",
    description=(
        "Before his lead, the attacker who holds the six of trumps (the deck's lowest rank: "
        "the two with 52 cards, the nine with 24) may put it face up under the stock and take "
        "the trump card lying there into his hand, as long as the stock holds more than that "
        "card. Everyone sees both cards. Once the six lies there nobody can swap again. Not in "
        "the seeds: bito's own entry (docs/variants.md)."),
    options={"trump.swap_six": True}, applies_to=BASES,
    references="bito #97 (not in VARIANTS.md); docs/variants.md",
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

JAPANESE_BASES = (*BASES, "japanese")

register(Variant(
    id="japanese", number=13, family="durak",
    names=("Japanese fool", "Японский дурак", "yaponskiy", "yaponsky durak"),
    summary="Diamonds are trump in every deal and spades can be beaten only by a higher spade, "
            "never by a trump.",
    description=(
        "Podkidnoy with two changes to the trumps. Nothing is turned up under the stock: the "
        "trump suit is diamonds in every deal and the stock is drawn to the last card as usual. "
        "Spades are a closed suit: a spade is covered only by a higher spade, so a diamond "
        "cannot take it. Any other card falls to a higher card of its suit or, unless it is a "
        "diamond itself, to any diamond. The holder of the lowest diamond attacks first (with no "
        "diamond dealt, the lowest card; first_attacker.no_trump_fallback=lot draws lots). Two "
        "to six players, with 36 cards or, with deck.size=52, the full pack. The seeds play the "
        "same rules on simple fool (add throw_in.enabled=false) and on transfer fool (add "
        "transfer.enabled=true and draw.order=right_of_defender_first); who leads later deals "
        "is agreed with next_game_leader."),
    base="podkidnoy",
    options={"trump.source": "fixed", "trump.fixed_suit": "d", "beats.restricted_suit": "s",
             "players.max": 6},
    references="VARIANTS #13, §3.1; S0:261-263; S1:6-7, 78, 113-125; S4:9",
))

register(Variant(
    id="japanese_revealed_trump", number=14, family="durak",
    names=("Japanese fool 5.a", "Japanese with a turned-up trump", "japanese 5a"),
    summary="Japanese fool whose trump is turned up from the stock as in podkidnoy; a spade "
            "that turns up is pushed back into the stock and the next card is turned.",
    description=(
        "Spades stay a closed suit, covered only by higher spades, but diamonds are no longer "
        "trump by right: after the deal the top card of the stock is turned up and fixes the "
        "trump as in podkidnoy. Spades can never be trump here, so a spade that shows is slid "
        "back into the middle of the stock and the following card is turned instead. A table "
        "that agrees the trump before the game writes trump.source=fixed and picks "
        "trump.fixed_suit (any suit but spades)."),
    base="japanese",
    options={"trump.source": "stock_top", "trump.reject_indicator": ("spades",)},
    references="VARIANTS #14, §3.1; S1:80; S4:10-11",
))

register(Variant(
    id="japanese_diamond_indicator", number=80, family="durak",
    names=("Japanese with a diamond indicator", "diamond under the stock"),
    summary="Japanese fool with a diamond lying face up under the stock: before the deal cards "
            "are turned until one of them is a diamond.",
    description=(
        "Before dealing, cards are turned from the pack one by one until a diamond shows. That "
        "diamond is laid face up and, after the deal, the rest of the stock is put on top of "
        "it, so it is the last card anyone draws, just like a turned-up trump card. The cards "
        "turned on the way go back into the pack, which is shuffled again before the deal. "
        "Everything else is Japanese fool: diamonds are trump and spades are closed."),
    base="japanese",
    options={"trump.search_indicator": True},
    references="VARIANTS #80, §3.10; S1:6, 115, 124",
))

register(Variant(
    id="no_trump", number=15, family="durak", kind="modifier",
    names=("Trumpless fool", "Бескозырный дурак", "Бескозырный", "without trumps"),
    summary="House rule: no suit is trump; a card is beaten only by a higher card of its own "
            "suit.",
    description=(
        "No trump card is turned up and no suit outranks another, so every cover has to follow "
        "suit with a higher rank. The player holding the lowest card of all attacks first; "
        "when several hold that rank, the first of them clockwise from the dealer's left. With "
        "first_attacker.no_trump_fallback=lot the first attacker is drawn by lot instead. "
        "Nothing else changes."),
    options={"trump.source": "none"}, applies_to=BASES,
    references="VARIANTS #15, §3.2; S0:7",
))

register(Variant(
    id="own_trumps", number=16, family="durak", kind="modifier",
    names=("Own trumps", "Свои козыри", "each player has his own trump", "personal trumps"),
    summary="House rule: every player has a personal trump suit, and a defender counts only his "
            "own suit as trump.",
    description=(
        "After the deal the players, starting on the dealer's left, each turn up the next card "
        "of the stock; its suit becomes that player's trump. A suit already taken is refused "
        "while a free suit remains (the card goes under the stock and another is turned); with "
        "more than four players suits are shared. The turned cards lie face up under the stock "
        "and are the last ones drawn. A defender treats only his own suit as trump: a card of "
        "the attacker's trump suit is ordinary for him and falls to a higher card of that suit "
        "or to any of his own trumps. The first attack goes to the player with the lowest card "
        "of his own trump suit; a tie is settled by lot."),
    options={"trump.per_player": True}, applies_to=BASES,
    references="VARIANTS #16, §3.2; S0:10-12",
))

register(Variant(
    id="own_trumps_binding", number=82, family="durak", kind="modifier",
    names=("Own trumps, binding", "alien trumps binding", "binding trumps"),
    summary="House rule: own trumps, where a card of anyone else's trump suit must be beaten "
            "like a trump, by a higher card of that suit only.",
    description=(
        "Personal trumps as in own_trumps, plus the agreed rule: when the attack card is of a "
        "suit that is the personal trump of any player other than the defender (the attacker or "
        "a third player), only a higher card of the same suit covers it and the defender's own "
        "trump is no help. With four players on four different suits the defender's trump then "
        "beats only within its own suit. With the value attacker_suit_only only the attacker's "
        "trump suit binds and the suits of third players are ordinary."),
    options={"trump.per_player": True, "beats.binding": "all_other_players"},
    applies_to=BASES, parameter="beats.binding", parameter_default="all_other_players",
    references="VARIANTS #82, §3.2; S0:10-12",
))

register(Variant(
    id="suitless", number=17, family="durak", kind="modifier",
    names=("Suitless fool", "Бесмастный", "Безмастный дурак", "suit only for trump"),
    summary="House rule: any higher card beats whatever its suit; trumps still beat every "
            "non-trump and fall only to higher trumps.",
    description=(
        "Suits matter only to tell trumps from the rest. A non-trump is covered by a non-trump "
        "of higher rank in any suit, or by any trump. A trump is covered only by a higher trump; "
        "no non-trump can take it, however high. Two cards of the same rank never beat each "
        "other."),
    options={"beats.suit_mode": "suitless"}, applies_to=BASES,
    references="VARIANTS #17, §3.2; S0:15",
))

register(Variant(
    id="secret_trump", number=18, family="durak", kind="modifier",
    names=("Secret fool", "Секретный дурак", "Секретный", "Тайный дурак", "Тайный",
           "hidden second trump"),
    summary="House rule: a second card lies face down under the trump card; once the stock is "
            "used up it is turned over and its suit is the new trump.",
    description=(
        "As soon as the trump card is turned up, one more card is taken from the stock and laid "
        "face down next to it, unseen by anyone. The first trump rules until the turned-up "
        "trump card itself has been drawn. Then the hidden card is turned over and its suit is "
        "trump for the rest of the game; the card stays on the table and nobody draws it. The "
        "switch happens while drawing, between bouts, so no card on the table changes its "
        "status in the middle of a bout. When both cards have the same suit nothing changes."),
    options={"trump.secret_second": True}, applies_to=BASES,
    references="VARIANTS #18, §3.2; S0:147",
))

register(Variant(
    id="royal", number=19, family="durak", kind="modifier",
    names=("Royal fool", "Королевский дурак", "Королевский", "korolevskiy"),
    summary="House rule: the lowest card and the ace of a suit beat each other, and the lowest "
            "card can be beaten only by that ace.",
    description=(
        "Call the lowest rank of the deck in use (the six of 36 cards, the two of 52) the low "
        "card. A low card can be covered only by the ace of its suit or, when it is not a "
        "trump, by the trump ace. An ace can be covered by the low card of its suit or, when it "
        "is not a trump, by any trump. The rest of the cards beat as in the base game. So the "
        "trump low card falls only to the trump ace, and the trump ace only to the trump low "
        "card. With beats.royal_suit_scope=any_suit the pair need not share a suit: any ace "
        "takes any low card and any low card any ace, though a non-trump still never beats a "
        "trump."),
    options={"beats.royal": True}, applies_to=JAPANESE_BASES,
    references="VARIANTS #19, §3.2; S0:59",
))

register(Variant(
    id="ace_only_by_trump", number=20, family="durak", kind="modifier",
    names=("Ace only by trump", "ace beaten only by trump"),
    summary="House rule: no low card may take an ace; a non-trump ace falls only to a trump and "
            "the trump ace cannot be beaten.",
    description=(
        "Cancels every rule that lets a low card beat an ace: the low card of royal fool and the "
        "deuce of Estonian and Capital fool. A non-trump ace can then be covered only by a "
        "trump, and the trump ace by nothing, so it acts as a wild card. In the plain games an "
        "ace already falls only to a trump, so there the rule changes nothing; it is accepted on "
        "every base so that it can be stacked with royal, as in podkidnoy+royal+"
        "ace_only_by_trump. Jokers and the mega card keep their own powers."),
    options={"beats.ace_only_by_trump": True},
    applies_to=("estonian", "capital", *JAPANESE_BASES),
    references="VARIANTS #20, §3.2; S0:180",
))

register(Variant(
    id="big_fool", number=21, family="durak",
    names=("Big fool", "Большой дурак", "two-deck fool", "double-deck fool"),
    summary="Two 36-card packs shuffled together (72 cards); a card cannot be covered by its "
            "identical twin, and whoever holds 52 cards loses on the spot.",
    description=(
        "Podkidnoy played with two identical packs mixed together, so every card has a twin "
        "(written with a prime: 6h'). A card may not be covered by its exact twin; since equal "
        "ranks never beat each other this mostly confirms that duplicates do not cancel out. "
        "After every bout a player holding 52 cards or more is the fool at once and the game is "
        "over. Two to six players. The seeds also allow it on simple fool (add "
        "throw_in.enabled=false), transfer fool (transfer.enabled=true and "
        "draw.order=right_of_defender_first) and Japanese fool (the trump options of japanese)."),
    base="podkidnoy",
    options={"deck.copies": 2, "beats.identical": "forbidden", "end.instant_loss_cards": 52,
             "players.max": 6},
    references="VARIANTS #21, §3.2; S0:53",
))

register(Variant(
    id="big_fool_twin_block", number=22, family="durak",
    names=("Big fool with twin blocks", "twin block", "two-deck fool, twin beats"),
    summary="Big fool in which a card may be covered by its identical twin, and such a cover "
            "closes the bout to throw-ins.",
    description=(
        "As big fool, but laying the exact twin on top of an attack card is a legal cover. "
        "After it, nobody may throw in another card this bout; the defender still covers what "
        "is already on the table, or takes it. In transfer fool a twin placed beside the attack "
        "card is a transfer as always and only a twin placed on it blocks. 52 cards or more in "
        "one hand still lose the game at once."),
    base="big_fool",
    options={"beats.identical": "allowed_blocks"},
    references="VARIANTS #22, §3.2; S0:56",
))

register(Variant(
    id="albanian", number=23, family="durak", kind="modifier",
    names=("Albanian fool", "Албанский дурак", "Албанский", "descending stock"),
    summary="House rule: the pack is stacked from the aces down instead of shuffled, so the "
            "first hands get the highest cards.",
    description=(
        "Before every deal the pack is put in rank order with the highest on top: every ace, "
        "then every king, and so on down to the lowest rank, the suits of each rank in random "
        "order. Dealing takes cards from the top as usual, so the hands dealt first are full of "
        "high cards, the trump card is the first card after the deal, and the stock gives out "
        "ever lower cards as the game goes on."),
    options={"deck.order": "descending"}, applies_to=JAPANESE_BASES,
    references="VARIANTS #23, §3.3; S0:89",
))

register(Variant(
    id="joker_gift", number=24, family="durak", kind="modifier",
    names=("Fool with jokers", "Дурак с джокерами", "С джокерами", "joker gifts"),
    summary="House rule: 54 cards with two jokers that beat anything and are beaten by "
            "anything; attacking with a joker makes cards change hands.",
    description=(
        "The pack runs from 2 to ace and has a red and a black joker. A joker covers any card "
        "and any card covers a joker. Attacking with a joker, as a lead or a throw-in, sets off "
        "a gift between the attacker and the defender: with the black joker the attacker hands "
        "over two cards of his choice, with the red joker the defender hands the attacker two "
        "of his choice, and leading both jokers together makes the attacker give five. A "
        "defender facing a lone joker may lay the other joker beside it to pass the attack to "
        "his left neighbour, and then gives that player five cards. Someone who has too few "
        "cards to give draws the shortfall from the stock first; with the stock gone that "
        "joker does nothing. Once the stock is empty, a player holding nothing but jokers is "
        "the fool."),
    options={"deck.size": 52, "deck.jokers": 2, "specials.joker": "any",
             "specials.joker_gifts": True},
    applies_to=BASES,
    references="VARIANTS #24, §3.3; S0:92-99",
))

register(Variant(
    id="joker_gift_block_combo", number=84, family="durak", kind="modifier",
    names=("Joker gifts with blocking hands", "joker block combo"),
    summary="House rule: joker gifts, where the player who has to give may cancel the gift by "
            "showing three of a kind and two more cards.",
    description=(
        "Everything as in joker_gift, and: a player about to hand over cards because of a joker "
        "may show five cards from his hand instead, three of one rank plus any two others. The "
        "gift is then called off. The five cards are only shown, not played; they stay in his "
        "hand, now known to the whole table."),
    options={"deck.size": 52, "deck.jokers": 2, "specials.joker": "any",
             "specials.joker_gifts": True, "specials.gift_block_combo": True},
    applies_to=BASES,
    references="VARIANTS #84, §3.3; S0:99",
))

register(Variant(
    id="double_joker", number=25, family="durak", kind="modifier",
    names=("Double joker", "Двойной джокер"),
    summary="House rule: 54 cards; the joker of the trump colour beats everything, the other "
            "joker beats the cards of its own colour.",
    description=(
        "A red and a black joker are added to the 52-card pack. The joker that shares the "
        "trump suit's colour is the strongest card: it covers anything and nothing covers it. "
        "The other joker covers any card of the two suits of its colour, and is itself beaten "
        "by any trump or by the strong joker. When a joker is turned up as the trump card, both "
        "suits of its colour are trumps and that joker is the strong one. Between the two trump "
        "suits a cover still needs the same suit and a higher rank, while either of them beats "
        "every non-trump."),
    options={"deck.size": 52, "deck.jokers": 2, "specials.joker": "double"},
    applies_to=BASES,
    references="VARIANTS #25, §3.3; S0:101-103",
))

register(Variant(
    id="double_joker_color_only", number=81, family="durak", kind="modifier",
    names=("Double joker, jokers never trump", "colour-bound jokers"),
    summary="House rule: double joker in which neither joker is ever a trump; each beats only "
            "the cards of its own colour.",
    description=(
        "The same 54 cards, but neither joker is ever the strongest card. Each joker covers any "
        "card of its own colour, trump or not, and no card of the other colour. A joker falls "
        "to a trump of the other colour, so when the trump suit has the joker's colour nothing "
        "can beat that joker. A joker turned up as the trump card is slid back into the stock "
        "and the next card is turned."),
    options={"deck.size": 52, "deck.jokers": 2, "specials.joker": "double_color_only",
             "trump.reject_indicator": ("joker",)},
    applies_to=BASES,
    references="VARIANTS #81, §3.3; S0:103",
))

register(Variant(
    id="single_joker", number=26, family="durak", kind="modifier",
    names=("Fool with one joker", "Дурак с джокером", "С джокером", "Джокер", "one joker"),
    summary="House rule: 53 cards with one joker that can cover any card; a joker that is led "
            "cannot be beaten.",
    description=(
        "One joker is added to the 52-card pack. The defender may cover any card with it, a "
        "trump or, in Japanese fool, a spade included. A joker used to attack cannot be covered "
        "by anything, so the defender has to take it. Tables where any card may cover a led "
        "joker add specials.joker_beaten_by_any=true."),
    options={"deck.size": 52, "deck.jokers": 1, "specials.joker": "single"},
    applies_to=JAPANESE_BASES,
    references="VARIANTS #26, §3.3; S0:106",
))

register(Variant(
    id="novosibirsk_two_joker", number=27, family="durak", kind="modifier",
    names=("Two-joker Novosibirsk", "Новосибирский двухджокерный", "novosibirsk"),
    summary="House rule: 54 cards with two jokers that beat only aces and fall to anything but "
            "an ace; a joker turned up as trump means no trumps.",
    description=(
        "Two jokers join the 52-card pack to even out the endgame against whoever holds the "
        "trump ace. A joker covers any ace, the trump ace too, and nothing else. Any card but an "
        "ace or the other joker covers a joker. If a joker is turned up as the trump card the "
        "deal has no trumps; both jokers then cover any card, and are still beaten by anything "
        "except an ace or the other joker. The turned-up joker stays under the stock and is "
        "drawn last like any trump card."),
    options={"deck.size": 52, "deck.jokers": 2, "specials.joker": "novosibirsk"},
    applies_to=BASES,
    references="VARIANTS #27, §3.3; S0:108-110",
))

register(Variant(
    id="wild_58", number=28, family="durak", kind="modifier",
    names=("Wild fool", "Дикий дурак", "Дикий", "two jokers and four wild cards", "58 cards"),
    summary="House rule: 58 cards with two jokers and four wild cards that cover anything and "
            "are covered by anything; covering with one shuts off the throw-ins.",
    description=(
        "The 52-card pack gets two jokers and four wild cards (W1 to W4). A joker or wild card "
        "covers any card, and any card covers a joker or wild card that was led or thrown in. "
        "As soon as the defender covers with a joker or a wild card, the bout is closed to "
        "throw-ins: nobody may add another card. The defender still has to cover whatever lies "
        "uncovered, or take it, and the bout then ends as usual."),
    options={"deck.size": 52, "deck.jokers": 2, "deck.wild": 4, "specials.joker": "any",
             "specials.cover_ends_throw_in": True},
    applies_to=BASES,
    references="VARIANTS #28, §3.3; S0:113",
))

register(Variant(
    id="estonian", number=29, family="durak",
    names=("Estonian fool", "Эстонский дурак", "Эстонский", "estonskiy"),
    summary="Transfer fool with 54 cards: transfers at any time that pass on only the transfer "
            "card, group plays, jokers beaten only by 2s and 3s, and deuces that take aces.",
    description=(
        "Perevodnoy with a pack from 2 to ace plus two jokers. The defender may transfer at any "
        "moment of the bout, with a card of the rank of the last card thrown at him; the next "
        "player has to beat only that transfer card, while the cards already on the table count "
        "as answered. Leading or throwing in, a player may put down two, three or four cards of "
        "one rank in a single move instead of one at a time; a transfer is still one card. A "
        "joker covers any card but a two or a three, and only a two or a three covers a joker. "
        "The two of a suit beats that suit's ace and a trump two beats any other ace; an ace "
        "still beats the two of its own suit. A joker turned up as trump is slid back into the "
        "stock and the next card is turned."),
    base="perevodnoy",
    options={"deck.size": 52, "deck.jokers": 2, "specials.joker": "estonian",
             "beats.deuce_beats_ace": True, "transfer.window": "any_time",
             "transfer.new_defender_beats": "transfer_cards_only", "throw_in.groups": True,
             "trump.reject_indicator": ("joker",)},
    references="VARIANTS #29, §3.3, §5.1; S0:119",
))

register(Variant(
    id="capital", number=30, family="durak",
    names=("Capital fool", "Столичный дурак", "Столичный", "stolichniy", "mega card fool"),
    summary="Estonian fool plus a mega card (55 cards) that beats every card except the fours.",
    description=(
        "Estonian fool with one extra card, the mega card (also called superjoker, prime "
        "minister or green joker). It covers any card, the jokers included, except a four, and "
        "only a four covers it; where the joker and the mega card would each beat the other, "
        "the mega card wins. Having no colour, it can never be the trump card: if turned up it "
        "is slid back into the stock. The seed allows the mega card in other games too: add "
        "deck.mega=true to any game played with 52 cards."),
    base="estonian",
    options={"deck.mega": True, "trump.reject_indicator": ("joker", "mega")},
    references="VARIANTS #30, §3.3, §5.1; S0:122",
))
