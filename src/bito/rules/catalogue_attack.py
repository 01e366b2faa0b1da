"""Variants II: second tries, stock leads, poker swaps and post-take attacks (#39-45, #48-51, #83).

Catalogue entries, as data, like :mod:`bito.rules.catalogue`. Each rule is a modifier that
stacks on the base games it names. The seeds' stated combinations (#41, #43-45) are built
here from the modifiers they combine (:func:`_combine`), so they can never drift apart from
their parts.
"""

from __future__ import annotations

from typing import Any

from bito.rules.registry import Variant, lookup, register

BASES = ("simple", "podkidnoy", "perevodnoy")
#: Rules that act on throw-ins need a base that has them.
THROW_BASES = ("podkidnoy", "perevodnoy")

register(Variant(
    id="second_try", number=39, family="durak", kind="modifier",
    names=("Second try", "Вторая попытка", "Fool - second attempt", "second attempt"),
    summary="A defender who cannot beat a card may first draw the top card of the stock and "
            "try again with it.",
    description=(
        "When the defender is stuck on an uncovered card that nothing in his hand beats, he "
        "may say 'try' and draw the top card of the stock into his hand, then go on "
        "defending: if the new card beats, he may cover with it; if not, he takes as usual. He "
        "may also take at once without trying. One try per card he is stuck on "
        "(defense.second_try=per_bout: one per bout). No try once the stock is empty; the "
        "turned-up trump card, as the last card, may be drawn. The drawn card stays in his "
        "hand whatever happens, and the caps count it."),
    options={"defense.second_try": "per_card"}, applies_to=BASES,
    parameter="defense.second_try", parameter_default="per_card",
    references="VARIANTS #39, §3.5; S0:27-29",
))

register(Variant(
    id="armenian", number=40, family="durak", kind="modifier",
    names=("Armenian fool", "Армянский дурак", "Армянский", "armyanskiy"),
    summary="The attacker may open a bout with the top card of the stock, turned up as he "
            "plays it, instead of a card from his hand; once per bout.",
    description=(
        "Instead of leading from his hand, the attacker may say 'stock': the top card of the "
        "stock is turned face up and is the attack card, so his hand does not shrink (and he "
        "draws less later). He plays it blind. The last card of the stock, the turned-up "
        "trump card, may be led this way too. Only the opening lead may come from the stock "
        "(lead.stock_top_throw_in=true lets throw-ins come from it as well). The defender "
        "covers it, transfers it or takes it like any other card."),
    options={"lead.stock_top": "once"}, applies_to=BASES,
    references="VARIANTS #40, §3.5; S0:32",
))

register(Variant(
    id="armenian_unlimited", number=83, family="durak", kind="modifier",
    names=("Armenian fool, unlimited", "Armenian to infinity"),
    summary="Armenian fool where, by agreement, the top of the stock may be played any number "
            "of times in a bout, throw-ins included.",
    description=(
        "As Armenian fool, but the stock may be used again and again: for the lead and for "
        "every throw-in. A card turned from the stock as a throw-in must match a rank on the "
        "table; if it does not, it goes back on top of the stock, now seen by everyone, and "
        "the thrower may still throw from his hand or pass. While that seen card matches "
        "nothing on the table nobody may turn it again. Whoever draws it later holds it "
        "openly."),
    options={"lead.stock_top": "unlimited", "lead.stock_top_throw_in": True},
    applies_to=THROW_BASES,
    references="VARIANTS #83, §3.5; S0:32",
))

register(Variant(
    id="poker", number=42, family="durak", kind="modifier",
    names=("Poker fool", "Покерный дурак", "Покерный", "pokerniy"),
    summary="Before covering his first card, the defender may swap two cards of his hand for "
            "the top two cards of the stock.",
    description=(
        "Once per bout, before he covers anything, the defender may give two cards of his "
        "hand back to the stock and take its top two face-down cards instead ('$7c+8d'). The "
        "returned cards are shuffled into the face-down part of the stock (the trump card "
        "stays at the bottom); defense.exchange_return=to_bottom puts them just above it. "
        "Exactly two for two (defense.exchange_mode=up_to allows one or two). The swap needs "
        "two face-down cards in the stock: the trump card is never taken. Attackers never "
        "swap. After a transfer the new defender may make his own swap."),
    options={"defense.exchange": 2}, applies_to=BASES,
    references="VARIANTS #42, §3.5; S0:65",
))

register(Variant(
    id="self_throw", number=48, family="durak", kind="modifier",
    names=("Self-throw", "throw to yourself", "the defender throws to himself"),
    summary="When the attackers stop throwing, the defender may throw in to himself and beat "
            "the card at once.",
    description=(
        "When everything is covered and every thrower has passed, the defender is asked too: "
        "he may lay a card of a rank on the table and cover it straight away with another "
        "card of his own ('6h<Th'), both going to the discard with the bout, and may repeat "
        "that. Self-thrown cards count toward the six-card cap. After each such pair the "
        "throwers are asked again, since new ranks may have come onto the table. When he "
        "passes, the bout is bito."),
    options={"defense.self_throw": True}, applies_to=THROW_BASES,
    references="VARIANTS #48, §3.5; S0:116",
))

register(Variant(
    id="counter_throw", number=49, family="durak", kind="modifier",
    names=("Counter-throw", "Встречный", "counter-attack with the covering rank"),
    summary="A defender who covers a card may add more cards of his cover's rank, which the "
            "player of the covered card must then beat.",
    description=(
        "When the defender covers a card, he may at the same time lay more cards of the rank "
        "of his covering card ('Th>9c+Ts': the ten of hearts covers the nine of clubs and the "
        "ten of spades goes with it). The covered card counts as beaten. The player who laid "
        "it must now beat the covering card and every added card, or take them together with "
        "whatever he covered them with; either way the original bout then goes on, and a "
        "covered counter-attack is discarded at once. A counter-attack cannot itself be "
        "countered, nobody throws in on it, and its cards open no ranks for throw-ins. The "
        "defender may add at most one card fewer than that player holds, and must keep a card "
        "for each card still uncovered in front of him."),
    options={"defense.counter": True}, applies_to=BASES,
    references="VARIANTS #49, §3.5; S0:191",
))

register(Variant(
    id="cunning", number=50, family="durak", kind="modifier",
    names=("Cunning fool", "Хитрый дурак", "Хитрый", "hitriy"),
    summary="When the defender takes, a player whose card he could not beat may cover it "
            "himself, loading the taker with one more card.",
    description=(
        "Once the defender has said he takes, each thrower in turn may cover any of his own "
        "attack cards still uncovered with a card of his hand that beats it ('@Th>6h'), and "
        "throw in as usual, covering his own thrown cards too if he likes. The taker picks "
        "up everything. A card a player laid on his own card does not open its rank for "
        "throw-ins, unless that rank is already on the table. The cap counts attack cards "
        "only: at most six, and no more than the taker held when he took."),
    options={"throw_in.after_take_mode": "cunning"}, applies_to=THROW_BASES,
    references="VARIANTS #50, §3.5; S0:150",
))

register(Variant(
    id="impudent", number=51, family="durak", kind="modifier",
    names=("Impudent fool", "Наглый дурак", "Наглый", "nagliy"),
    summary="Cunning fool where every throw-in after the take must come already covered by "
            "its thrower.",
    description=(
        "As cunning fool: after the take players may cover their own uncovered cards. A "
        "throw-in, though, is only allowed as a pair: the thrower lays a card of a rank on "
        "the table and covers it himself at once ('6h<Th'); both go to the taker. With "
        "throw_in.impudent_mode=cover_own_first_then_throw a player may instead throw plain "
        "cards once none of his own cards lies uncovered."),
    options={"throw_in.after_take_mode": "impudent"}, applies_to=THROW_BASES,
    parameter="throw_in.impudent_mode", parameter_default="self_covered_pairs",
    references="VARIANTS #51, §3.5; S0:153",
))


def _combine(vid: str, number: int, names: tuple[str, ...], parts: tuple[str, ...],
             references: str) -> Variant:
    """A stated combination: the union of its modifiers' options, accepted on the bases all
    of them accept, described by its parts."""
    mods = [lookup(p) for p in parts]
    options: dict[str, Any] = {}
    for m in mods:
        for key, value in m.options.items():
            if options.get(key, value) != value:
                raise ValueError(f"{vid}: {m.id} and another part disagree on {key}")
            options[key] = value
    bases = tuple(b for b in mods[0].applies_to if all(b in m.applies_to for m in mods))
    words = " + ".join(parts)
    return register(Variant(
        id=vid, number=number, family="durak", kind="modifier", names=names,
        summary=f"{' and '.join(m.names[0] for m in mods)} together ({words}).",
        description=" ".join(f"{m.names[0]}: {m.summary}" for m in mods)
        + " The rules act at different moments (the stock lead when attacking, the swap "
          "before the first cover, the second try when stuck on a card), so they never "
          "clash; a defender may swap and later try again in the same bout.",
        options=options, applies_to=bases, references=references))


_combine("armenian_second_try", 41, ("Armenian - second attempt", "Армянский - вторая попытка"),
         ("armenian", "second_try"), "VARIANTS #41, §3.5; S0:34-36")
_combine("armenian_poker", 43, ("Armenian poker", "Армянский покер"), ("armenian", "poker"),
         "VARIANTS #43, §3.5; S0:67-69")
_combine("poker_second_try", 44, ("Poker - second attempt", "Покерный - вторая попытка"),
         ("poker", "second_try"), "VARIANTS #44, §3.5; S0:71-73")
_combine("armenian_poker_second_try", 45,
         ("Armenian poker - second try", "Армянский покер - вторая попытка"),
         ("armenian", "poker", "second_try"), "VARIANTS #45, §3.5; S0:75-77")
