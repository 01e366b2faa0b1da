"""The registered games outside the Durak family (VARIANTS.md §2: #60, #85, #86-#95).

These games do not play with the Durak :class:`~bito.rules.options.Rules`: each family has its
own frozen rules object (``bito.games.shedding.rules``, ``bito.games.tricks.rules``,
``bito.games.social.rules``) built from the option values listed here in
:data:`GAME_OPTIONS`. The :class:`Variant` entries carry the names, summaries and the family,
so ``bito variants`` lists them with the rest and ``bito.games.new_game`` finds the engine.
"""

from __future__ import annotations

from typing import Any, Final

from bito.rules.registry import Variant, register

#: Option values of each game, by id, in the family's own option names (``shed.*``,
#: ``fool.*``, ``cheat.*``, ``animal.*``). Bases come first: an entry with ``base`` starts from
#: its base's values. ``engine`` picks the state machine inside the family.
GAME_OPTIONS: Final[dict[str, dict[str, Any]]] = {
    "czech_fool": {"engine": "maumau"},
    "czech_draw_one": {"base": "czech_fool", "shed.draw_rule": "one"},
    "czech_32card": {"base": "czech_fool", "shed.deck_size": 32,
                     "shed.draw_ranks": (7, 8), "shed.draw_counts": (2, 1)},
    "czech_jack_wild": {"base": "czech_fool", "shed.hand_size": 6, "shed.wild_rank": 11,
                        "shed.opening": "dealer_last_card", "shed.single_wild_points": 0,
                        "shed.stuck_wild_loses": True, "shed.players_max": 5},
    "english_fool": {"base": "czech_fool", "shed.ace_rule": "english"},
    "pharaoh": {"base": "czech_fool", "shed.hand_size": 4, "shed.single_wild_points": 30,
                "shed.wild_out_bonus": 30},
    "pentagon": {"base": "czech_fool", "shed.match_rule": "suit_only_six",
                 "shed.call_skips": True, "shed.points": "pentagon"},
    "crocodile": {"base": "czech_draw_one", "shed.king_hearts_draw": 5},
    "ontoys_adjacent_rank": {"engine": "adjacent"},
    "friese_fool": {"engine": "fool"},
    "animal_sounds": {"engine": "animal"},
    "believe_not_believe_2": {"engine": "cheat"},
}


def game_options(variant_id: str) -> dict[str, Any]:
    """The option values of a game, its bases' values included (``engine`` among them)."""
    own = dict(GAME_OPTIONS[variant_id])
    base = own.pop("base", None)
    merged = game_options(base) if base else {}
    merged.update(own)
    return merged


MAU_MAU: Final = "VARIANTS §3.12; S1:15-49"

register(Variant(
    id="czech_fool", number=86, family="shedding",
    names=("Czech fool", "Чешский дурак", "cheshskiy durak", "Russian Mau-Mau", "mau-mau"),
    summary="Russian Mau-Mau: play a card of the top card's suit or rank; 6, 7 and ace hit the "
            "next player, the queen is wild and names a suit; penalty points over rounds.",
    description=(
        "36 cards, 5 each, no trump. The first player (chosen by lot, later the previous "
        "round's winner) plays any card; then each player in turn puts a card of the same suit "
        "or the same rank on the top card. A queen goes on anything and its player names the "
        "suit the next player must follow (or play a queen). A player who cannot play draws "
        "until he can, and plays the card he drew. After a six the next player draws two and "
        "misses his turn, after a seven he draws one and misses it, after an ace he misses "
        "it. When the stock runs out the pile under the top card is turned over as the new "
        "stock. The first to empty his hand wins the round; the others score penalty points "
        "for their cards (J 2, Q 3, K 4, A 11, others their value; a lone queen 20). A match "
        "is shed.rounds rounds; the highest total is the fool."),
    references=MAU_MAU,
))

register(Variant(
    id="czech_draw_one", number=87, family="shedding",
    names=("Czech fool, option 1", "czech option 1"),
    summary="Czech fool where a player who cannot play draws one card only, plays it if he "
            "can, and otherwise passes.",
    description="As czech_fool, but a player who cannot play draws a single card; if it fits "
                "he may play it, otherwise his turn is over.",
    references="VARIANTS #87; S1:33",
))

register(Variant(
    id="czech_32card", number=88, family="shedding",
    names=("Czech fool, option 2", "czech 32"),
    summary="Czech fool with 32 cards: the seven makes the next player draw two, the eight one.",
    description="As czech_fool with a 32-card pack (7 to ace): a seven makes the next player "
                "draw two cards and miss his turn, an eight one card; ace and queen as before.",
    references="VARIANTS #88; S1:35",
))

register(Variant(
    id="czech_jack_wild", number=89, family="shedding",
    names=("Czech fool, option 3", "czech jack"),
    summary="Czech fool with 6-card hands, the dealer's last card as the opening play, and the "
            "jack wild; a player stuck with a lone jack loses the round.",
    description=(
        "As czech_fool, but six cards each; the dealer's own last card is turned up and is his "
        "opening play. The jack, not the queen, goes on anything and names a suit. A player "
        "left holding just a jack when the round ends is its loser whatever the points (he "
        "scores the round's highest penalty plus one). Up to 5 players."),
    references="VARIANTS #89; S1:35-37",
))

register(Variant(
    id="english_fool", number=90, family="shedding",
    names=("English fool", "Английский дурак", "angliyskiy durak"),
    summary="Czech fool where the ace's player adds a card of the ace's suit and names the "
            "next suit; without one he draws a card, and without that he loses the call.",
    description=(
        "As czech_fool, but a player who plays an ace must add a card of the ace's suit and "
        "name a different suit for the next player. If he has none he draws one card; if that "
        "does not fit either his turn ends without a call, and the next player who covers the "
        "ace with a card of its suit names the suit instead. The ace no longer skips anyone."),
    references="VARIANTS #90; S1:37-39",
))

register(Variant(
    id="pharaoh", number=91, family="shedding",
    names=("Pharaoh", "Фараон", "faraon"),
    summary="Czech fool with 4-card hands: going out on a queen takes 30 off your total, being "
            "left with a lone queen costs 30.",
    description="As czech_fool, with four cards each. A player who goes out with a queen "
                "subtracts 30 from his penalty total; a player left with just a queen scores 30 "
                "instead of 20.",
    references="VARIANTS #91; S1:41-43",
))

register(Variant(
    id="pentagon", number=92, family="shedding",
    names=("Pentagon", "Пентагон"),
    summary="Czech fool matching by suit only (rank only six on six); a queen's call also makes "
            "the next player miss his turn; its own point table.",
    description="As czech_fool, but a card must follow the top card's suit; the only rank match "
                "allowed is a six on a six. After a queen's suit call the next player misses "
                "his turn and the one after him follows the called suit. Points: A 11, K 4, "
                "Q 20, J 2, 10 10, other cards nothing.",
    references="VARIANTS #92; S1:43-47",
))

register(Variant(
    id="crocodile", number=93, family="shedding",
    names=("Crocodile", "Крокодил", "krokodil"),
    summary="Option 1 (draw one card) plus the king of hearts: the next player draws five and "
            "misses his turn.",
    description="As czech_draw_one, and the king of hearts makes the next player draw five "
                "cards and miss his turn.",
    references="VARIANTS #93; S1:49",
))

register(Variant(
    id="ontoys_adjacent_rank", number=94, family="shedding",
    names=("Adjacent-rank shedding game", "OnToys shedding game", "ontoys"),
    summary="Shed onto a pile a rank up or down (any suit), else the same rank, else an ace or "
            "king, else a joker; keep playing while you can; going out must survive one reply.",
    description=(
        "52 cards and 2 jokers (two packs for 5-10 players), 5 each, a card turned up to start "
        "the pile; the player left of the dealer begins. On your turn you keep putting cards "
        "down while you can, each time taking the first possible step: a card one rank above "
        "or below the top card (king and ace are neighbours), else a card of the same rank, "
        "else an ace or a king, else a joker; anything goes on a joker. When stuck you draw a "
        "card, play on if it fits, and otherwise the turn passes. A player who plays his last "
        "card is out only if the next player then has to draw; if that player can play, the "
        "one who went out draws two cards and is back in. With the stock empty, going out is "
        "final. If nobody can play once the stock is gone, 'Anti-Rank' lets the player to move "
        "put down any card. The last player holding cards is the fool."),
    references="VARIANTS §3.13; S3:13-36",
))

register(Variant(
    id="friese_fool", number=95, family="tricks",
    names=("Fool!", "Friese's Fool", "fool card game"),
    summary="Friedemann Friese's trick game with 88 cards: follow colour, the worst card of a "
            "trick is the Fool and sits out the next trick; play to -80 or six +10 rounds.",
    description=(
        "Four colours (green 26, red 22, yellow 20, blue 14 cards) and six wild 1s; 4-8 "
        "players, 12 cards each (11 with 8). Follow the led colour if you can; a 1 may always "
        "be played and counts as the lowest card of the led colour. The highest card of the "
        "led colour wins the trick and leads the next. The worst card is the Fool: the lowest "
        "card of another colour if any was played, otherwise the lowest card; on equal numbers "
        "the later one. The Fool takes the Fool disc and sits out the next trick (with 7-8 "
        "players the two worst cards are Fools). A round ends after the trick in which someone "
        "plays his last card: emptying the hand scores +10 (0 if he is a Fool of that trick), "
        "everyone else loses the numbers in his hand and 5 per 1. The game ends when someone "
        "reaches -80 or has scored +10 six times; the highest score wins. The seed does not "
        "give the numbers on the cards: a colour of n cards is numbered 2 to n+1 here "
        "(fool.numbering)."),
    references="VARIANTS §3.14; S2",
))

register(Variant(
    id="animal_sounds", number=60, family="social",
    names=("Animal sounds", "comic fool", "zoo fool"),
    summary="The whole pack is dealt; play ranks in order 6, 7, ... A, 6 (any suit); a player "
            "who cannot makes his animal's sound, and takes the pile if nobody laughs.",
    description=(
        "36 cards dealt out; the holder of a six nearest the dealer's left starts with it. "
        "Each player in turn puts down the next rank of the cycle 6-7-8-9-10-J-Q-K-A-6 in any "
        "suit. A player without it makes his nickname animal's sound (action 'sound'); the "
        "others then each 'laugh' or 'pass'. If nobody laughed he takes the pile of played "
        "cards into his hand and the next player starts a new sequence. The first to empty "
        "his hand wins; the last holding cards is the fool."),
    references="VARIANTS #60, §3.7; S0:169-171",
))

register(Variant(
    id="believe_not_believe_2", number=85, family="social",
    names=("Believe it or not (2)", "Веришь — не веришь (2)", "Cheat", "I doubt it",
           "veryish ne veryish"),
    summary="The bluffing discard game Cheat / 'I doubt it'. Put down 1-4 "
            "cards face down claiming the next rank; anyone may doubt; a liar or a wrong "
            "doubter takes the pile.",
    description=(
        "The seeds only name this game; these are the widely played rules of Cheat, chosen by "
        "bito. The pack (52 cards) is dealt out. Players claim ranks in order 2, 3, ... A, 2: "
        "on your turn you put 1-4 cards face down and say they are all of the rank due. Then "
        "each other player in turn may 'doubt' or 'pass'. On a doubt the cards are shown: if "
        "one is not of the claimed rank the player who put them takes the whole pile, "
        "otherwise the doubter does; the next claim restarts at the rank due. The first to "
        "empty his hand and survive the doubts wins; the last holding cards is the fool."),
    references="VARIANTS #85 (name only, S4:15); rules: bito's choice, not in the seeds",
))
