"""Variants II: teams, dummies and hidden cards (#53-59).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`. The partnership games (#53-55)
share one mechanism, the ``team.*`` options played by :mod:`bito.games.durak.teams`.
"""

from __future__ import annotations

from bito.rules.registry import Variant, register

register(Variant(
    id="pair_fool", number=53, family="durak",
    names=("Pair fool", "Парный дурак", "parny durak", "pairs fool"),
    summary="Four players in two pairs, partners opposite: the attack always goes to an "
            "opponent, only the attacking pair throws in, and the fool's pair loses.",
    description=(
        "Throw-in fool for four players sitting as two pairs, partners opposite each other. "
        "Only the two players of the attacking pair throw in; the defender's partner never "
        "adds cards against him. When a player has gone out and the next player in play on "
        "the attacker's left is his partner, the partner is skipped and the next opponent is "
        "attacked. The game is scored per pair: the pair whose member is left holding cards "
        "loses, both partners together; if the last cards go out in the same bout it is a "
        "draw. (The catalogue's heading was lost; the name is a guess.)"),
    base="podkidnoy",
    options={"team.layout": "opposite", "players.min": 4, "players.max": 4},
    references="VARIANTS #53 (A1-A3); S0:194",
))

register(Variant(
    id="double_fool", number=54, family="durak",
    names=("Double fool", "Двойной дурак", "dvoynoy durak", "fool in pairs", "в парах"),
    summary="Four or six players in pairs, partners opposite: nobody attacks or throws in at "
            "a partner; both partners of the fool lose.",
    description=(
        "Throw-in fool for four or six players, partners sitting opposite each other (two or "
        "three pairs). An attack always goes to the next opponent in play on the attacker's "
        "left, partners being skipped, and only the defender's opponents throw in. A partner "
        "may never cover for a defending teammate. A pair wins when both its members are "
        "out; the pair of the player left with cards loses, both partners together. With "
        "three pairs the other two rank by when they finished. When one player of each of "
        "two pairs is left, the game goes on as plain throw-in fool; if everyone goes out in "
        "the last bout it is a draw."),
    base="podkidnoy",
    options={"team.layout": "opposite", "players.min": 4, "players.max": 6},
    references="VARIANTS #54 (A1); S0:265-269",
))

register(Variant(
    id="team_fool", number=55, family="durak",
    names=("Team fool", "Двое на двое", "Трое на трое", "two on two", "three on three",
           "dvoe na dvoe", "troe na troe"),
    summary="Two teams of two or three in alternating seats; when a player goes out his "
            "partner plays his seat from his own hand until the team is out.",
    description=(
        "Throw-in fool for four or six players in two teams, seated so that every player "
        "sits between two opponents. Only the defender's opponents throw in. When a player "
        "goes out his seat stays in the turn order: his partner (the nearest one still "
        "playing, going counter-clockwise) attacks and defends in that seat too, with his own "
        "hand. Example from the seed: players Z, S, V, Yu clockwise, Z and V against S and "
        "Yu; Yu goes out, so when Yu's turn to attack comes S attacks Z in his place, and if "
        "Z beats it off Z attacks S as usual. A team wins when all its members are out while "
        "the other team still holds cards; if the last bout empties both sides it is a draw."),
    base="podkidnoy",
    options={"team.layout": "alternating", "team.proxy": True, "players.min": 4,
             "players.max": 6},
    references="VARIANTS #55 (A1, A2); S1:65-67; S4:1",
))

register(Variant(
    id="believe_not_believe", number=59, family="durak",
    names=("Believe it or not (1)", "Веришь — не веришь (1)", "believe or not"),
    summary="Rozaliev's simple fool with the covers laid face down: the defender may bluff, "
            "and the attacker says believe or don't believe before they are turned.",
    description=(
        "Simple fool as Rozaliev deals it: 5 cards each, refilled to 5, leads of one card, a "
        "pair, or a pair and any one card, at most five and never more than the defender "
        "holds; the player on the dealer's left leads. The defender puts one of his cards "
        "face down on each attack card, any card he likes, or takes the attack openly. When "
        "everything is covered the attacker says 'I believe' or 'I don't believe' and the "
        "covers are turned. Believed and every cover beats its card: the cards are discarded. "
        "Believed but a cover is wrong: the attacker takes everything. Doubted and a cover is "
        "wrong: the defender takes everything. Doubted but every cover is right: the attacker "
        "takes everything. When the attacker takes, the defender attacks next."),
    base="simple_classic_5card",
    options={"defense.face_down": True},
    references="VARIANTS #59 (A1-A4), #2; S4:14-16; S1:52-54",
))

register(Variant(
    id="tossing_dummy", number=56, family="durak", kind="modifier",
    names=("With a tossing dummy", "С подкидным болваном", "s podkidnym bolvanom",
           "tossing blockhead", "tossing boob"),
    summary="House rule: a dummy hand is dealt too; the player who wins the lot attacks first "
            "and may throw in from the dummy as well as from his own hand.",
    description=(
        "Besides the players' hands one more hand is dealt, after the players', to a "
        "phantom player, the dummy. A lot chooses its controller, who also makes the first "
        "attack. Whenever it is the controller's turn to throw in he may throw in cards of "
        "the dummy's as well as his own, under the usual rules (ranks on the table, no more "
        "than the defender can cover); he never uses it while he defends. The dummy never "
        "attacks, defends, is attacked or loses; it refills after the players in every draw. "
        "Only the controller sees its cards (dummy.visible_to=all lays them face up)."),
    options={"dummy.mode": "tossing"}, applies_to=("podkidnoy", "perevodnoy"),
    references="VARIANTS #56 (A1-A4); S0:135-137",
))

register(Variant(
    id="playing_dummy", number=57, family="durak", kind="modifier",
    names=("With a playing dummy", "С играющим болваном", "s igrayushchim bolvanom",
           "playing blockhead", "playing dood"),
    summary="House rule: a dummy takes a seat at the table and plays a full part; the player "
            "who wins the lot makes all its moves, and the dummy can win or be the fool.",
    description=(
        "One seat at the table (by default the last, the one dealt to last) belongs to a "
        "phantom player, the dummy; the seat count includes it. A lot among the people "
        "chooses its controller, who also attacks first. The dummy is dealt and refills like "
        "anyone; when its turn comes the controller plays for it from its hand: he leads, "
        "throws in, covers or takes for it. Only he sees its cards (dummy.visible_to=all "
        "lays them face up). The dummy can go out and can be the fool; then no person loses "
        "that game and the controller deals the next. dummy.defends=false never attacks the "
        "dummy (it can still lose by keeping cards to the end); dummy.seat=k seats it at k."),
    options={"dummy.mode": "playing", "players.min": 3},
    applies_to=("podkidnoy", "perevodnoy"),
    references="VARIANTS #57 (A1-A3), #56; S0:139-141",
))

register(Variant(
    id="blind_face_out", number=58, family="durak", kind="modifier",
    names=("Blind fool (cards face out)", "Слепой дурак", "Indian fool", "blind fool",
           "cards face out"),
    summary="House rule: everyone holds his cards facing the others and never looks at them; "
            "you play a card by its place in your hand, and a wrong cover, transfer or "
            "throw-in makes you take every card of the bout.",
    description=(
        "Played by the rules of throw-in or transfer fool, but nobody looks at his own "
        "cards: they are held facing outward, so each player sees everyone's hand except his "
        "own, and cards drawn from the stock join the hand unseen. A player chooses a card "
        "by its place in his hand and it is checked when it is turned up. Any card may lead. "
        "A card that does not beat the card it covers, a transfer card of another rank, or a "
        "throw-in of a rank not on the table is an illegal play: the player who made it "
        "takes all the cards of the bout back into his hand (still facing out) and the bout "
        "ends; if he was not the defender, the defender has beaten the attack off. The "
        "player on the offender's left attacks next. (The catalogue's heading was lost; "
        "'blind' and 'Indian' fool are guesses.)"),
    options={"deal.owner_sees_hand": False}, applies_to=("podkidnoy", "perevodnoy"),
    references="VARIANTS #58 (A1-A5); S1:76; S4:7-8",
))
