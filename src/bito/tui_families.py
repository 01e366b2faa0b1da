"""The words of the shedding, trick-taking, social and bout games at the terminal and in
replays: their moves as sentences, what a move caused (a round scored, a trick won, a doubt
settled, cards drawn), each game's help and first player, and the result.

The table itself is drawn by the one screen (:class:`bito.tui.TerminalGame`, from the table
model); everything here goes through the protocol of :mod:`bito.games.protocol`.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from bito.cards import bit, card_pretty, cards_of, rank_of, suit_of
from bito.errors import BitoError
from bito.games import family_for, family_name
from bito.games.bouts.chinese import NINE_OF_DIAMONDS
from bito.games.durak import LEAD as DURAK_LEAD
from bito.games.durak.actions import ATTACK, DEFEND, PASS, TAKE, TRANSFER
from bito.games.family import seen_by
from bito.games.protocol import Hidden
from bito.games.shedding.rules import MauMauRules
from bito.games.social.rules import AnimalRules
from bito.i18n import N_, _, ngettext
from bito.tui_words import (
    HUMAN_NAME,
    engine_words,
    family_move_words,
    game_words,
    is_you,
    plain_words,
    refusal_words,
    say,
    shown,
)

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

#: The notation and commands every family's help ends with.
COMMANDS = N_("""\
Type a move by its number from the list, or in notation. Other commands: help, moves (show
the position again), hint (what the strong bot would play), undo (take back your last move
and the bots' replies since), quit (leave; the game is saved only with --save).""")

#: Each game's own help, by the engine module that plays it.
FAMILY_HELP: dict[str, str] = {
    "maumau": N_("""\
Mau-Mau (Czech fool and its relatives): play a card of the pile top's suit or rank, e.g. 7h.
The wild card ({wild}) also names the suit the next player must follow: {wild_card}h=s
(call spades). If nothing fits, type draw; after drawing you may have to pass. Cards with an effect
(the next player draws, or misses a turn) are announced as they happen. The first player out
ends the round; everyone else scores penalty points for the cards left, and after the last
round the highest total is the fool."""),
    "adjacent": N_("""\
Adjacent ranks: put down a card one rank above or below the pile top (any suit), e.g. 7h;
else one of the same rank, else an ace or king, else a joker. Keep playing while you can;
draw when nothing fits, pass to end your turn. The last player holding cards is the fool."""),
    "fool": N_("""\
Fool! (Friese): follow the lead colour if you can, e.g. g12 (green 12), r5, y20, b3; the wild
1 is typed w1 (a bare number picks a move from the list). The highest card of the lead colour
wins the trick; the lowest card played takes the Fool disc, and its holder sits out the next
trick. Scores are counted at the end of each round; the game ends at -80 or six +10 rounds."""),
    "animal": N_("""\
Animal sounds: put the next rank on the pile (6, 7 ... ace, then 6 again; any suit), e.g. 7h.
Without it, make your animal's sound (sound); then each other player laughs (laugh) or keeps
a straight face (pass). {pick_up} The first player out of cards wins; the last player with
cards is the fool."""),
    "cheat": N_("""\
Cheat (I doubt it): put down cards face down one at a time, claiming the rank due whatever
they are: type one card, e.g. 7h, then up to three more, then claim to end your claim. After
a claim anyone may doubt it (doubt) or believe it (pass): a liar, or a wrong doubter, takes
the pile. The last player holding cards is the fool."""),
    "chinese": N_("""\
China fool: attack with a card, e.g. 7h; cover with a higher card of its suit or a trump:
9h>7h; pass ends your part of the attack. A defender who gives up (take) takes only the
first card played at him: the rest of the table is discarded and he misses his turn to
attack. Once a card is covered with the 9 of diamonds nobody may throw in any more. Nobody
draws: an empty hand at the end of a bout is out, and the last player holding cards is the
fool."""),
    "bouts": N_("""\
A Durak game with its own bouts: attack with a card, e.g. 7h; cover with a higher card of
its suit or a trump: 9h>7h; take picks up; pass ends your part of the attack. turn turns the
top card of the stock where the game does (preludes, Polish fool)."""),
}


#: Mau-Mau's wild rank in words (#86: queens; #89: jacks).
WILD_RANKS = {11: N_("any jack"), 12: N_("any queen")}

#: Who picks the pile up after an animal's sound, by ``animal.takes_pile`` (#60 A1).
PICK_UP = {
    "nobody_laughed": N_("If nobody laughs, the player who made the sound takes the pile."),
    "somebody_laughed": N_("If somebody laughs, the player who made the sound takes the "
                           "pile."),
    "laugher": N_("Whoever laughs first takes the pile."),
}


def family_help(state: Any) -> str:
    """The in-game help for this game: its own moves, an example of each kind of move the
    player has now (taken from his legal moves, so it always plays), then the commands."""
    module = type(state).__module__.rsplit(".", 1)[-1]
    key = module if module in FAMILY_HELP else "bouts" if ".bouts." in type(
        state).__module__ else ""
    text = FAMILY_HELP.get(key, "")
    if not text:
        return _(COMMANDS)
    rules = state.rules
    pick = PICK_UP.get(rules.takes_pile, "") if isinstance(rules, AnimalRules) else ""
    wild = rules.wild_rank if isinstance(rules, MauMauRules) else 12
    said = (_(text).replace("{pick_up}", _(pick) if pick else "")
            .replace("{wild}", _(WILD_RANKS.get(wild, "")))
            .replace("{wild_card}", "23456789TJQKA"[wild - 2]))
    said = textwrap.fill(" ".join(said.split()), width=92)  # filled in: wrapped again
    examples = help_examples(state)
    if examples:
        said += "\n" + _("You could type now, for example: {moves}.").format(moves=examples)
    return f"{said}\n{_(COMMANDS)}"


def help_examples(state: Any) -> str:
    """One legal move of each kind the player to act has now, as he would type it, with its
    words from the table model (``Jc (put down J♣), claim (end your claim)``)."""
    from bito.games.tables import table_of

    model = table_of(state.view(state.to_act))
    seen: set[str] = set()
    out = []
    for move, action in zip(model.moves, state.view(state.to_act).legal, strict=False):
        if move.kind in seen:
            continue
        seen.add(move.kind)
        out.append(f"{move_text(action)} ({engine_words(move.label)})")
    return ", ".join(out[:4])


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _by(name: str, you: str, other: str, **fields: object) -> str:
    """``You take`` / ``Anna takes``: ``you`` said to the human, ``other`` of another player
    (with ``{name}``), translated and filled in."""
    if is_you(name):
        return _(you).format(**fields)
    return _(other).format(name=shown(name), **fields)


#: Verbs the engines' texts use after a seat, in the third person; after "You" they lose the
#: "s" ("seat 0 attacks" -> "You attack").
_VERBS = ("attacks", "takes", "holds", "leads", "wins", "draws", "plays", "passes", "misses",
          "calls", "doubted", "laughs", "covers", "throws", "has", "is", "goes", "turns")
_FIRST_PERSON = {"has": "have", "is": "are", "doubted": "doubted", "passes": "pass",
                 "misses": "miss", "goes": "go", "throws": "throw"}


def name_seats(text: str, names: Sequence[str]) -> str:
    """An engine's text with people's names for seat numbers: ``seat 2 attacks seat 0`` ->
    ``Boris attacks you``; per-seat number lists (``cards held: 5 4 7``) labelled by name;
    ``out: 1 0`` and the Fool disc's seat by name; the raw ``over: {...}`` line dropped (the
    result is said in words)."""
    players = len(names)
    lines = []
    for line in text.split("\n"):
        if line.startswith("over: {"):
            continue
        m = re.match(r"^(\s*)seat (\d+): (.*)$", line)
        if m:
            width = max(len(n) for n in names)
            lines.append(f"{m.group(1)}{_name(names, int(m.group(2))):<{width}}  {m.group(3)}")
            continue
        parts = []
        for part in line.split("; "):
            part = _name_lists(part, names, players)
            parts.append(part)
        lines.append("; ".join(parts))
    out = "\n".join(lines)
    out = re.sub(r"\bseat (\d+)'s\b", lambda m: "your" if _name(names, int(m.group(1))) ==
                 HUMAN_NAME else f"{_name(names, int(m.group(1)))}'s", out)
    out = re.sub(r"\bseat (\d+)\b", lambda m: _name(names, int(m.group(1))), out)
    verbs = "|".join(_VERBS)
    out = re.sub(rf"\b{HUMAN_NAME} ({verbs})\b",
                 lambda m: f"{HUMAN_NAME} {_FIRST_PERSON.get(m.group(1), m.group(1)[:-1])}",
                 out)
    out = re.sub(rf"\b({HUMAN_NAME} \w+ [^.;\n]*?) his\b", r"\1 your", out)
    # Polish fool's turn: "You turn 6♥: no beat, he takes it" / "You turn Q♥ and beats J♥"
    out = re.sub(rf"\b({HUMAN_NAME} turn [^;\n]*?) and beats\b", r"\1 and beat", out)
    out = re.sub(rf"\b({HUMAN_NAME} turn [^;\n]*?) he takes it\b", r"\1 you take it", out)
    return re.sub(rf"(?<=[a-z,] ){HUMAN_NAME}\b", "you", out)


def _name_lists(part: str, names: Sequence[str], players: int) -> str:
    """One ``label: values`` segment with the seats named, where it lists one value per seat
    (``scores: 0 -5 3``), or seat numbers (``out: 1 0``, ``Fool disc: 2``)."""
    m = re.match(r"^(\s*)([A-Za-z+0-9][\w +\-]*): (-?\d+(?: -?\d+)*)$", part)
    if not m:
        nick = re.match(r"^(\s*)nicknames: (.*)$", part)
        if nick:
            named = re.sub(r"\b(\d+) (\w+)", lambda k: f"{_name(names, int(k.group(1)))} "
                           f"{k.group(2)}", nick.group(2))
            return f"{nick.group(1)}nicknames: {named}"
        return part
    lead, label, values = m.group(1), m.group(2), m.group(3).split()
    if label in ("out", "Fool disc", "sitting out"):
        return f"{lead}{label}: " + ", ".join(_name(names, int(v)) for v in values)
    if len(values) == players:
        return f"{lead}{label}: " + ", ".join(
            f"{names[s]} {v}" for s, v in enumerate(values))
    return part


def wild_as_typed(text: str) -> str:
    """Fool!'s wild 1s shown as ``w1`` (what the player types) in the hand and the trick,
    not as a bare ``1`` that reads like a move number."""
    def fix(segment: str) -> str:
        seat_line = re.match(r"^(\s+\S+\s+)(.*)$", segment)
        if segment.startswith(("your hand:", "trick:")):
            head, sep, rest = segment.partition(":")
        elif seat_line:
            head, sep, rest = seat_line.group(1), "", " " + seat_line.group(2)
        else:
            return segment
        fixed = re.sub(r"(?<=[ ,:])1(?=[ ,;]|$)", WILD_TEXT, rest)
        return head + sep + (fixed[1:] if seat_line and not sep else fixed)

    return "\n".join("; ".join(fix(part) for part in line.split("; "))
                     for line in text.split("\n"))


def final_text(state: Any, names: Sequence[str]) -> str:
    """The whole position (at the end, or in a replay), seats named, without the raw
    outcome."""
    return engine_words(_as_typed(state, name_seats(str(state), names)))


def _as_typed(thing: Any, text: str) -> str:
    """A family's screen text with its cards written as the player types them."""
    fix = TYPED_TEXT.get(family_name(thing))
    return fix(text) if fix is not None else text


#: Per family, how its screen text is rewritten into what a player types (Fool!'s wild 1s).
TYPED_TEXT: dict[str, Callable[[str], str]] = {"tricks": wild_as_typed}


#: The engines' short notes on how a game ended, said to a player.
NOTE_WORDS = {
    "move cap": N_("the game was stopped at its move limit, a guard against play that never "
                   "ends (the same positions kept coming round)"),
    "idle takes": N_("the game was stopped: take after take with no card drawn or discarded "
                     "and nobody going out"),
    "last round (fool.max_rounds)": N_("the last round allowed (fool.max_rounds) was played"),
    "repetition": N_("the same position came round three times: a draw by repetition"),
}


def outcome_line(outcome: Any, names: Sequence[str]) -> str:
    """The result in words: who won, who is the fool, the scores and what ended the game."""
    if outcome is None:
        return _("End of the record: the game was not finished.")
    parts = []
    if outcome.draw:
        parts.append(_("a draw: nobody is the fool"))
    if outcome.order and not outcome.draw:
        parts.append(_by(_name(names, outcome.order[0]), "You win", "{name} wins"))
    if outcome.loser is not None:
        parts.append(_by(_name(names, outcome.loser), "You are the fool", "{name} is the fool"))
    scores = getattr(outcome, "scores", ())
    if scores:
        table = ", ".join(f"{shown(_name(names, s))} {scores[s]}" for s in range(len(scores)))
        if getattr(outcome, "tally_name", "") == "rounds_won":
            kind = ngettext("penalty points after {n} round: {table}",
                            "penalty points after {n} rounds: {table}", outcome.rounds)
        else:
            kind = ngettext("scores after {n} round: {table}", "scores after {n} rounds: {table}",
                            outcome.rounds)
        parts.append(kind.format(n=outcome.rounds, table=table))
    tallies = getattr(outcome, "tallies", ())
    if tallies:
        label = {"plus_tens": _("+10 rounds"), "rounds_won": _("rounds won")}.get(
            outcome.tally_name, outcome.tally_name.replace("_", " "))
        parts.append(f"{label}: " + ", ".join(f"{shown(_name(names, s))} {t}"
                                              for s, t in enumerate(tallies)))
    note = getattr(outcome, "note", "")
    if note:
        parts.append(_(NOTE_WORDS[note]) if note in NOTE_WORDS else engine_words(note))
    text = plain_words("; ".join(parts))
    return _("Result:") + f" {text[:1].upper()}{text[1:]}."


def _counts(state: Any, seat: int) -> tuple[int, ...]:
    counts = getattr(state.view(seat), "hand_counts", ())
    return tuple(counts)


def events(before: Any, after: Any, names: Sequence[str], action: Any = None,
           actor: int = -1, seat: int = 0) -> list[str]:
    """What an action made happen that the next picture does not show, in words: cards drawn
    (a penalty, or the actor's own draw, with how many), a player missing his turn, a round
    scored, a trick won and the Fool disc, a doubt settled, a player out. Derived from the
    two states, as ``seat`` may see them, so it never disagrees with the engine."""
    out: list[str] = []
    bito = bito_line(before, after, action)
    if bito is not None:
        out.append(bito)
    rnd = getattr(after, "last_round", None)
    new_round = rnd is not None and rnd is not getattr(before, "last_round", None)
    same_round = getattr(after, "round", 0) == getattr(before, "round", 0) and not new_round
    if same_round and not after.is_over:
        then, now = _counts(before, seat), _counts(after, seat)
        if len(then) == len(now):
            # a take is told by the engine's note (``Anna takes 7♣``), not as a draw
            note = getattr(after, "last_reveal", "")
            note = note if note != getattr(before, "last_reveal", "") else ""
            told = {int(n) for n in re.findall(r"seat (\d+) takes", note)}
            if " takes " in f" {note} ":  # "seat 0 turns A♥: no beat, he takes it"
                told.add(actor)
            emptied = _pile_size(before, seat) > 0 and _pile_size(after, seat) == 0
            for s, (a, b) in enumerate(zip(then, now, strict=True)):
                if b > a and s not in told and emptied:  # the animal-sounds pile picked up
                    out.append("  " + _by(
                        _name(names, s), ngettext("You pick up the pile ({n} card).",
                                                  "You pick up the pile ({n} cards).", b - a),
                        ngettext("{name} picks up the pile ({n} card).",
                                 "{name} picks up the pile ({n} cards).", b - a), n=b - a))
                elif b > a and s not in told:
                    why = " " + _("(a penalty)") if s != actor and actor >= 0 else ""
                    line = "  " + _by(
                        _name(names, s), ngettext("You draw {n} card", "You draw {n} cards",
                                                  b - a),
                        ngettext("{name} draws {n} card", "{name} draws {n} cards", b - a),
                        n=b - a)
                    if s == seat:  # the owner is told which cards he drew
                        line += ": " + drawn_cards(before, after, seat)
                    out.append(line + f"{why}.")
        kind = getattr(action, "kind", "")
        players = len(names)
        nxt = after.to_act
        if kind == "play" and actor >= 0 and players > 2 and nxt == (actor + 2) % players \
                and type(after).__module__.endswith("maumau"):
            out.append("  " + _by(_name(names, (actor + 1) % players), "You miss a turn.",
                                  "{name} misses a turn."))
        call = getattr(action, "call", -1)
        if kind == "play" and isinstance(call, int) and call >= 0:
            out.append("  " + _by(_name(names, actor),
                                  "You call {suit}: the next card must be of that suit.",
                                  "{name} calls {suit}: the next card must be of that suit.",
                                  suit=_(SUITS_CALLED[call])))
    if new_round and rnd is not None:
        pens = ", ".join(f"{shown(_name(names, s))} {p}" for s, p in enumerate(rnd.penalties))
        totals = getattr(after, "scores", ())
        if rnd.winner is not None:
            how = _by(_name(names, rnd.winner), "you go out first", "{name} goes out first")
        else:  # blocked: nobody could play or draw, or the round hit its move limit
            how = _("nobody went out (the round was blocked: no one could play or draw, or "
                    "it reached its move limit)")
        line = _("Round {n} is over: {how}. Penalty points this round: {points}.").format(
            n=rnd.number + 1, how=how, points=pens)
        if totals:
            line += " " + _("Totals: {totals}.").format(totals=", ".join(
                f"{shown(_name(names, s))} {t}" for s, t in enumerate(totals)))
        out.append(line)
    elif (getattr(after, "round", None) != getattr(before, "round", None)
          and getattr(after, "scores", None) is not None):
        was, now_scores = list(getattr(before, "scores", ())), list(after.scores)
        if len(was) == len(now_scores):
            change = ", ".join(f"{shown(_name(names, s))} {now_scores[s] - was[s]:+d}"
                               for s in range(len(now_scores)))
            totals = ", ".join(f"{shown(_name(names, s))} {v}"
                               for s, v in enumerate(now_scores))
            out.append(_("Round {n} is over. This round: {change}. Scores: {totals}.").format(
                n=getattr(before, "round", 0) + 1, change=change, totals=totals))
    trick = getattr(after, "last_trick", None)
    if trick is not None and trick is not getattr(before, "last_trick", None):
        fools = _(" and ").join(_who(names, s) for s in trick.fools)
        line = _by(_name(names, trick.winner), "You win the trick.", "{name} wins the trick.")
        if len(trick.fools) == 1 and is_you(_name(names, trick.fools[0])):
            line += " " + _("The Fool disc goes to you: you sit out the next trick.")
        elif fools:
            line += " " + (_("The Fool disc goes to {names}, who sit out the next trick.")
                           if len(trick.fools) > 1 else
                           _("The Fool disc goes to {names}, who sits out the next trick.")
                           ).format(names=fools)
        out.append(line)
    reveal = getattr(after, "last_reveal", "")
    if reveal and reveal != getattr(before, "last_reveal", ""):
        out.append(engine_words(name_seats(reveal, names)))
    gone = [s for s in getattr(after, "out", []) if s not in getattr(before, "out", [])]
    out += [_by(_name(names, s), "You are out of cards.", "{name} is out of cards.")
            for s in gone]
    return out


def _pile_size(state: Any, seat: int) -> int:
    """The cards on the pile as ``seat`` sees it (the table model's pile zone)."""
    from bito.games.tables import table_of

    pile = table_of(state.view(seat)).zone("pile")
    return pile.count if pile is not None else 0


def drawn_cards(before: Any, after: Any, seat: int) -> str:
    """The cards that came into ``seat``'s hand between two states, as his hand shows them."""
    from bito.games.tables import table_of

    had = table_of(before.view(seat)).zone("hand")
    has = table_of(after.view(seat)).zone("hand")
    old = {c.code for c in had.cards} if had is not None else set()
    new = [c.label for c in (has.cards if has is not None else ()) if c.code not in old]
    return engine_words(" ".join(new))


#: A suit called (``Anna calls diamonds``).
SUITS_CALLED = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))


#: What the human types for Fool!'s wild 1 (a bare number picks a move from the list).
WILD_TEXT = "w1"


def move_text(action: Any) -> str:
    """An action as the human types it: its notation, except that Fool!'s wild 1 is ``w1``
    (the engine also reads a bare ``1``, which the terminal keeps for move number 1)."""
    text = str(action)
    return WILD_TEXT if text == "1" and getattr(action, "deck", "") == "fool" else text


def move_sentence(name: str, action: Any, before: Any) -> str:
    """A move as a sentence, as a player at the table would say it: the bout games' Durak
    notation by action kind (``Boris attacks with 7♥``, ``You cover 7♥ with 9♥``, ``Anna
    takes``), the other games' moves by theirs (``Anna plays K♣``, ``Boris draws from the
    stock``). A kind no table knows keeps its engine's words after the name."""
    kind = getattr(action, "kind", None)
    say_it = (BOUT_SENTENCES.get(kind) if isinstance(kind, int)
              else MOVE_SENTENCES.get(kind) if isinstance(kind, str) else None)
    if say_it is not None:
        return say_it(name, action, before)
    said = WILD_TEXT if move_text(action) == WILD_TEXT else engine_words(action.pretty())
    return f"{shown(name)}: {said}"


def _cards(action: Any) -> str:
    return " ".join(card_pretty(c) for c in action.cards)


def _bout_attack(name: str, action: Any, before: Any) -> str:
    # a card added to a bout already under way is a throw-in; any other is an attack (a
    # lead in the heap and chain games, the Polish fool's lead onto an empty centre); a
    # prelude's second phase is a Durak game, whose bout opens in its lead phase
    main = getattr(before, "main", None)
    adding = (main.phase != DURAK_LEAD if main is not None
              else getattr(before, "phase", "") == "throw")
    if adding:
        return _by(name, "You throw in {cards}", "{name} throws in {cards}",
                   cards=_cards(action))
    return _by(name, "You attack with {cards}", "{name} attacks with {cards}",
               cards=_cards(action))


def _bout_cover(name: str, action: Any, before: Any) -> str:
    return _by(name, "You cover {target} with {card}", "{name} covers {target} with {card}",
               target=card_pretty(action.target), card=card_pretty(action.cards[0]))


def _bout_take(name: str, action: Any, before: Any) -> str:
    return _by(name, "You take", "{name} takes")


def _bout_pass(name: str, action: Any, before: Any) -> str:
    return _by(name, "You pass", "{name} passes")


def _bout_transfer(name: str, action: Any, before: Any) -> str:
    return _by(name, "You transfer the attack with {cards}",
               "{name} transfers the attack with {cards}", cards=_cards(action))


#: The bout games' moves (Durak notation) as sentences, by action kind.
BOUT_SENTENCES: dict[int, Callable[[str, Any, Any], str]] = {
    ATTACK: _bout_attack, DEFEND: _bout_cover, TAKE: _bout_take, PASS: _bout_pass,
    TRANSFER: _bout_transfer}


def _turn(name: str, action: Any, before: Any) -> str:
    return _by(name, "You turn up the top card of the stock",
               "{name} turns up the top card of the stock")


def _play(name: str, action: Any, before: Any) -> str:
    if isinstance(action, Hidden):  # Cheat: a card put down face down, as the others see it
        return _by(name, ngettext("You put down {n} card face down",
                                  "You put down {n} cards face down", action.count),
                   ngettext("{name} puts down {n} card face down",
                            "{name} puts down {n} cards face down", action.count),
                   n=action.count)
    # the engine's words for the cards (Fool!'s own card names, a card face down, a suit
    # called: "Q♣, calls ♣"); Fool!'s wild 1 as it is typed
    said = WILD_TEXT if move_text(action) == WILD_TEXT else engine_words(action.pretty())
    return _by(name, "You play {cards}", "{name} plays {cards}", cards=said)


def _draw(name: str, action: Any, before: Any) -> str:
    return _by(name, "You draw from the stock", "{name} draws from the stock")


def _claim(name: str, action: Any, before: Any) -> str:
    return _by(name, "You end your claim", "{name} ends the claim")


def _doubt(name: str, action: Any, before: Any) -> str:
    return _by(name, "You say: I doubt it!", "{name} says: I doubt it!")


def _sound(name: str, action: Any, before: Any) -> str:
    return _by(name, "You make your animal's sound", "{name} makes the animal's sound")


def _laugh(name: str, action: Any, before: Any) -> str:
    return _by(name, "You laugh", "{name} laughs")


#: Moves of the other games said as sentences, by their kind.
MOVE_SENTENCES: dict[str, Callable[[str, Any, Any], str]] = {
    "turn": _turn, "play": _play, "draw": _draw, "pass": _bout_pass, "claim": _claim,
    "doubt": _doubt, "sound": _sound, "laugh": _laugh}


def bito_line(before: Any, after: Any, action: Any) -> str | None:
    """``Bito: ...`` when a pass closed a bout and its cards went to the discard pile: the
    next picture shows an empty table, which alone would not say where the cards went."""
    if getattr(action, "kind", None) != PASS:
        return None
    was, now = getattr(before, "discard", None), getattr(after, "discard", None)
    if isinstance(was, int) and isinstance(now, int) and now.bit_count() > was.bit_count():
        return "  " + _("Bito: the bout's cards go to the discard pile.")
    return None


class FamilyWords:
    """The words of every family but Durak's: moves as sentences by their kind, round, trick
    and doubt results as they happen, each game's help and first player, and the result with
    its scores."""

    def opening(self, state: Any, names: Sequence[str], labels: Sequence[str],
                spec: str) -> str:
        return "\n".join([
            _("{game}: {players} players, seed {seed}.").format(
                game=game_words(spec) if spec else family_name(state), players=state.players,
                seed=family_for(state).seed(state)),
            _("Players, in turn order: {names}.").format(
                names=", ".join(shown(label) for label in labels)),
            first_player_line(state, names)])

    def said(self, before: Any, action: Any, after: Any, names: Sequence[str],
             human: int) -> list[str]:
        from bito.games.tables import table_of

        seat = before.to_act
        line = move_sentence(names[seat], seen_by(before, action, human), before)
        lines = [line, *events(before, after, names, action, seat, human)]
        handed_over = table_of(after.view(human)).family != table_of(before.view(human)).family
        if not after.is_over and handed_over:  # a prelude's second phase (#65-#68)
            lines.append(_("Phase 2 (Durak): the game goes on in bouts of Durak, with the "
                           "hands the first phase made."))
        return lines

    def read(self, text: str, state: Any) -> Any:
        action = state.parse_action(family_move_words(text.strip()))
        state.apply(action)  # an illegal move is refused here, with the engine's reason
        return action

    def refusal(self, text: str, state: Any, error: BitoError) -> str:
        rule = str(getattr(error, "rule", ""))  # the rule's name is the engine's, not said
        detail = str(getattr(error, "detail", "") or getattr(error, "reason", "") or error)
        return _("Not a move here: {why}").format(
            why=refusal_words(" ".join(detail.split()), rule))

    def help(self, state: Any, saving: bool) -> str:
        return family_help(state)

    def result(self, state: Any, names: Sequence[str], labels: Sequence[str]) -> list[str]:
        return [outcome_line(state.outcome, names)]


def strong_hint(seed: int) -> Callable[[Any], str]:
    """The in-game ``hint`` for the games the Durak hinter does not analyse: the move the
    strong bot would play, as it is typed and in words."""
    from bito.bots.levels import make_level

    bot = make_level("strong", seed)

    def hint(view: Any) -> str:
        choice = bot.choose(view)
        words = choice.pretty()
        said = f" ({engine_words(words)})" if words != str(choice) else ""
        return say("hint.family", move=move_text(choice), words=said)

    return hint


def _lowest(cards: Sequence[int]) -> int:
    return min(cards, key=lambda c: (rank_of(c), suit_of(c)))


def _why_chinese(state: Any, names: Sequence[str]) -> str:
    first = state.to_act
    nine = card_pretty(NINE_OF_DIAMONDS)
    if state.hands[first] & bit(NINE_OF_DIAMONDS):  # #65 A2: its holder attacks first
        return _("the holder of the {card} attacks first").format(card=nine)
    return _("nobody holds the {card}, so the player left of the dealer ({dealer}) attacks "
             "first").format(card=nine, dealer=_who(names, state.dealer))


def _why_heap(state: Any, names: Sequence[str]) -> str:
    if state.rules.mode != "heap":  # the chain game: the dealer's left
        return _left_of(names, state.dealer)
    hand = cards_of(state.hands[state.to_act])
    trumps = [c for c in hand if suit_of(c) == state.trump_suit]
    if trumps:  # #69: the lowest trump leads, shown as in Durak (VARIANTS.md §1.8)
        return _("the holder of the lowest trump, {card}, leads first").format(
            card=card_pretty(_lowest(trumps)))
    return _("nobody holds a trump, so the lowest card, {card}, leads first").format(
        card=card_pretty(_lowest(hand)))


def _why_dealer_left(state: Any, names: Sequence[str]) -> str:
    return _left_of(names, state.dealer)


def _why_by_lot(state: Any, names: Sequence[str]) -> str:
    return _("the first player is chosen by lot")


def _why_maumau(state: Any, names: Sequence[str]) -> str:
    starter = getattr(state, "starter", state.to_act)
    if state.rules.opening == "dealer_last_card":
        return _("{name} was chosen by lot to deal, and the dealer's last card opened the "
                 "pile").format(name=_who(names, starter))
    return _("the first player is chosen by lot")


def _why_neighbour_of_lot(state: Any, names: Sequence[str]) -> str:
    # the dealer is drawn by lot and not kept: he sits right of the first player
    return _left_of(names, (state.to_act - 1) % len(names))


def _why_animal(state: Any, names: Sequence[str]) -> str:
    low = min(rank_of(c) for h in state.hands for c in cards_of(h))
    mine = [c for c in cards_of(state.hands[state.to_act]) if rank_of(c) == low]
    if mine:  # S0:169: the holder of a six nearest the dealer's left opens
        return _("the first player from the dealer's left holding a card of the lowest rank "
                 "opens: {card}").format(card=card_pretty(mine[0]))
    return _("the player left of the dealer opens")


def _who(names: Sequence[str], seat: int) -> str:
    return _("you") if is_you(_name(names, seat)) else shown(_name(names, seat))


def _left_of(names: Sequence[str], dealer: int) -> str:
    return _("the player on the dealer's left starts (the dealer, chosen by lot: {dealer})"
             ).format(dealer=_who(names, dealer))


#: Why the first player plays first, by the engine module that plays the game (each family's
#: own rule, read from the deal as it lies).
FIRST_PLAYER_WHY: dict[str, Callable[[Any, Sequence[str]], str]] = {
    "chinese": _why_chinese, "heap": _why_heap, "polish": _why_dealer_left,
    "prelude": _why_by_lot, "maumau": _why_maumau, "adjacent": _why_neighbour_of_lot,
    "fool": _why_dealer_left, "animal": _why_animal, "cheat": _why_neighbour_of_lot}


def first_player_line(state: Any, names: Sequence[str]) -> str:
    """``Anna plays first: the holder of the 9♦ attacks first.``"""
    first = state.to_act
    why = FIRST_PLAYER_WHY.get(type(state).__module__.rsplit(".", 1)[-1])
    if why is None:
        return _by(names[first], "You play first.", "{name} plays first.")
    return _by(names[first], "You play first: {why}.", "{name} plays first: {why}.",
               why=why(state, names))


def record_text(spec: str, state: Any, seed: int, names: Sequence[str],
                history: Sequence[tuple[int, Any]], people: Sequence[int] = ()) -> str:
    """A full JSON Lines record (the format of :mod:`bito.record`) of a non-Durak game;
    ``people`` are the seats people sat in (``bito review`` reviews those)."""
    header: dict[str, Any] = {"bito": "record", "version": 1, "game": family_for(spec).name,
                              "variant": spec, "players": len(names), "seed": seed,
                              "names": list(names)}
    if people:
        header["people"] = sorted(set(people))
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps({"n": i + 1, "seat": s, "action": str(a)})
              for i, (s, a) in enumerate(history)]
    if state.outcome is not None:
        lines.append(json.dumps({"outcome": state.outcome.to_json()}))
    return "\n".join(lines) + "\n"


def family_frames(record: Any, states: Sequence[Any], names: Sequence[str], moves: list[str]
                  ) -> tuple[list[str], list[str], str]:
    """``bito replay`` pictures of a non-Durak record: each state's printable form."""
    total = len(record.actions)
    short = [n.split(" (")[0] for n in names]
    for i, (seat, action) in enumerate(record.actions, 1):
        said = [move_sentence(short[seat], action, states[i - 1])]
        said += [e.strip() for e in events(states[i - 1], states[i], short, action, seat, seat)]
        moves.append(_("Move {i} of {total}: {move}  ({said})").format(
            i=i, total=total, move=move_text(action), said="; ".join(said)))
    pictures = [final_text(st, short) for st in states]
    return moves, pictures, outcome_line(states[-1].outcome, short)
