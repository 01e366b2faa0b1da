"""An engine's refusal said the way a player would say it, in the page's language.

The engines refuse a move with a rule key and an English detail written for records and bug
reports ("beat relation: Jc does not beat 7d (trump s)"). A player at the table wants to hear
what is wrong and what to do instead, with cards named in words: "the jack of clubs does not
beat the seven of diamonds: play a higher diamond or a trump". The sentences are the web
catalogue's (``refuse.*`` in :mod:`bito.server.webtext`); the cards come from the refusal's
``facts`` (card codes), never from reading the notation back. A refusal this module has no
sentence for is said in the rule's general words, and never with the notation in it.
"""

from __future__ import annotations

import re

from bito import i18n
from bito.cards import (
    ACE,
    RANK_CHARS,
    SUIT_CHARS,
    is_joker,
    is_special,
    is_wild,
    rank_of,
    suit_of,
)
from bito.errors import BitoError, IllegalActionError, InvalidNotationError, Reason
from bito.games.durak.reasons import Refused, TransferBar
from bito.server import webtext

#: What a player must never read: cards in notation (``Jc``, ``10d``, ``RJ``), suit symbols,
#: the engine's trump note, paragraph citations, seat numbers, option keys.
NOTATION = re.compile(r"\b(?:10|[2-9TJQKA])[cdhs]'*(?![\w])|\b(?:RJ|BJ|W[1-4]|MC)\b|[♣♦♥♠]"
                      r"|\(trumps? |§|#\d|\bseat \d|\b[a-z_]+\.[a-z_]+\s*=|\(end\.")

#: The refusals said in one fixed sentence (no cards in it), by their typed reason: the key of
#: the player's sentence (``refuse.<key>``).
_FIXED: dict[Reason, str] = {
    # the transfer blocks (``DurakState.transfer_block``)
    TransferBar.NO_TRANSFERS: "transfer_none",
    TransferBar.NOTHING_OPEN: "transfer_nothing",
    TransferBar.WINDOW: "transfer_late",
    TransferBar.FIRST_BOUT: "transfer_first",
    TransferBar.UNDER_FOOL: "transfer_under_fool",
    TransferBar.TRUMP_ON_TABLE: "transfer_trump_on_table",
    TransferBar.NOBODY_LEFT: "transfer_nobody",
    TransferBar.NEXT_HAND: "transfer_limit",
    TransferBar.CAP: "transfer_limit",
    Refused.TRANSFER_NOT_NOW: "transfer_late",
    Refused.TRANSFER_NOT_HERE: "transfer_not_now",
    # taking and passing
    Refused.NOTHING_TO_TAKE: "nothing_to_take",
    Refused.TAKE_NOT_NOW: "take_not_now",
    Refused.LEAD_NO_PASS: "pass_lead",
    Refused.DEFENDER_PASS: "pass_defend",
    # covering and throwing in
    Refused.NOTHING_TO_COVER: "nothing_to_cover",
    Refused.DEFENDER_FIRST: "wait_defender",
    Refused.NO_THROW_IN: "no_throw_in",
    Refused.THROW_ONE: "one_at_a_time",
    Refused.THROW_OVER_HAND: "throw_full",
    Refused.THROW_BOUT_FULL: "bout_full",
    Refused.BOUT_LIMIT: "bout_full",
    Refused.LEAD_TOO_MANY: "lead_too_many",
    Refused.LEAD_OVER_HAND: "lead_too_many",
    Refused.GAME_OVER: "game_over",
}


def card_words(code: int, lang: str, *, as_object: bool = False) -> str:
    """A card in words ("jack of clubs", "валет треф"); ``as_object`` gives the form a
    sentence's object takes (Russian: "семёрку бубен", "валета треф")."""
    t = webtext.text
    if is_special(code):
        if is_joker(code):
            return t(lang, "card.RJ" if rank_of(code) == 1 else "card.BJ")
        if is_wild(code):
            return t(lang, "card.W", n=rank_of(code) - 2)
        return t(lang, "card.MC")
    rank = RANK_CHARS[rank_of(code) - 2]
    rank = "10" if rank == "T" else rank
    form = "said.rank_object" if as_object else "said.rank"
    return t(lang, "card.name", rank=t(lang, f"{form}.{rank}"),  # a twin reads the same
             suit=t(lang, f"suit.{SUIT_CHARS[suit_of(code)]}"))


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _beat(facts: dict[str, int | tuple[int, ...]], lang: str) -> str | None:
    card, target = _int(facts.get("card")), _int(facts.get("target"))
    if card is None or target is None:
        return None
    fields = {"card": card_words(card, lang), "target": card_words(target, lang,
                                                                   as_object=True)}
    trumps = facts.get("trumps", ())
    suits = trumps if isinstance(trumps, tuple) else ()
    if is_special(target) or is_special(card):
        return webtext.text(lang, "refuse.beat_plain", **fields)
    suit = suit_of(target)
    if suit in suits:
        return webtext.text(lang, "refuse.beat_trump", **fields)
    if suits and rank_of(target) == ACE:  # no higher card of its suit: a trump or nothing
        return webtext.text(lang, "refuse.beat_need_trump", **fields)
    fields["suit"] = webtext.text(lang, f"said.suit_one.{SUIT_CHARS[suit]}")
    key = "refuse.beat" if suits else "refuse.beat_no_trumps"
    return webtext.text(lang, key, **fields)


def _ranks_on_table(table: object, lang: str) -> str:
    """The ranks of the cards on the table, each once, low to high, as a player names them
    ("7, queen"); empty when the refusal does not say."""
    if not isinstance(table, tuple):
        return ""
    ranks = sorted({rank_of(c) for c in table if isinstance(c, int) and not is_special(c)})
    words = []
    for r in ranks:
        rank = RANK_CHARS[r - 2]
        words.append(webtext.text(lang, f"said.rank.{'10' if rank == 'T' else rank}"))
    return ", ".join(words)


def _by_reason(error: IllegalActionError, lang: str) -> str | None:
    """The sentence for a refusal whose typed reason (and facts) this module knows."""
    reason, facts = error.reason, error.facts
    card, target = _int(facts.get("card")), _int(facts.get("target"))
    if reason is Refused.BEAT:
        return _beat(facts, lang)
    if reason is Refused.NOT_IN_HAND:
        return (webtext.text(lang, "refuse.not_in_hand", card=card_words(card, lang))
                if card is not None else webtext.text(lang, "refuse.not_in_hand_plain"))
    if reason in (Refused.TARGET_COVERED, Refused.TARGET_GONE) and target is not None:
        key = "refuse.target_covered" if reason is Refused.TARGET_COVERED else \
            "refuse.target_gone"
        return webtext.text(lang, key, target=card_words(target, lang))
    if reason is Refused.THROW_RANK and card is not None:
        ranks = _ranks_on_table(facts.get("table"), lang)
        if ranks:
            return webtext.text(lang, "refuse.throw_rank_named", card=card_words(card, lang),
                                ranks=ranks)
        return webtext.text(lang, "refuse.throw_rank", card=card_words(card, lang))
    if reason is TransferBar.RANK:
        return webtext.text(lang, "refuse.transfer_mixed")
    if reason in (Refused.TRANSFER_SPECIAL, Refused.TRANSFER_RANK):
        if any(c is not None and is_special(c) for c in (card, target)):
            return webtext.text(lang, "refuse.transfer_special")
        return webtext.text(lang, "refuse.transfer_rank")
    fixed = _FIXED.get(reason) if reason is not None else None
    if fixed is not None:
        return webtext.text(lang, f"refuse.{fixed}")
    if isinstance(reason, TransferBar):  # the other bars on passing the attack on
        return webtext.text(lang, "refuse.transfer_not_now")
    return None


def refusal_words(error: IllegalActionError, lang: str) -> str:
    """``error`` in a player's words in ``lang``: the catalogue's sentence for a refusal this
    module knows; else the engine's own detail where it reads as plain words (translated by
    the terminal's catalogue); else the rule's general sentence; never the notation."""
    said = _by_reason(error, lang)
    if said is not None:
        return said
    from bito.tui_words import RULE_WORDS, engine_words

    saved = i18n.language()
    i18n.set_language(lang)
    try:
        detail = engine_words(error.detail)
        translated = lang == i18n.DEFAULT or not re.search(r"[a-z]{4,}", detail)
        if detail and translated and not NOTATION.search(detail):
            return detail
        general = error.reason.words if error.reason is not None else \
            RULE_WORDS.get(error.rule)
        if general:
            return i18n._(general)
    finally:
        i18n.set_language(saved)
    return webtext.text(lang, "refuse.not_possible")


_BOT = re.compile(r"^Bot (?P<name>\w+) \((?P<level>[\w ()]+)\)$")


def seat_words(name: str, lang: str) -> str:
    """A seat's name as the page says it: a bot's ("Bot Boris (strong)", made in English by
    ``rooms.bot_name``) in ``lang``; anyone else's as typed."""
    match = _BOT.match(name)
    if match is None:
        return name
    first, level = match["name"], match["level"]
    if f"botname.{first}" in webtext.TEXTS:
        first = webtext.text(lang, f"botname.{first}")
    if f"bot.{level}" in webtext.TEXTS:
        level = webtext.text(lang, f"bot.{level}")
    return webtext.text(lang, "bot.display", name=first, level=level)


#: The server's sentences a player reads at the table, said in the catalogue's words in English
#: too (the raised ones carry a seat number or the legal moves in notation).
PLAYER_WORDS = frozenset({"not_your_turn", "not_legal"})


def error_words(error: BaseException | str, lang: str) -> tuple[str, str]:
    """A refusal's stable code and its sentence in ``lang``. In English the sentence is the
    one raised, word for word (it may say more than the catalogue's pattern: the legal moves,
    a pointer under the bad character)."""
    message = str(error)
    english = lang == i18n.DEFAULT
    if isinstance(error, IllegalActionError):  # a player's words in every language
        return f"illegal.{error.rule}", refusal_words(error, lang)
    if isinstance(error, InvalidNotationError):
        pointer = message.partition("\n")[2]
        return "notation", message if english else \
            webtext.text(lang, "error.notation", text=error.text) + (
                "\n" + pointer if pointer else "")
    for code, pattern in webtext.ERRORS:
        match = pattern.match(message)
        if match:
            fields = match.groupdict()
            if code in PLAYER_WORDS:  # said anew in every language: no seat number, no
                # notation, bots' names said
                fields["who"] = seat_words(fields.get("who") or "", lang)
                return code, webtext.text(lang, f"error.{code}", **fields)
            return code, message if english else webtext.text(lang, f"error.{code}", **fields)
    if isinstance(error, BitoError) and not english:
        return "generic", _engine_words(error, lang)
    return "generic", message


def _engine_words(error: BaseException, lang: str) -> str:
    """An engine's refusal as the terminal says it in ``lang`` (the terminal's catalogue has
    a sentence for every rule an engine names). The language is switched and restored with
    no await between, so no other connection's words can interleave."""
    from bito.tui_words import refusal_words

    rule = getattr(error, "rule", "")
    detail = getattr(error, "detail", str(error))
    saved = i18n.language()
    i18n.set_language(lang)
    try:
        said = refusal_words(detail, rule)
    finally:
        i18n.set_language(saved)
    return said
