"""Variants II: leads, the simple family and transfers (#2-6, #9-12, #46, #47, #52).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`.
"""

from __future__ import annotations

from bito.rules.registry import Variant, register

#: The bases a lead or take modifier stacks on (§3.5 applies_to).
_BASES = ("simple", "podkidnoy", "perevodnoy")

register(Variant(
    id="simple_classic_5card", number=2, family="durak",
    names=("Rozaliev's simple fool", "Simple fool 1.a", "Простой дурак (Розалиев)",
           "simple classic"),
    summary="Rozaliev's simple fool: five cards each; lead a single card, a pair, or a pair "
            "plus any card; the player on the dealer's left leads.",
    description=(
        "Two to five players, 36 cards, five cards each and refills to five. The player on the "
        "dealer's left attacks first in every deal. A lead is one card, two cards of one rank, "
        "or such a pair with one more card of any rank, and never more cards than the defender "
        "holds. Nothing can be thrown in: the defender covers every card or takes them all and "
        "loses his turn. The first player out of cards once the stock is gone is safe; with "
        "more than two players the game goes on until only the fool holds cards."),
    base="simple",
    options={"players.max": 5, "deal.hand_size": 5, "lead.shape": "rozaliev", "lead.max": 5,
             "first_attacker.rule": "left_of_dealer", "next_game_leader": "left_of_dealer"},
    references="VARIANTS #2, §3.1; S1:52-54",
))

register(Variant(
    id="simple_partial_defense", number=3, family="durak",
    names=("Simple fool 1.b", "partial defence", "partial defense"),
    summary="Rozaliev's simple fool where the defender may beat some of the cards and take "
            "only the rest; the beaten pairs are discarded.",
    description=(
        "As Rozaliev's simple fool, but a defender need not cover everything or nothing: he "
        "may cover any of the attack cards and then take. The pairs he covered go to the "
        "discard pile; he picks up only the cards left uncovered, and, having failed to beat "
        "at least one card, loses his turn to attack."),
    base="simple_classic_5card",
    options={"defense.partial": True},
    references="VARIANTS #3, §3.1; S1:56",
))

register(Variant(
    id="with_pairs", number=4, family="durak",
    names=("With pairs", "With couples", "С парами", "Simple fool 1.c"),
    summary="Five cards each; a lead is one card, a pair plus any card, or two pairs plus any "
            "card, and nothing else.",
    description=(
        "As Rozaliev's simple fool (five cards, no throw-ins), but only three leads are "
        "allowed: a single card; two cards of one rank with any third card; or two pairs of "
        "different ranks with any fifth card. A bare pair is not a lead. The extra card may "
        "share a pair's rank. Any card may be used to cover."),
    base="simple_classic_5card",
    options={"lead.shape": "patterns",
             "lead.patterns": ("single", "pair_plus_one", "two_pairs_plus_one")},
    references="VARIANTS #4, §3.1; S0:155-159; S1:58",
))

register(Variant(
    id="pairs_only", number=5, family="durak",
    names=("Pairs only", "Simple fool 1.d", "only pairs"),
    summary="Five cards each; the only lead is a pair. A player without one passes the attack "
            "to the next player.",
    description=(
        "As Rozaliev's simple fool, but every lead is exactly two cards of one rank. An "
        "attacker who cannot lead a pair (or whose defender holds a single card) says pass, "
        "and the first player clockwise who can lead a pair attacks his own left neighbour. If "
        "nobody at the table can, everyone draws one card from the stock, the attacker first, "
        "and he tries again; once the stock is empty a single card may be led instead."),
    base="simple_classic_5card",
    options={"lead.shape": "patterns", "lead.patterns": ("pair",),
             "lead.pass_if_no_legal": True},
    references="VARIANTS #5, §3.1; S1:60",
))

register(Variant(
    id="from_groups", number=6, family="durak",
    names=("From groups", "With groups", "С группами"),
    summary="With pairs, and three or four of a kind may be led too: three alone, four alone "
            "or with one more card.",
    description=(
        "As with pairs (a single, a pair plus any card, two pairs plus any card), and also "
        "three cards of one rank on their own, or four cards of one rank, alone or with any "
        "fifth card. Nothing may be added to three of a kind. The alternatives of the seed "
        "text are options: lead.patterns without quads_plus_one, or with pair for a bare pair."),
    base="with_pairs",
    options={"lead.patterns": ("single", "pair_plus_one", "two_pairs_plus_one", "trips",
                               "quads", "quads_plus_one")},
    references="VARIANTS #6, §3.1; S0:161-163",
))

register(Variant(
    id="perevodnoy_refusal", number=9, family="durak",
    names=("Transfer with refusal", "Переводной с отказом", "perevodnoy 3.b", "refusal"),
    summary="Transfer fool where, in the last duel, a defender may transfer back to an "
            "attacker who has just gone out; holding nothing, he must take.",
    description=(
        "As transfer fool. When only two players are left and the attacker leads his last "
        "cards, he would be out and the defender the fool. Here the defender may still "
        "refuse: he transfers with a card of the same rank as usual, and the attack goes back "
        "to the player who just went out, although he holds no cards. That player cannot "
        "cover anything, so he takes the table, and the game goes on."),
    base="perevodnoy",
    options={"transfer.refusal": True},
    references="VARIANTS #9, §3.1; S1:74; S4:5-6",
))

register(Variant(
    id="transfer_2", number=10, family="durak",
    names=("Transfer 2", "Translated 2", "Transferable 2", "Переводной-2", "perevodnoy 2"),
    summary="Transfer fool where a transfer is allowed at any time, with a card of the rank "
            "of the last uncovered card thrown in.",
    description=(
        "As transfer fool, but the defender may transfer even after he has covered cards or "
        "others have thrown in: the transfer card must match the rank of the last card thrown "
        "that is still uncovered. Everything on the table moves on; the covered pairs stay "
        "there and need no new cover, and the new defender must beat the open cards and the "
        "transfer card, or take the whole table. With transfer.match=all_uncovered every open "
        "card must share the transfer card's rank."),
    base="perevodnoy",
    options={"transfer.window": "any_time"},
    references="VARIANTS #10, §3.1; S0:38-40, 225, 259",
))

register(Variant(
    id="transfer_3", number=11, family="durak",
    names=("Transfer 3", "Translated 3", "Переводной-3", "perevodnoy 3"),
    summary="Transfer fool where the new defender has to beat only the transfer card; the "
            "cards it was laid on count as beaten.",
    description=(
        "As transfer fool, but after a transfer the new defender faces only the card used to "
        "transfer. The attack cards it was laid on are neutralised: they need no cover, stay "
        "on the table and go with the bout, to the discard or to a taker. With "
        "transfer.neutralised=discard they are discarded at once."),
    base="perevodnoy",
    options={"transfer.new_defender_beats": "transfer_cards_only"},
    references="VARIANTS #11, §3.1; S0:42-44",
))

register(Variant(
    id="transfer_no_throw", number=12, family="durak",
    names=("Transfer without throw-in", "transfer no throw", "Переводной без подкидывания"),
    summary="Transfer fool with no throw-ins, where a lead must hold every card of its rank "
            "in the attacker's hand.",
    description=(
        "Transfers as in transfer fool, but nobody may throw in. An attacker who leads a rank "
        "must lead all his cards of that rank at once, as far as the defender's hand and the "
        "cap allow. A transfer is still one card (transfer.must_include_all_of_rank=true makes "
        "it the whole rank too)."),
    base="perevodnoy",
    options={"throw_in.enabled": False, "lead.must_include_all_of_rank": True},
    references="VARIANTS #12, §3.1; S0:144",
))

register(Variant(
    id="lead_strongest", number=46, family="durak", kind="modifier",
    names=("Lead the strongest", "strongest lead"),
    summary="House rule: a bout may be opened only with your strongest card.",
    description=(
        "The lead must include the attacker's strongest card: any trump beats any plain card, "
        "and otherwise the higher rank is stronger; plain cards of one rank are equally "
        "strong, so he picks among them. Where the game allows several cards in a lead, the "
        "others may join it. Throw-ins and covers are free."),
    options={"lead.strongest_only": True}, applies_to=_BASES,
    references="VARIANTS #46, §3.5; S0:50",
))

register(Variant(
    id="treshka", number=47, family="durak", kind="modifier",
    names=("Treshka", "Трёшка", "three-card lead"),
    summary="House rule: every lead is three cards of any ranks (fewer only when the attacker "
            "or the defender has fewer).",
    description=(
        "Every bout opens with exactly three cards, whatever their ranks; a player with two "
        "cards leads two, with one card one, and never more than the defender holds. "
        "Throw-ins follow the game's usual rules; a transfer needs the three to share a rank. "
        "treshka=three_of_a_rank asks for three of a kind instead (a player without one "
        "leads a single card, or with lead.pass_if_no_legal=true passes the attack on)."),
    options={"lead.shape": "patterns"}, applies_to=(*_BASES, "japanese"),
    parameter="lead.patterns", parameter_default="three_any",
    references="VARIANTS #47, §3.5; S0:62",
))

register(Variant(
    id="no_skip_after_take", number=52, family="durak", kind="modifier",
    names=("No skip after take", "taker keeps his turn"),
    summary="House rule: a defender who takes does not lose his turn; he attacks next.",
    description=(
        "After taking the cards, the defender attacks the player on his left as if he had "
        "beaten them off."),
    options={"take.skip": False}, applies_to=(*_BASES, "japanese"),
    references="VARIANTS #52, §3.5; S0:128",
))
