"""Variants II: dealing, drawing, the stock, scoring and tournaments (#31-38, #61-64).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`. Every one of them but the
tournament is a house rule that stacks on the base games the seed names ("differs from the
simple, throw-in, transfer or Japanese fool only in that ..."); the engine side lives in
``bito.games.durak.stock`` and ``setup``, the tournament in ``bito.tournament``.
"""

from __future__ import annotations

from bito.rules.registry import Variant, register

BASES = ("simple", "podkidnoy", "perevodnoy")
WITH_JAPANESE = (*BASES, "japanese")

register(Variant(
    id="exchange", number=31, family="durak", kind="modifier",
    names=("Exchange fool", "Обменный дурак", "card exchange after each bout"),
    summary="House rule: after every bout, once hands are refilled, every player passes his "
            "whole hand to his left neighbour.",
    description=(
        "When a bout is over, by bito or by a take, and everyone has drawn, each player still "
        "in the game hands all his cards to the next player still in on his left: 1 to 2, 2 "
        "to 3, ..., the last to the first; with two players they swap hands. Players who are "
        "out are skipped. Cards everyone knew to be in a hand stay known in the hand they "
        "went to, and each player knows where the hand he passed on now is. The stated "
        "alternative (A1) is exchange=choose with exchange.cards=k (1 to 3, default 1): each "
        "player in turn, from the next attacker clockwise, chooses k cards of his hand (all of "
        "it if he holds fewer) without seeing anyone else's choice, and then every player "
        "passes his chosen cards left at once."),
    options={"exchange.mode": "whole_hand"}, applies_to=WITH_JAPANESE,
    parameter="exchange.mode", parameter_default="whole_hand",
    references="VARIANTS #31, §3.4; S0:18",
))

register(Variant(
    id="no_stock", number=32, family="durak", kind="modifier",
    names=("Fool without a stock", "no stock", "stock removed"),
    summary="House rule: after six cards each and the trump card turned, the rest of the pack "
            "is set aside unseen; nobody ever draws.",
    description=(
        "The deal and the trump are as in the base game: six cards each, the next card "
        "turned up and announced as trump. Then the stock, trump card included, goes out of "
        "play face down and stays there. There is no refilling, so a player whose hand is "
        "empty is out at once."),
    options={"deal.remove_stock": True}, applies_to=WITH_JAPANESE,
    references="VARIANTS #32, §3.4; S0:21",
))

register(Variant(
    id="piled_up", number=33, family="durak", kind="modifier",
    names=("Piled up", "Навалом", "whole deck dealt"),
    summary="House rule: the whole pack is dealt out; the last card dealt is shown and fixes "
            "the trump, and its receiver keeps it.",
    description=(
        "All the cards are dealt one at a time clockwise from the dealer's left; when they do "
        "not divide evenly the first players get one card more. The last card dealt is shown "
        "to everyone and its suit is trump; the player who received it keeps it. There is no "
        "stock, so a player is out as soon as his hand is empty. A bout still holds at most "
        "six attack cards."),
    options={"deal.whole_pack": True}, applies_to=BASES,
    references="VARIANTS #33, §3.4; S0:23-25 (trump by analogy with S0:243)",
))

register(Variant(
    id="draw_when_empty", number=34, family="durak", kind="modifier",
    names=("Draw when empty", "draw only with an empty hand"),
    summary="House rule: only a player with no cards at all draws after a bout, back up to "
            "six.",
    description=(
        "At the end of a bout players draw in the usual order, but a player who still holds "
        "any card draws nothing. A player whose hand is empty draws up to six. A hand that "
        "empties in the middle of a bout waits for the draw at its end."),
    options={"draw.when": "hand_empty"}, applies_to=WITH_JAPANESE,
    references="VARIANTS #34, §3.4; S0:47",
))

register(Variant(
    id="gradual_access", number=35, family="durak", kind="modifier",
    names=("Gradual access", "cards become available one per bito"),
    summary="House rule: of the six cards dealt only one may be played at first; one more "
            "turns up after every bito, and all of them once the stock is empty.",
    description=(
        "Each player keeps the first card dealt to him in hand and lays the other five face "
        "down in front of him: nobody, himself included, may look at them. After every bito "
        "each player turns one of his face-down cards up into his hand, at random. Cards "
        "picked up from the table in a take are usable at once. A player whose hand and "
        "face-down cards are all gone draws six again, one usable and five face down. When "
        "the stock runs out every face-down card joins its owner's hand. The caps on a bout "
        "count only the defender's usable cards, and a player left with face-down cards only "
        "turns one up at the end of the bout."),
    options={"deal.access": "gradual", "draw.when": "hand_empty"}, applies_to=WITH_JAPANESE,
    references="VARIANTS #35, §3.4; S0:86",
))

register(Variant(
    id="arithmetic_progression", number=36, family="durak", kind="modifier",
    names=("With arithmetic progression", "С арифметической прогрессией",
           "arithmetic progression"),
    summary="House rule: one card each at the deal; hands refill to 2 after the first bout, "
            "to 3 after the second, and so on until the stock runs out.",
    description=(
        "Each player is dealt a single card. After the k-th bout everyone refills, in the usual "
        "order, up to k + 1 cards, without a cap (draw.target_cap=6 stops the growth at six). "
        "A bout still holds at most six attack cards and never more than the defender holds."),
    options={"deal.hand_size": 1, "draw.progressive": True, "players.max": 6},
    applies_to=BASES,
    references="VARIANTS #36, §3.4; S0:182-184",
))

register(Variant(
    id="buy_in", number=37, family="durak", kind="modifier",
    names=("With the purchase", "С прикупом", "prikup", "buy-in"),
    summary="House rule: each player is first dealt a few cards face down; when the stock is "
            "gone and his hand is empty he picks them up once and plays on.",
    description=(
        "Before the hands, every player is dealt a face-down reserve, three cards by default "
        "(deal.reserve), fewer when the pack is short: players x (6 + reserve) + 1 must fit "
        "it. Nobody looks at a reserve, its owner included. When the stock is empty and a "
        "player has played his last card, he takes his reserve into his hand instead of "
        "going out; only a player with neither hand nor reserve is out. A drawn last bout is "
        "judged after the reserves are taken."),
    options={"deal.reserve": 3}, applies_to=BASES,
    parameter="deal.reserve", parameter_default=3,
    references="VARIANTS #37, §3.4; S0:186-188",
))

register(Variant(
    id="recycle_discard", number=38, family="durak", kind="modifier",
    names=("Recycled discard", "Бесконечный дурак", "every second bito back into the stock"),
    summary="House rule: every second bito is shuffled back into the stock instead of going "
            "to the discard pile.",
    description=(
        "The first, third, fifth ... successful defences go to the discard pile as usual; the "
        "second, fourth, sixth ... are shuffled into the face-down part of the stock, the "
        "face-up trump card staying at the bottom. If the stock is already empty those cards "
        "become a new stock with nothing face up; the trump suit stays."),
    options={"discard.recycle_every": 2}, applies_to=BASES,
    references="VARIANTS #38, §3.4; S0:177",
))

register(Variant(
    id="points_fool", number=61, family="durak", kind="modifier",
    names=("Points fool", "Spectacled fool", "Очковый дурак", "ochkovy"),
    summary="House rule: every player counts the attack cards he beat off; the most wins. "
            "The fool is still the fool.",
    description=(
        "Whenever a bout ends in bito, its defender scores one point per attack card he "
        "covered. Cards covered in a bout he ended up taking score nothing. At the end the "
        "players with the most points share the win; the last player holding cards is the "
        "fool as usual. score.points=discarded counts every card of his successful bouts "
        "instead."),
    options={"score.points": "covered"}, applies_to=WITH_JAPANESE,
    parameter="score.points", parameter_default="covered",
    references="VARIANTS #61, §3.8; S0:80",
))

register(Variant(
    id="figure_count", number=62, family="durak", kind="modifier",
    names=("Figure count", "Фигурный дурак", "figure-card tally"),
    summary="House rule: every player tallies the figure cards (10, J, Q, K, A) he beat off "
            "in successful defences.",
    description=(
        "Tens, jacks, queens, kings and aces are figures. When a bout ends in bito its "
        "defender adds the figure attack cards he covered to his tally; figures covered in a "
        "bout he then had to take do not count. The tally is reported with the outcome as a "
        "second measure beside the fool; over a match the highest total wins."),
    options={"score.figures": True}, applies_to=("podkidnoy", "perevodnoy"),
    references="VARIANTS #62, §3.8; S0:166",
))

register(Variant(
    id="epaulettes", number=63, family="durak", kind="modifier",
    names=("Epaulettes", "Погоны", "shoulder straps", "fool with epaulettes"),
    summary="House rule: a fool whose last attack was made with non-trump sixes only is a "
            "'fool with epaulettes' (one six, one epaulette; two, both).",
    description=(
        "When the game ends the last bout aimed at the fool is looked at: if every attack "
        "card in it was a non-trump six, he wears them on his shoulders, one epaulette for "
        "one six and full epaulettes for two or more. It changes nothing in play; the outcome "
        "carries the count."),
    options={"end.epaulettes": True}, applies_to=WITH_JAPANESE,
    references="VARIANTS #63, §3.8; S0:199; S1:63",
))

register(Variant(
    id="tournament", number=64, family="meta",
    names=("Tournament", "Турнир"),
    summary="An elimination event over many games: at every stage the players sit at tables, "
            "each table's fool is eliminated, until one player is left.",
    description=(
        "Not a game but a way of running many: `bito tournament` seats the entrants (bots) at "
        "tables of up to --table players, plays one deal of the chosen variant at every "
        "table, and eliminates each table's fool. A drawn table replays its deal, with a "
        "fresh seed, up to three times, and then eliminates nobody. Stages go on until one "
        "player is left; the standings list the winner first and the others in the reverse "
        "order of elimination."),
    options={},
    references="VARIANTS #64, §3.8; S0:310",
))
