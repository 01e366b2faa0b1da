"""The terminal's words around the engines: commands and moves typed in Russian, and the
engines' own texts said in the language spoken.

The engines (``bito.games``) write their pictures and refusals in English and stay so (they
are data for tests, records and bug reports); the terminal translates them where it shows
them, phrase by phrase, from the message catalogue (:data:`ENGINE_PHRASES`). A phrase with
``{fields}`` is a pattern: ``round {n} of {total}`` matches ``round 2 of 5``, and its
translation is filled in with what matched. In English nothing is changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from bito.errors import BitoError, Reason
from bito.i18n import N_, Nn_, _, language, ngettext, variant_name

#: The names of the seats at a terminal table: the bots', the person's and the dummy's.
BOT_NAMES: tuple[str, ...] = (N_("Anna"), N_("Boris"), N_("Vera"), N_("Gleb"), N_("Dasha"),
                              N_("Egor"), N_("Zoya"), N_("Ivan"), N_("Kira"), N_("Lev"))
HUMAN_NAME = N_("You")
DUMMY_NAME = N_("Dummy")

#: Commands, in English and in Russian (both are always understood).
QUIT_WORDS = frozenset({"quit", "exit", "q", "выход", "выйти", "конец"})
HELP_WORDS = frozenset({"help", "?", "h", "помощь", "справка"})
MOVES_WORDS = frozenset({"moves", "board", "show", "m", "ходы", "стол"})
UNDO_WORDS = ("undo", "u", "back", "takeback", "отмена", "назад", "вернуть")
HINT_WORDS = ("hint", "?hint", "подсказка", "совет")

#: Russian move words the notation does not read itself (it reads беру, бито, пас, верю and
#: не верю), as the notation they mean.
MOVE_WORDS = {
    "взял": "take", "взяла": "take", "беру": "take", "забираю": "take",
    "бито": "pass", "пас": "pass", "отбой": "pass", "хватит": "pass", "пасую": "pass",
    "тяну": "draw", "добор": "draw", "из колоды": "draw",
    "сомневаюсь": "doubt", "не верю": "doubt", "верю": "believe",
}
#: Prefixes for a transfer (``перевод 6s`` = ``=6s``).
TRANSFER_PREFIXES = ("перевод ", "перевожу ", "перевести ")


def command_word(text: str) -> str:
    """What was typed, as a command word (lower case, spaces trimmed)."""
    return " ".join(text.strip().lower().split())


def move_words(text: str) -> str:
    """A move typed in Russian words as notation (``взял`` -> ``take``, ``перевод 6s`` ->
    ``=6s``); anything else as typed."""
    word = command_word(text)
    if word in MOVE_WORDS and word not in ("беру", "бито", "пас", "верю", "не верю"):
        return MOVE_WORDS[word]
    for prefix in TRANSFER_PREFIXES:
        if word.startswith(prefix):
            return "=" + text.strip()[len(prefix):].strip()
    return text


def family_move_words(text: str) -> str:
    """:func:`move_words` for the shedding and trick games, whose notation has no Russian:
    every Russian word is turned into the English one."""
    word = command_word(text)
    return MOVE_WORDS.get(word, text)


#: The engines' phrases, longest patterns first (a shorter one must not eat a longer one's
#: words). Fields: ``{n}`` a number, ``{card}`` one card, ``{name}`` one word, anything else
#: some text.
ENGINE_PHRASES: tuple[str, ...] = (
    # the ends of a Durak game without a fool (render.outcome_text)
    N_("Draw: bout after bout ended in a take with nobody going out, so there is no fool "
       "(end.idle_bouts)."),
    N_("Draw: the same position came round three times with nobody able to finish, so there "
       "is no fool (end.repetition)."),
    N_("Draw: everyone went out together, there is no fool."),
    N_("You are the fool (дурак)."),
    N_("{name} is the fool (дурак)."),
    # the rules catalogue's refusals of a spec or an option, as the command reports them
    N_("cannot read: {why}"),
    N_("not valid TOML: {why}"),
    N_("not valid JSON: {why}"),
    N_("not UTF-8 text (byte {n})"),
    N_("line {n}:"),
    N_("no such variant (known: {known})"),
    N_("empty variant name"),
    N_("empty part between '+' signs"),
    N_("an option needs a value: key=value"),
    N_("unknown option (see `bito variants --options`)"),
    N_("is a game, not a modifier; only one game per spec"),
    N_("applies to {games}, not {game}"),
    N_("expected true or false, not {value}"),
    N_("expected a whole number, not {value}"),
    N_("must be a positive whole number, not {value}"),
    N_("{value} is not one of: {allowed}"),
    N_("unsupported value {value}"),
    N_("invalid value {value}"),
    N_("no case matches {pattern}"),
    # Cheat (believe it or not, 2)
    N_("{name} doubted {other}'s {cards}: a lie"),
    N_("{name} doubted {other}'s {cards}: true"),
    N_("{name} doubted your {cards}: a lie"),
    N_("{name} doubted your {cards}: true"),
    N_("You take the pile"),
    N_("{name} takes the pile"),
    N_("last doubt:"),
    N_("{name} claims {n} x {rank} -- doubt or pass"),
    N_("rank due: {rank} ({n} put down)"),
    # the hints (bito.bots.hints)
    N_("Hint:"),
    N_("{n}% not the fool"),
    N_("; others:"),
    N_("(the only move)"),
    N_("Why: {move} rather than {instead} ({high}% against {low}%): over {n} sampled deals a "
       "gap this small is chance, and {reason}."),
    N_("Why not {instead} ({high}%): that figure is from its first {n} sampled deals only, "
       "where it did clearly worse than {move}, so the search set it aside."),
    N_("the bout ends in a take anyway, so covering first would only show a card"),
    N_("there is no need to take"),
    N_("you keep the higher trump"),
    N_("you keep the higher card"),
    N_("you keep a trump"),
    N_("you keep the card"),
    N_("you shed more cards at once"),
    N_("wins (proven)"),
    N_("draws (proven)"),
    N_("loses (proven)"),
    # the preludes, Polish fool, Japanese fool's first phase, the ends by repetition
    N_("phase 1 (deck flip): centre {centre}, to beat {beat}"),
    N_("{name} turns next"),
    N_("to beat: {card} by {name}"),
    N_("centre:"),
    N_("You turn {card}: no beat, you take it and {cards}"),
    N_("You turn {card}: no beat"),
    N_("You turn {card} and beat {other}"),
    N_("{name} turns {card}: no beat, he takes it and {cards}"),
    N_("{name} turns {card}: no beat"),
    N_("{name} turns {card} and beats {other}"),
    N_("{name} beats {card} and wins {cards}"),
    N_("{name} takes {cards} with his {other}"),
    N_("You take {cards} with your {other}"),
    N_("{cards} pass on to {name}"),
    N_("(only the first card); {cards} go to the discard"),
    N_("You take {cards}"),
    N_("the same position came round a third time: a draw"),
    N_("{n} takes in a row with no card drawn or discarded and nobody going out: a draw"),
    N_("cover {card} with {other} and counter-attack with {third}"),
    N_("transfer by showing the trump {card}"),
    # Durak pictures of the bouts family
    N_("(attacker, to act)"),
    N_("(defender, to act)"),
    N_("(attacker)"),
    N_("(defender)"),
    N_("(to act)"),
    N_("(defender takes)"),
    N_("phase over"),
    # cards held face out (#58)
    N_("illegal play: {what}; the offender takes all the bout's cards (#58)"),
    N_("no card of {card}'s rank is on the table"),
    N_("{card} does not beat {target}"),
    N_("play the card at position {n}"),
    N_("cover {card} with the card at position {n}"),
    N_("transfer with the card at position {n}"),
    N_("the card at position {n}"),
    N_("a card face down"),
    # house rules' moves and the bouts family's pictures
    N_("cover your own {card} with {other} (the taker gets both)"),
    N_("lay {card} and cover it yourself with {other}"),
    N_("swap {cards} with the stock"),
    N_("the chain of {n} cards is discarded"),
    N_("{card} to cover by {name}"),
    N_("(cards passed on)"),
    N_("no second phase"),
    # Durak: the trump, as render.trump_words says it
    N_("trump {suits} (trump card {card}, under the stock, a secret card face down beside "
       "it)"),
    N_("trump {suits} (trump card {card}, drawn, a secret card face down beside it)"),
    N_("trump {suits} (trump card {card}, set aside with the stock)"),
    N_("trump {suits} (trump card {card}, under the stock)"),
    N_("trump {suits} (trump card {card}, drawn)"),
    N_("trump {suits} (secret card {card} turned)"),
    N_("trump {suits} (no card turned up)"),
    N_("own trumps {list}"),
    N_("no trumps"),
    N_("(no cards)"),
    # the families' pictures
    N_("round {n} of {total}"),
    N_("suit called: {suit}"),
    N_("pile top {card}"),
    N_("lead colour not fixed"),
    N_("lead colour red"),
    N_("lead colour green"),
    N_("lead colour yellow"),
    N_("lead colour blue"),
    N_("(empty: start a new sequence)"),
    N_("a six (or any card)"),
    N_("{name} the {animal} went {sound} -- laugh or keep a straight face"),
    N_("nicknames:"),
    N_("due:"),
    N_("(empty)"),
    N_("nobody"),
    N_("trick: nothing yet"),
    N_("{name} attacks {target}"),
    N_("You attack {target}"),
    N_("{name} holds {cards}"),
    N_("{name} takes {cards}"),
    N_("cover {card} with {other}"),
    N_("attack with the top card of the stock"),
    N_("second try: draw the top card of the stock"),
    N_("believe the covers (I believe)"),
    N_("call a bluff (I don't believe)"),
    N_("throw in {card} from the dummy"),
    N_("transfer with {cards}"),
    N_("take the cards"),
    N_("pass {cards} to the left"),
    N_("attack {cards}"),
    N_("give {card}"),
    N_("your hand:"),
    N_("cards held:"),
    N_("penalty points:"),
    N_("+10 rounds:"),
    N_("Fool disc:"),
    N_("scores:"),
    N_("trick:"),
    N_("known:"),
    N_("table:"),
    N_("discarded {n}"),
    N_("stock {n}"),
    N_("discard {n}"),
    N_("bout {n}"),
    N_("pile {n}"),
    N_("round {n}"),
    N_("trump {card}"),
    N_("out:"),
    N_("calls {suit}"),
    # the engines' refusals and notation errors, as the player sees them
    N_("no such move here"),
    N_("expected a card, or draw / pass"),
    N_("unknown rank {what}"),
    N_("unknown suit {what}"),
    N_("empty move"),
    N_("(ranks are 2-9 T J Q K A)"),
    N_("(suits are c d h s)"),
    N_("{card} is not in your hand"),
    N_("you may only play cards from your hand"),
    N_("you can put a card down, so you must"),
    N_("you may draw only when no card fits"),
    N_("name a suit (=c/d/h/s) with this card"),
    N_("Mau-Mau plays one card at a time"),
    # the heap and chain games' pictures, the preludes' second phase
    N_("You lead"),
    N_("{name} leads"),
    N_("heap:"),
    N_("chain:"),
    N_("phase 2"),
    # Animal sounds: the nicknames
    N_("cat"), N_("donkey"), N_("wolf"), N_("horse"), N_("goat"), N_("cow"), N_("rooster"),
    N_("dog"), N_("pig"), N_("duck"), N_("frog"), N_("sheep"), N_("owl"),
    N_("Miaow!"), N_("Hee-haw!"), N_("Aooo!"), N_("Neigh!"), N_("Meh-eh-eh!"), N_("Moo!"),
    N_("Cock-a-doodle-doo!"), N_("Woof!"), N_("Oink!"), N_("Quack!"), N_("Ribbit!"), N_("Baa!"),
    N_("Hoo-hoo!"),
    N_("in Fool! you play one card per trick"),
    N_("doubt or pass while a claim is open"),
    N_("put down at least one card first"),
    N_("laugh or pass while a sound is judged"),
)

#: One-word moves, translated only where they are the whole text (``Boris: draw``), never
#: inside a sentence.
WHOLE_WORDS = (N_("draw"), N_("pass (bito)"), N_("pass"), N_("take"), N_("claim"), N_("doubt"),
               N_("laugh"), N_("sound"), N_("turn"))

#: The Durak phases (``phase over`` in a replay's picture).
PHASE_WORDS = {"lead": N_("lead"), "defend": N_("defend"), "throw": N_("throw in"),
               "over": N_("game over"), "give": N_("joker's gift"), "call": N_("believe or not"),
               "exchange": N_("exchange")}

_FIELD = {"n": r"-?\d+", "total": r"\d+", "card": r"\S+?", "other": r"\S+?",
          "name": r"[^\s,;:]+", "animal": r"\w+", "sound": r"\S+", "target": r"[^\s,;:]+",
          "suit": r"\S+?", "centre": r"\S+", "beat": r"\S+", "third": r"\S+"}


@cache
def _pattern(phrase: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", phrase)
    regex = ""
    for i, part in enumerate(parts):
        if i % 2:
            regex += f"(?P<{part}>{_FIELD.get(part, '.+?')})"
        else:
            regex += re.escape(part)
    tail = r"(?=$|[\s,;.)\]])" if phrase[-1:] == "}" or phrase[-1:].isalnum() else ""
    head = r"(?<![\w+])" if phrase[:1].isalnum() or phrase[:1] == "{" else ""
    return re.compile(head + regex + tail)


def _names_said(text: str) -> str:
    names = (*BOT_NAMES, DUMMY_NAME, HUMAN_NAME)
    # a name heading a column keeps the column's width (``  You    6♣ 7♣``)
    text = re.sub(r"(?m)^(\s+)(" + "|".join(names) + r")(\s{2,})",
                  lambda m: m.group(1) + _(m.group(2)).ljust(
                      len(m.group(2)) + len(m.group(3)) - 2) + "  ", text)
    text = re.sub(r"\b(" + "|".join(names) + r")\b", lambda m: _(m.group(1)), text)
    return re.sub(r"\byou\b", lambda m: _("you"), text)


def _filler(said: str) -> Callable[[re.Match[str]], str]:
    """A replacement for :func:`re.sub`: the translation, filled with what matched."""
    def fill(m: re.Match[str]) -> str:
        return said.format(**m.groupdict()) if "{" in said else said

    return fill


#: The engines' phrases with a count, in both English forms (``1 card``, ``3 cards``), said
#: in the language's own form for the count (Russian: 1 карта, 2 карты, 5 карт); after
#: :data:`ENGINE_PHRASES`, whose longer phrases may hold a count of their own, the more
#: specific of these first.
ENGINE_COUNTED: tuple[tuple[str, str], ...] = (
    Nn_("pile: {n} card;", "pile: {n} cards;"),
    Nn_("pile: {n} card, top {card}", "pile: {n} cards, top {card}"),
    Nn_("[{n} sampled world]", "[{n} sampled worlds]"),
    Nn_("({n} card)", "({n} cards)"),
    Nn_("{n} card", "{n} cards"),
)


def engine_words(text: str) -> str:
    """An engine's text in the language spoken (unchanged in English)."""
    if language() == "en" or not text:
        return text
    if text.strip() in WHOLE_WORDS:
        return text.replace(text.strip(), _(text.strip()))
    for phrase in ENGINE_PHRASES:
        said = _(phrase)
        if said == phrase:
            continue
        text = _pattern(phrase).sub(_filler(said), text)
        if phrase[:1].islower():  # the same words opening a sentence (``Trump ♦ ...``)
            text = _pattern(phrase[:1].upper() + phrase[1:]).sub(
                _filler(said[:1].upper() + said[1:]), text)
    for singular, plural in ENGINE_COUNTED:
        for phrase in (plural, singular):
            text = _pattern(phrase).sub(_counted(singular, plural), text)
    return _names_said(text)


def _counted(singular: str, plural: str) -> Callable[[re.Match[str]], str]:
    """A replacement for :func:`re.sub`: the form for the count that matched, filled in."""
    def fill(m: re.Match[str]) -> str:
        return ngettext(singular, plural, int(m.group("n"))).format(**m.groupdict())

    return fill


#: The refusals of the families that still name their rules by string, by rule key, for those
#: said in general words in another language (the English detail names the cards; the rule's
#: sentence says why). A typed refusal (``error.reason``) brings its own words.
RULE_WORDS: dict[str, str] = {
    "not a move of this game": N_("that is not a move of this game"),
    "game over": N_("the game has ended"),
    "take": N_("only the defender may take, while cards are uncovered"),
    "lead": N_("the attacker must open the bout"),
    "turn": N_("it is not your turn"),
    "own cards": N_("you do not hold that card"),
    "must play": N_("you must play a card here"),
    "match": N_("that card does not fit the pile"),
    "one card": N_("play one card at a time"),
    "suit call": N_("name a suit with this card (=c/d/h/s)"),
    "follow colour": N_("follow the lead colour"),
    "beat": N_("beat the top card with a higher card"),
    "cover": N_("cover with a higher card"),
    "sequence": N_("play the rank that is due"),
    "not allowed": N_("that is not a move here"),
    "notation": N_("that is not a move of this game"),
    "judging": N_("laugh or pass while a sound is judged"),
    "doubting": N_("doubt or pass while a claim is open"),
    "empty claim": N_("put down at least one card first"),
    "claim size": N_("too many cards in the claim"),
    "prelude": N_("in the first phase the only move is turn"),
    "English ace": N_("follow the ace with a card of its suit"),
    "nine of diamonds": N_("the nine of diamonds was covered: no more cards this bout"),
    "play the drawn card": N_("play the card you drew, or pass"),
    "priority": N_("another card must be played first"),
    "throw in": N_("throw in a card of a rank on the table, within the limit"),
}


#: What a player never reads: a source's line citation (``S3:25-28``), a section of the rules
#: catalogue (``§4.1``), a note for the developers, a module path.
INTERNAL = re.compile(r"\bS\d+:\d|§\s*\d|NOT FROM THE SEEDS|OPTION_SPECS|\bbito\.rules\b")
_CITED = re.compile(r"\s*\([^()]*(?:\bS\d+:\d|§\s*\d)[^()]*\)|\s*§\s*\d[\d.]*"
                    r"|\s*\bS\d+:\d+(?:-\d+)?(?:,\s*\d+)*")
#: An option key in brackets after an engine's sentence (``no fool (end.idle_bouts).``).
OPTION_KEY = re.compile(r"\s*\((?:[a-z_]+\.)+[a-z_]+\)")


def plain_words(text: str) -> str:
    """``text`` without the citations of the rules' sources and sections
    (``must (S3:25-28)`` -> ``must``) and without an option key in brackets, for an engine
    text the player reads."""
    text = OPTION_KEY.sub("", text)
    return _CITED.sub("", text) if INTERNAL.search(text) else text


def refusal_words(detail: str, rule: Reason | str = "") -> str:
    """An engine's refusal in the language spoken: its own words translated where the
    catalogue has them, else the rule's sentence (a typed reason's own words, or the table's
    for a rule named by string) with the English detail after it; never a citation of the
    rules' sources."""
    detail = plain_words(detail)
    if language() == "en":
        return detail
    said = engine_words(detail)
    if said != detail and not re.search(r"[a-z]{4,}", said.replace("bito", "")):
        return said
    general = rule.words if isinstance(rule, Reason) else RULE_WORDS.get(rule)
    if general:  # the English detail only where it names the cards concerned
        return f"{_(general)} ({said})" if re.search(r"[♣♦♥♠]|\b[2-9TJQKA][cdhs]\b",
                                                     detail) else _(general)
    return said


def is_you(name: str) -> bool:
    """Whether a name (as recorded, or as shown) is the human's."""
    return name == HUMAN_NAME or name == _(HUMAN_NAME)


def shown(name: str) -> str:
    """A seat's name (``Anna``, or a label ``Anna (random)``) as the screen says it."""
    base, sep, rest = name.partition(" (")
    return _(base) + sep + rest if base in BOT_NAMES or base in (HUMAN_NAME, DUMMY_NAME) \
        else name


#: The terminal's own sentences (those added for issue 22), by key, in one place so that a
#: message catalogue (another language) can replace them later; :func:`say` fills them in.
TEXTS: dict[str, str] = {
    "forced": N_("(your only move, played for you)"),
    "quit.saves": N_("quit (save the game and leave)"),
    "quit.plain": N_("quit (leave; nothing is saved without --save)"),
    "undo.no_bots": N_("Nothing to undo: there are no bots in this game to take moves back from."),
    "undo.nothing": N_("Nothing to undo: you have not chosen a move yet in this game."),
    "undo.seen": N_("Can't undo that far: since that move you have seen cards that were "
                    "hidden (drawn from the stock or turned up), and replaying it knowing "
                    "them would not be fair."),
    "undo.done": N_("Took back your move {move}{since}. Your turn again."),
    "hint.thinking": N_("Thinking (the strong bot looks at your position)..."),
    "hint.none": N_("No hints in this game: the strong bot does not play it."),
    "hint.failed": N_("No hint here: the strong bot cannot analyse this position ({why})."),
    "hint.family": N_("Hint: the strong bot would play {move}{words}."),
    "refused": N_("Not allowed: {why}. Try again."),
    "not_held": N_("you do not hold {cards}"),
    "no_beat": N_("{card} does not beat {target}"),
    "cover.trump": N_("cover it with a higher trump"),
    "cover.suit_or_trump": N_("cover it with a higher {suit} or a trump"),
    "cover.suit": N_("cover it with a higher {suit} (no trumps in this game)"),
    "cover.yours": N_("{cards} would"),
    "cover.none": N_("none of your cards can: take, or transfer if you may"),
    "cover.many": N_("{card} beats none of the uncovered cards ({targets}): cover one as Th>6h, "
                  "or take"),
    "first.match": N_("after the first deal the match rule next_game_leader = {rule} decides"),
    "first.left": N_("the seat left of the dealer"),
    "first.low_trump": N_("the lowest trump"),
    "first.low_card": N_("the lowest card (nobody holds a trump)"),
}


def say(key: str, **fields: object) -> str:
    """One of :data:`TEXTS`, filled in."""
    return _(TEXTS[key]).format(**fields)


def game_words(spec: str) -> str:
    """The game's name and its house rules in words, for the header: ``Transfer fool with
    the house rule Trumpless fool (perevodnoy+no_trump)``, in the language spoken."""
    from bito.rules import lookup

    parts = [p.strip() for p in spec.split("+")]
    try:
        name = variant_name(lookup(parts[0]))
    except BitoError:
        return spec
    extras = []
    for part in parts[1:]:
        key, _eq, value = part.partition("=")
        try:
            extras.append(variant_name(lookup(key)))
        except BitoError:
            extras.append(f"{key} = {value}" if value else key)
    if len(extras) > 1:
        rules = _(" with the house rules {rules}").format(rules=", ".join(extras))
    elif extras:
        rules = _(" with the house rule {rule}").format(rule=extras[0])
    else:
        rules = ""
    return f"{name}{rules} ({spec})"
