"""Terminal play: one human against bots, reading moves with :func:`input`.

Everything goes through ``input`` and ``print``-like callables so that a game can be driven by
piped stdin (scripts, tests) as well as by a person. The human only ever sees their own
:class:`~bito.games.durak.view.DurakView`; the full state is revealed when the game is over.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bito.bots import Bot
from bito.cards import card_pretty, cards_of, is_special, rank_of, suit_of
from bito.errors import BitoError, IllegalActionError, InvalidNotationError, Reason
from bito.games.durak import (
    ATTACK,
    DEFEND,
    DEFEND_PHASE,
    LEAD,
    PASS,
    TAKE,
    TRANSFER,
    Action,
    DurakState,
    DurakView,
    parse_action,
)
from bito.games.durak.actions import (
    BELIEVE,
    BLIND_KINDS,
    COUNTER,
    DOUBT,
    EXCHANGE,
    EXTRA_KINDS,
    STOCK,
    TOSS,
    Revealed,
    blind_pretty,
)
from bito.games.durak.believe import CALL_PHASE
from bito.games.durak.believe import honest as believe_honest
from bito.games.durak.blind import FaceOut
from bito.games.durak.blind import verdict as blind_verdict
from bito.games.durak.bout_extras import Extras
from bito.games.durak.exchange import EXCHANGE_PHASE
from bito.games.durak.render import (
    hand_text,
    outcome_text,
    state_trump_words,
    tally_text,
)
from bito.games.durak.teams import Partnership
from bito.games.family import seen_by
from bito.games.game import Game
from bito.games.protocol import decider
from bito.games.tables import TableModel
from bito.i18n import N_, _, language, ngettext
from bito.tui_words import (
    BOT_NAMES,
    DUMMY_NAME,
    HELP_WORDS,
    HINT_WORDS,
    HUMAN_NAME,
    MOVES_WORDS,
    PHASE_WORDS,
    QUIT_WORDS,
    TEXTS,
    UNDO_WORDS,
    command_word,
    engine_words,
    game_words,
    is_you,
    move_words,
    plain_words,
    refusal_words,
    say,
    shown,
)

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

# Readable names for bot seats, in seat order (BOT_NAMES, from tui_words: a seat is easier to
# follow as a person). They are the names in records; the screen says them in the language
# spoken (:func:`shown`).


def _by(name: str, you: str, other: str, **fields: object) -> str:
    """``you`` said to the human (``You attack {cards}``) or ``other`` of another player
    (``{name} attacks {cards}``), translated and filled in."""
    if is_you(name):
        return _(you).format(**fields)
    return _(other).format(name=shown(name), **fields)


def _you_or(name: str) -> str:
    """A player named as the object of a sentence: ``you`` or the name."""
    return _("you") if is_you(name) else shown(name)

HELP = N_("""\
Type a move by its number from the list, or in notation:
  6h          attack or throw in the six of hearts (6h+6s: lead two sixes)
  Th>6h       cover the six of hearts with the ten of hearts
  =6s         transfer the attack with the six of spades (perevodnoy)
  take        pick up the cards on the table
  pass        stop throwing in (also: bito, done)
Ranks 2-9 T J Q K A, suits c d h s; Russian letters work too (Вп, 10ч, Тб: ranks В Д К Т
and 10, suits п ч б к). While defending, a single card (Th) is enough when it can cover
only one card.
Other commands: help (this text), moves (show the position again), hint (what the strong
bot would play), undo (take back your last move and the bots' replies since), {quit}.""")

#: The engine's explanations that speak of the player's own role in the third person, as
#: said to him (he is the one to act when he is told why his move is refused).
YOU_FORMS: dict[str, str] = {
    "the attacker must open the bout; he cannot pass":
        N_("you attack: open the bout with a card; you cannot pass"),
    "the defender must cover or take; only throwers pass":
        N_("you are defending: cover or take; only the attackers pass"),
    "the defender must cover or take before anyone throws in":
        N_("you are defending: cover a card (Th>6h) or take"),
}


#: The quit line of the help, by whether the game is being saved (``--save``).
QUIT_SAVES = TEXTS["quit.saves"]
QUIT_PLAIN = TEXTS["quit.plain"]

#: Words the prompt reads as commands rather than moves (never parsed as card notation) are
#: in bito.tui_words, in English and in Russian (UNDO_WORDS, HINT_WORDS...).
FORCED_NOTE = TEXTS["forced"]


@dataclass
class Seat:
    """Who sits where: a display name, and the bot that plays it (None for the human)."""

    name: str
    bot: Bot | None = None
    bot_name: str = ""

    @property
    def label(self) -> str:
        """The name with the bot kind, for lists and records."""
        return f"{self.name} ({self.bot_name})" if self.bot is not None else self.name


def table_seats(players: int, human: int, bots: Sequence[str], seed: int,
                dummy: int = -1) -> list[Seat]:
    """The seats of a game at the terminal: the human at ``human``, a playing dummy's seat
    (#57, played by its controller), and the named bots of ``bots`` in every other seat."""
    from bito.bots import make_bot

    names = iter(BOT_NAMES)
    kinds = iter(bots)
    seats: list[Seat] = []
    for s in range(players):
        if s == human:
            seats.append(Seat(HUMAN_NAME))
        elif s == dummy:
            seats.append(Seat(DUMMY_NAME))
        else:
            kind = next(kinds)
            seats.append(Seat(next(names), make_bot(kind, seed * 101 + s), kind))
    return seats


@dataclass
class PlayResult:
    """How a terminal game ended: the final game, whether it was finished (else why it
    stopped), and where it was saved, so callers and tests need not parse the output."""

    game: Game[DurakState]
    finished: bool
    quit_reason: str = ""
    saved: Path | None = None


class SaveError(BitoError):
    """The record could not be written (``--save``): the command then fails with exit 2
    after the game, since a full disk cannot be seen before the file is written."""


def describe_action(name: str, action: Action, phase: int) -> str:
    """A sentence for a move as it happens (``Boris attacks 6♥``)."""
    cards = " ".join(card_pretty(c) for c in action.cards)
    k = action.kind
    if k == ATTACK:
        if phase == LEAD:
            return _by(name, "You attack {cards}", "{name} attacks {cards}", cards=cards)
        return _by(name, "You throw in {cards}", "{name} throws in {cards}", cards=cards)
    if k == DEFEND:
        return _by(name, "You cover {target} with {card}", "{name} covers {target} with {card}",
                   target=card_pretty(action.target), card=card_pretty(action.cards[0]))
    if k == TRANSFER:
        return _by(name, "You transfer the attack with {cards}",
                   "{name} transfers the attack with {cards}", cards=cards)
    if k == TAKE:
        return _by(name, "You take the cards", "{name} takes the cards")
    if k == PASS:
        if phase == LEAD:  # #5: no lead of an allowed shape, the attack passes on
            return _by(name, "You have no lead to make and pass the attack on",
                       "{name} has no lead to make and passes the attack on")
        return _by(name, "You pass", "{name} passes")
    if k == BELIEVE:
        return _by(name, "You believe the covers", "{name} believes the covers")
    if k == DOUBT:
        return _by(name, "You call a bluff: \"I don't believe\"",
                   "{name} calls a bluff: \"I don't believe\"")
    if k == TOSS:
        return _by(name, "You throw in {cards} from the dummy",
                   "{name} throws in {cards} from the dummy", cards=cards)
    return f"{shown(name)}: {engine_words(action.pretty())}"  # #39-51's moves say what they do


def _picked_up(name: str, count: int) -> str:
    return _by(name, ngettext("You picked up {n} card", "You picked up {n} cards", count),
               ngettext("{name} picked up {n} card", "{name} picked up {n} cards", count),
               n=count)


def _to_discard(count: int) -> str:
    return ngettext("{n} card goes to the discard pile", "{n} cards go to the discard pile",
                    count).format(n=count)


def bout_events(before: DurakState, after: DurakState, action: Action,
                names: Sequence[str]) -> list[str]:
    """What else a move caused: a transfer's new defender, the end of a bout, seats going
    out, the next attack. Derived from the two states so it never disagrees with the engine."""
    lines: list[str] = []
    if action.kind == TRANSFER:
        lines.append("  " + _by(names[after.defender], "You must now defend.",
                                "{name} must now defend."))
        for seat in before.out:
            if seat not in after.out:  # #9: refused, he comes back with no cards
                lines.append("  " + _by(names[seat], "You had gone out but are handed the "
                                        "attack back.", "{name} had gone out but is handed "
                                        "the attack back."))
    if action.kind == PASS and before.phase == LEAD:
        if after.attacker != before.attacker:
            target = _you_or(names[after.defender])
            lines.append("  " + _by(names[after.attacker], "You attack {target} instead.",
                                    "{name} attacks {target} instead.", target=target))
        else:
            lines.append("  " + _("Nobody can lead: everyone draws a card. Stock {stock}."
                                  ).format(stock=len(after.stock)))
    if action.kind == STOCK:  # #40, #83: the card is turned up as it is played
        extras = after.view(0).extension(Extras)
        turned = (after.attack[-1] if len(after.attack) > len(before.attack)
                  else extras.shown if extras is not None else -1)
        if len(after.attack) > len(before.attack):
            said = _("The stock gives {card}.")
        else:
            said = _("The stock gives {card}, which matches nothing and goes back on top "
                     "of the stock.")
        lines.append("  " + said.format(card=card_pretty(turned)))
    if action.kind == COUNTER:
        lines.append("  " + _by(names[after.to_act], "You must beat the counter-attack.",
                                "{name} must beat the counter-attack."))
    if before.phase == EXCHANGE_PHASE and after.phase != EXCHANGE_PHASE:
        lines.append("  " + _("Everyone passes the chosen cards to the left neighbour."))
    if after.bout != before.bout or (after.is_over and not before.is_over):
        taken = before.taking or action.kind == TAKE
        cards = len(after.last_bout)
        defender = names[before.defender]
        if before.phase == CALL_PHASE:  # #59: the covers are turned up and settled
            lines.append("  " + _("Turned up:") + " " + "   ".join(
                f"{card_pretty(a)} <- {card_pretty(d)}" for a, d in before.table_pairs()))
            fair = believe_honest(before)
            if (action.kind == BELIEVE) == fair and fair:
                lines.append("  " + _("Every cover beats its card. Bito: {went}.").format(
                    went=_to_discard(cards)))
            else:
                taker = defender if not fair and action.kind != BELIEVE else \
                    names[before.leader]
                why = _("Every cover was good") if fair else _("A cover does not beat its "
                                                               "card")
                lines.append(f"  {why}: {_picked_up(taker, cards)}.")
        elif BLIND_KINDS <= action.kind < EXTRA_KINDS and blind_verdict(before, action):
            lines.append("  " + _("{picked}, still held face out.").format(
                picked=_picked_up(names[before.to_act], cards)))  # #58's penalty
        elif taken:
            kept = (after.discard & ~before.discard).bit_count()  # #3: covered pairs
            picked = _picked_up(defender, cards - kept)
            lines.append(f"  {picked}; " + ngettext(
                "{n} covered card goes to the discard pile.",
                "{n} covered cards go to the discard pile.", kept).format(n=kept)
                if kept else f"  {picked}.")
        else:
            lines.append("  " + _("Bito: {went}.").format(went=_to_discard(cards)))
        for seat in after.out[len(before.out):]:
            lines.append("  " + _by(names[seat], "You are out of cards and out of the game.",
                                    "{name} is out of cards and out of the game."))
        if not after.is_over:
            lines.append("  " + _by(names[after.attacker],
                                    "Bout {bout}: you attack {target}. Stock {stock}.",
                                    "Bout {bout}: {name} attacks {target}. Stock {stock}.",
                                    bout=after.bout + 1, target=_you_or(names[after.defender]),
                                    stock=len(after.stock)))
    else:
        for seat in after.out[len(before.out):]:
            lines.append("  " + _by(names[seat], "You have no cards left.",
                                    "{name} has no cards left."))
    return lines


def drawn_from_stock(before: DurakState, after: DurakState, seat: int) -> int:
    """The cards ``seat`` drew from the stock as a bout ended (his own to see; none while
    his hand is held face out, #58): new in his hand, and not from the table he took."""
    if after.bout == before.bout or len(after.stock) >= len(before.stock):
        return 0
    if after.view(seat).extension(FaceOut) is not None:
        return 0
    table = 0
    for c in (*before.attack, *before.defence):
        if c >= 0:
            table |= 1 << c
    return after.hands[seat] & ~before.hands[seat] & ~table


def _roles(view: DurakView, seat: int, own: bool = False) -> str:
    """A seat's roles in brackets (``[attacker, to act]``); ``own``: said of the player's own
    hand, to him (``Your hand [you defend, your move]``): a role word beside "your hand" would
    read as the hand's, which Russian shows (``Ваши карты [отбивается]``)."""
    tags = []
    teams = view.extension(Partnership)
    if teams is not None and seat != view.seat and seat in teams.partners(view.seat):
        tags.append(_("partner"))  # #53-55: everyone knows who sits with whom
    if teams is not None and teams.played >= 0 and seat == view.defender \
            and teams.played != seat:
        tags.append(_("plays seat {seat}").format(seat=teams.played))  # #55: a vacated seat
    if seat in view.out:
        tags.append(_("you are out") if own else _("out"))
    elif not view.is_over:
        if seat == view.attacker:
            tags.append(_("you attack") if own else _("attacker"))
        if seat == view.defender and own:
            tags.append(_("you defend and take") if view.taking else _("you defend"))
        elif seat == view.defender:
            tags.append(_("defender, taking") if view.taking else _("defender"))
        if seat == view.to_act:
            tags.append(_("your move") if own else _("to act"))
    return f" [{', '.join(tags)}]" if tags else ""


def table_lines(view: DurakView) -> list[str]:
    """The table as attack card then the card that covers it (``6♥ <- 10♥``)."""
    if not view.attack:
        return ["  " + _("Table: (empty)")]
    parts = []
    for a, d in zip(view.attack, view.defence, strict=True):
        parts.append(f"{card_pretty(a)} <- {card_pretty(d)}" if d >= 0
                     else f"{card_pretty(a)} " + _("(needs no cover)") if d == -2
                     else f"{card_pretty(a)} <- " + _("(a card face down)") if d == -3
                     else f"{card_pretty(a)} " + _("(uncovered)"))
    taking = "   " + _("(the defender takes)") if view.taking else ""
    out = ["  " + _("Table:") + " " + "   ".join(parts) + taking]
    extras = view.extension(Extras) or Extras()
    if extras.counter_target >= 0:  # #49
        out.append("  " + _("Counter-attack:") + " " + "   ".join(
            f"{card_pretty(a)} <- {card_pretty(d)}" if d >= 0
            else f"{card_pretty(a)} " + _("(uncovered)")
            for a, d in zip(extras.counter, extras.counter_cover, strict=True)))
    if extras.shown >= 0:  # #83
        out.append("  " + _("Top of the stock, seen by all: {card}").format(
            card=card_pretty(extras.shown)))
    return out


class Typed(Reason):
    """The terminal's own refusals of what a player typed, before the engine sees a move."""

    MOVE_NUMBER = "move number"  #: a number outside the list of moves
    AMBIGUOUS = "ambiguous"  #: a bare card that could mean several covers or transfers


def ordered_moves(legal: Sequence[Action], trump_suit: int,
                  attack: Sequence[int]) -> list[Action]:
    """The legal moves in the order the screen numbers them (the table model's ``order``):
    cheapest first, covers by the card they cover, take and pass last."""
    from bito.games.tables.durak import move_order

    return move_order(legal, frozenset({trump_suit}) if trump_suit >= 0 else frozenset(),
                      attack)


def resolve_input(text: str, state: DurakState) -> Action:
    """Turn what the user typed into a legal action, or raise the error to show.

    A number picks from the legal moves. Notation is parsed; a bare card while defending is
    taken as the only legal cover (or transfer) with that card when there is exactly one.
    Raises :class:`InvalidNotationError` or :class:`IllegalActionError`.
    """
    legal = ordered_moves(state.legal_actions(), state.trump_suit, state.attack)
    t = text.strip()
    if t.isdigit():
        n = int(t)
        if not 1 <= n <= len(legal):
            raise IllegalActionError(Typed.MOVE_NUMBER, f"choose 1 to {len(legal)}, not {n}")
        return legal[n - 1]
    action = parse_action(t)
    if action in legal:
        return action
    if action.kind == ATTACK and len(action.cards) == 1 and state.phase == DEFEND_PHASE:
        # a bare card while defending: the one cover (or transfer) made with it, if unique
        matches = [a for a in legal if a.kind in (DEFEND, TRANSFER) and a.cards == action.cards]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            options = ", ".join(str(a) for a in matches)
            raise IllegalActionError(Typed.AMBIGUOUS, f"{t} could mean {options}; type one of them")
    raise state.explain_illegal(action)


def help_text(saving: bool) -> str:
    """The in-game help; its quit line says whether leaving saves (only with ``--save``)."""
    return _(HELP).format(quit=_(QUIT_SAVES if saving else QUIT_PLAIN))


def _standard_beaters(target: int, trumps: frozenset[int], cards: Sequence[int]) -> int:
    """The cards of ``cards`` that beat ``target`` under the plain rule (a higher card of its
    suit, or any trump on a non-trump), as a bitmask: compared with the game's own relation to
    know whether the plain words are true in this variant."""
    mask = 0
    for c in cards:
        if is_special(c) or is_special(target) or c == target:
            continue
        same = suit_of(c) == suit_of(target)
        if (same and rank_of(c) > rank_of(target)) or \
                (suit_of(c) in trumps and suit_of(target) not in trumps):
            mask |= 1 << c
    return mask


def _or_list(cards: Sequence[int]) -> str:
    words = [card_pretty(c) for c in cards]
    return words[0] if len(words) == 1 else _("{some} or {last}").format(
        some=", ".join(words[:-1]), last=words[-1])


#: A suit in "cover it with a higher heart".
SUIT_WORDS = (N_("club"), N_("diamond"), N_("heart"), N_("spade"))


def _cover_advice(state: DurakState, card: int, target: int) -> str:
    """``9♦ does not beat 10♦: cover it with a higher diamond or a trump (J♦ would)``: the
    card that does not beat, what kind of card would, and which of the player's own would.
    The plain words are said only where the game's beat relation is the plain one."""
    legal = state.legal_actions()
    yours = sorted({a.cards[0] for a in legal if a.kind == DEFEND and a.target == target},
                   key=lambda c: (suit_of(c) in state.trumps, rank_of(c), suit_of(c)))
    head = say("no_beat", card=card_pretty(card), target=card_pretty(target))
    rule = ""
    try:
        from bito.games.durak.beats import beat_table_of

        deal = state.deal
        table = beat_table_of(deal.rules, *deal.trump.context(state.defender, state.attacker))
        deck = deal.rules.deck()
        if target < len(table) and table[target] == _standard_beaters(
                target, state.trumps, deck) and not is_special(target):
            suit = _(SUIT_WORDS[suit_of(target)])
            if suit_of(target) in state.trumps:
                rule = say("cover.trump")
            elif state.trumps:
                rule = say("cover.suit_or_trump", suit=suit)
            else:
                rule = say("cover.suit", suit=suit)
    except (ImportError, AttributeError, IndexError, TypeError):
        rule = ""  # an unusual deal: the player's own covers still say it
    own = say("cover.yours", cards=_or_list(yours)) if yours else say("cover.none")
    return f"{head}: {rule} ({own})" if rule else _("{head} here; {own}").format(head=head,
                                                                                  own=own)


def explain_for_you(state: DurakState, action: Action, seat: int) -> str:
    """Why the human's move is illegal, said to them ("you do not hold A♠"), naming the card
    that does not beat and what would, where the engine's text speaks of seat numbers or of
    the throw-in rule (a defender who typed a card that cannot cover)."""
    hand = state.hands[seat]
    missing = [c for c in action.cards if not hand >> c & 1]
    if missing:
        words = [card_pretty(c) for c in missing]
        cards = words[0] if len(words) == 1 else _("{some} and {last}").format(
            some=", ".join(words[:-1]), last=words[-1])
        return say("not_held", cards=cards)
    defending = state.phase == DEFEND_PHASE and state.to_act == seat
    if defending and action.kind == DEFEND and action.target in state.attack:
        spot = state.attack.index(action.target)
        if state.defence[spot] == -1:
            return _cover_advice(state, action.cards[0], action.target)
    if defending and action.kind == ATTACK and len(action.cards) == 1:
        open_cards = [a for a, d in zip(state.attack, state.defence, strict=True) if d == -1]
        if len(open_cards) == 1:
            return _cover_advice(state, action.cards[0], open_cards[0])
        if open_cards:
            return say("cover.many", card=card_pretty(action.cards[0]),
                       targets=", ".join(card_pretty(c) for c in open_cards))
    err = state.explain_illegal(action)
    detail = " ".join(err.detail.split())
    if detail in YOU_FORMS:
        detail = _(YOU_FORMS[detail])
    detail = re.sub(rf"\bseat {seat} does not\b", "you do not", detail)
    detail = re.sub(rf"\bseat {seat} (holds|has)\b",
                    lambda m: "you " + {"holds": "hold", "has": "have"}[m.group(1)], detail)
    if language() != "en":  # said in the rule's own words: its English key would only puzzle
        return refusal_words(detail, err.reason or err.rule)
    detail = plain_words(detail)
    return f"{detail} ({err.rule})" if err.rule and err.rule not in detail else detail


def first_attacker_reason(state: DurakState, names: Sequence[str]) -> str:
    """Why the first attacker attacks first, in words, from the deal as it lies: the lowest
    trump (shown to all, as the rules have it), the lowest card where nobody holds a trump,
    the seat left of the dealer, or the match's rule after a first deal."""
    deal = state.deal
    rules = deal.rules
    seat = state.attacker
    who = names[seat]
    match = deal.match
    if match.game_number > 0 and match.previous_fool is not None:
        return _by(who, "You attack first: {why}", "{name} attacks first: {why}",
                   why=say("first.match", rule=rules.next_game_leader))
    if rules.first_attacker_rule == "left_of_dealer":
        return _by(who, "You attack first: {why}", "{name} attacks first: {why}",
                   why=say("first.left"))
    trumps = state.trumps
    suited = [c for h in state.hands for c in cards_of(h) if not is_special(c)]
    lows = [c for c in suited if suit_of(c) in trumps]
    pool = lows or suited
    if not pool:
        return _by(who, "You attack first", "{name} attacks first")
    low = min(rank_of(c) for c in pool)
    mine = [c for c in cards_of(state.hands[seat]) if c in pool and rank_of(c) == low]
    what = say("first.low_trump") if lows else say("first.low_card")
    if not mine:
        return _by(who, "You attack first", "{name} attacks first")
    return _by(who, "You attack first: you hold {what}, {card}",
               "{name} attacks first: {name} holds {what}, {card}, shown to everyone",
               what=what, card=card_pretty(mine[0]))


def _sentence(words: str) -> str:
    """Capitalise the first letter only (``str.capitalize`` would lower-case card ranks)."""
    return words[:1].upper() + words[1:]


class Narration(Protocol):
    """What a game says in words beside the table the screen draws from its model: the
    opening lines, each move as a sentence with what it caused, how typed text reads as a
    move and why a move is refused, the game's help, and the result. The picture of the table
    never comes from here (:mod:`bito.tui_table` draws it from the table model)."""

    def opening(self, state: Any, names: Sequence[str], labels: Sequence[str],
                spec: str) -> str: ...

    def said(self, before: Any, action: Any, after: Any, names: Sequence[str],
             human: int) -> list[str]: ...

    def read(self, text: str, state: Any) -> Any: ...

    def refusal(self, text: str, state: Any, error: BitoError) -> str: ...

    def help(self, state: Any, saving: bool) -> str: ...

    def result(self, state: Any, names: Sequence[str], labels: Sequence[str]) -> list[str]: ...


class DurakWords:
    """The Durak games' words: bouts, covers, transfers, the first attacker's reason."""

    def opening(self, state: DurakState, names: Sequence[str], labels: Sequence[str],
                spec: str) -> str:
        d = state.deal
        table = ", ".join(_("seat {seat}: {label}").format(seat=i, label=shown(label))
                          for i, label in enumerate(labels))
        game = game_words(spec) if spec else _("Durak")
        return (_("{game}: {cards} cards, {players} players, seed {seed}.").format(
                    game=game, cards=d.rules.deck_size, players=state.players, seed=d.seed)
                + "\n" + _("Players: {table}.").format(table=table) + "\n"
                f"{_sentence(engine_words(state_trump_words(state)))}. "
                f"{_sentence(first_attacker_reason(state, names))}.")

    def said(self, before: DurakState, action: Action, after: DurakState,
             names: Sequence[str], human: int) -> list[str]:
        lines = self._move(before, action, names[before.to_act], human)
        events = bout_events(before, after, action, names)
        drawn = drawn_from_stock(before, after, human)
        if drawn:  # told before the next bout's line, as the cards come before the attack
            at = len(events) - 1 if events and not after.is_over else len(events)
            events.insert(at, "  " + _("You draw {cards}.").format(
                cards=" ".join(card_pretty(c) for c in cards_of(drawn))))
        return lines + events

    def _move(self, before: DurakState, action: Action, name: str, human: int) -> list[str]:
        """The line(s) that say the move itself, as the human may see it."""
        seen = before.action_seen_by(action, human)
        if isinstance(seen, Revealed):
            # #58: the card at that position is turned up for all to see, its owner too.
            words = blind_pretty(action.kind, action.position, action.target, seen.card)
            lines = [f"{shown(name)}: {engine_words(words)}"]
            verdict = blind_verdict(before, action)
            if verdict:
                lines.append(f"  {_sentence(engine_words(verdict))}.")
            return lines
        if action.kind == EXCHANGE and seen is not action:
            # #31: another seat's choice stays hidden until everyone has chosen.
            return [ngettext("{name} chooses {n} card to pass left",
                             "{name} chooses {n} cards to pass left", len(action.cards)
                             ).format(name=shown(name), n=len(action.cards))]
        if seen is not action:
            # #59: a cover laid face down: the human sees where it went, not which card.
            return [_by(name, "You lay a card face down on {card}",
                        "{name} lays a card face down on {card}",
                        card=card_pretty(action.target))]
        return [describe_action(name, action, before.phase)]

    def read(self, text: str, state: DurakState) -> Action:
        return resolve_input(move_words(text), state)

    def refusal(self, text: str, state: DurakState, error: BitoError) -> str:
        if isinstance(error, InvalidNotationError):
            return (_("Cannot read that move: {reason}").format(
                reason=engine_words(error.reason)) + f"\n  {error.text}\n  "
                f"{' ' * error.position}^\n"
                + _("Type a number, a move like 6h or Th>6h, or 'help'."))
        if isinstance(error, IllegalActionError):
            return say("refused", why=self._why(text, state, error))
        return _("Not a move here: {why}. Try again.").format(
            why=plain_words(engine_words(" ".join(str(error).split()))))

    def _why(self, text: str, state: DurakState, error: IllegalActionError) -> str:
        """The reason to show for an illegal move, said to the player (see
        :func:`explain_for_you`); an ambiguous card as the engine put it."""
        if error.reason is Typed.AMBIGUOUS:
            return engine_words(error.detail)
        try:
            return explain_for_you(state, parse_action(move_words(text).strip()),
                                   state.to_act)
        except BitoError:
            return refusal_words(error.detail, error.reason or error.rule)

    def help(self, state: DurakState, saving: bool) -> str:
        return help_text(saving)

    def result(self, state: DurakState, names: Sequence[str],
               labels: Sequence[str]) -> list[str]:
        outcome = state.outcome
        assert outcome is not None
        lines = [result_text(outcome.loser, outcome.draw, outcome.order, labels,
                             outcome.reason, outcome.teams)]
        tallies = tally_text(outcome.points, outcome.figures, outcome.epaulettes,
                             [shown(n) for n in labels])
        if tallies:
            lines.append(engine_words(tallies))
        return lines


#: The families whose moves have words of their own; the others share the notation of
#: :mod:`bito.games.protocol` and its sentences (:class:`bito.tui_families.FamilyWords`).
NARRATIONS: dict[str, type[Narration]] = {"durak": DurakWords}


def narration(state: object) -> Narration:
    """The words of the game ``state`` plays: Durak's bouts, or the other families' moves
    (their engines share the notation of :mod:`bito.games.protocol`)."""
    from bito.games.family import family_for
    from bito.tui_families import FamilyWords

    words: type[Narration] = NARRATIONS.get(family_for(state).name, FamilyWords)
    return words()


def verdict(model: TableModel, human: int) -> str:
    """The last line of a game, said to the player from the table model: a draw, the
    dummy's loss (#57), his team's result, or whether he is the fool."""
    if model.draw or (model.over and model.fool < 0):
        return _("Nobody is the fool this time.")
    fool = model.seats[model.fool] if 0 <= model.fool < len(model.seats) else None
    if fool is not None and "dummy" in fool.note.split(", "):
        return _("The dummy is the fool: nobody loses this game.")
    if human in model.losing_team:
        return _("Your team loses. Better luck next time!")
    if model.fool == human:
        return _("You are the fool. Better luck next time!")
    if model.losing_team:
        return _("Your team wins. Well played!")
    return _("You are not the fool. Well played!")


class TerminalGame:
    """One game of any family at the terminal: the human at ``human`` and a bot in every
    other seat. The screen is drawn from the human's table model (:mod:`bito.tui_table`);
    the game's :class:`Narration` says the moves, the help and the result."""

    def __init__(self, state: Any, seats: Sequence[Seat], human: int,
                 input_fn: InputFn = input, output: OutputFn = print,
                 save: Path | None = None,
                 hint: Callable[[Any], str] | None = None,
                 auto: bool = True,
                 hinter: Callable[[], Callable[[Any], str] | None] | None = None,
                 spec: str = "") -> None:
        if len(seats) != state.players:
            raise ValueError(f"{len(seats)} seats for a {state.players}-player game")
        self.game = Game(state)
        self.words = narration(state)
        self.seats = list(seats)
        self.human = human
        self.input = input_fn
        self.out = output
        self.save_path = save
        self.names = [s.name for s in seats]
        self.labels = [s.label for s in seats]
        #: ``bito play --hint``: what the strong bot would play here (bito.bots.hints).
        self.hint = hint
        #: Builds a hinter on the first in-game ``hint`` (the search bot is costly to make).
        self.hinter = hinter
        #: The variant spec played, named in the header (``podkidnoy+no_trump``).
        self.spec = spec
        self._asked: Callable[[Any], str] | None = None
        #: ``--no-auto`` makes this False: a forced move (the only legal one) is then asked for.
        self.auto = auto
        #: Per move of :attr:`game`: True where the human chose it (not a bot, not forced);
        #: ``undo`` takes back to before the last such move.
        self.chosen: list[bool] = []
        #: ``undo`` never returns to before this move: the human has seen hidden cards since
        #: (the stock's cards drawn, a face-out card turned up, #58).
        self.barrier = 0

    @property
    def state(self) -> Any:
        return self.game.state

    def model(self, seat: int | None = None) -> TableModel:
        """The table model of ``seat``'s view (the human's by default)."""
        from bito.games.tables import table_of

        return table_of(self.state.view(self.human if seat is None else seat))

    def run(self) -> PlayResult:
        """Play to the end, or until the user quits or input ends; save in every case."""
        self._tell_trumps()
        self.out(self.words.opening(self.state, self.names, self.labels, self.spec) + "\n"
                 + _("Type 'help' for how to enter moves.") + "\n")
        reason = ""
        while not self.state.is_over:
            state = self.state
            seat = state.to_act
            self._tell_trumps()
            if decider(state) == self.human:  # his own turn, or the dummy's he plays (#57)
                legal = state.legal_actions()
                if self.auto and len(legal) == 1:
                    self._play(legal[0], note=_(FORCED_NOTE))
                    continue
                outcome = self._human_turn()
                if outcome is not None:
                    reason = outcome
                    break
            else:
                self._bot_turn(seat)
        finished = self.state.is_over
        if finished:
            self._show_result()
        else:
            self.out(_("Game stopped ({reason}).").format(reason=_(reason)))
        saved = self._save()
        return PlayResult(self.game, finished, reason, saved)

    def _tell_trumps(self) -> None:
        """Let a :class:`bito.term.Printer` know the trumps now, from the table model, to
        highlight them (they change with personal trumps, #16, and when a secret trump is
        turned, #18)."""
        set_trumps = getattr(self.out, "set_trumps", None)
        if set_trumps is not None:
            from bito.cards import SUIT_NAMES

            names = self.model().vocabulary.trumps
            set_trumps(tuple(i for i, n in enumerate(SUIT_NAMES) if n in names))

    def _play(self, action: Any, chosen: bool = False, note: str = "") -> None:
        """Push a move and say what it did; ``chosen`` marks the human's own choices (the
        points ``undo`` returns to), ``note`` is appended to its first line (a forced move)."""
        before = self.state
        seen = _seen(self.model())
        self.game.push(action)
        self.chosen.append(chosen)
        after = self.state
        shown_by_move = {c for c in getattr(seen_by(before, action, self.human), "cards", ())
                         if isinstance(c, int)}
        if _seen(self.model()) - seen - shown_by_move:
            # a card hidden before is known now (drawn from the stock, turned up, a pile taken)
            self.barrier = len(self.chosen)
        lines = self.words.said(before, action, after, self.names, self.human)
        if note and lines:
            lines[0] += f" {note}"
        for line in lines:
            self.out(line)

    def undo(self) -> str:
        """Take back the human's last chosen move and every move since (the bots' replies and
        forced moves); returns the line to show, a refusal when there is nothing to take back."""
        if all(seat.bot is None for i, seat in enumerate(self.seats) if i != self.human):
            return say("undo.no_bots")
        if True not in self.chosen:
            return say("undo.nothing")
        last = len(self.chosen) - 1 - self.chosen[::-1].index(True)
        if last < self.barrier:
            return say("undo.seen")
        taken = len(self.chosen) - last
        move = self._typed(self.game.actions[last], self.game._states[last])
        for _step in range(taken):
            self.game.pop()
            self.chosen.pop()
        since = taken - 1
        after = ngettext(" and {count} move since", " and {count} moves since", since).format(
            count=since) if since else ""
        return say("undo.done", move=move, since=after)

    def _typed(self, action: Any, before: Any) -> str:
        """A move as the player types it: its id in the table model (Fool!'s wild 1 is
        ``w1``)."""
        from bito.games.tables import table_of

        model = table_of(before.view(before.to_act))
        for choice, legal in zip(model.moves, before.view(before.to_act).legal, strict=False):
            if legal == action:
                return choice.id
        return str(action)

    def _bot_turn(self, seat: int) -> None:
        bot = self.seats[decider(self.state)].bot  # a playing dummy's controller (#57)
        if bot is None:
            raise ValueError(f"seat {seat} has neither a bot nor the human")
        self._play(bot.choose(self.state.view(seat)))

    def _screen(self, seat: int) -> str:
        from bito.tui_table import draw

        return draw(self.model(seat), [shown(label) for label in self._seat_labels(seat)])

    def _seat_labels(self, seat: int) -> list[str]:
        """The names on the screen; a seat the human plays for (#57's dummy) is his own."""
        return list(self.labels)

    def _numbered(self, seat: int) -> list[Any]:
        """The legal moves in the order the screen numbers them (the table model's)."""
        from bito.tui_table import ordered

        legal = list(self.state.view(seat).legal)
        return [legal[i] for i in ordered(self.model(seat))]

    def _human_turn(self) -> str | None:
        """Ask until a legal move is played; return a reason string if the user leaves."""
        state = self.state
        # On the dummy's turn its controller acts from the dummy's seat (#57).
        seat = state.to_act
        self.out("")
        self.out(self._screen(seat))
        if self.hint is not None:
            self.out(self._hint_line(state.view(seat)))
        while True:
            try:
                text = self.input("> ")
            except EOFError:
                self.out("")
                return N_("input ended")
            except KeyboardInterrupt:
                self.out("")
                return N_("interrupted")
            word = command_word(text)
            if not word:
                continue
            if word in QUIT_WORDS:
                return N_("you quit")
            if word in HELP_WORDS:
                self.out(self.words.help(state, self.save_path is not None)
                         + self._table_rules(seat))
                continue
            if word in MOVES_WORDS:
                self.out(self._screen(seat))
                continue
            if word in UNDO_WORDS:
                said = self.undo()
                self.out(said)
                if self.state is not state:  # it went back
                    return None  # the loop shows the position it went back to
                continue
            if word in HINT_WORDS:
                self.out(self._hint_line(state.view(seat)))
                continue
            numbered = self._numbered(seat)
            if word.isdigit():
                if not 1 <= int(word) <= len(numbered):
                    self.out(say("refused", why=_("choose 1 to {count}, not {n}").format(
                        count=len(numbered), n=word)) + self._wild_hint())
                    continue
                self._play(numbered[int(word) - 1], chosen=True)
                return None
            try:
                action = self.words.read(text, state)
            except BitoError as e:  # whatever the engine says of a move, never a traceback
                self.out(self.words.refusal(text, state, e))
                continue
            self._play(next((a for a in numbered if a == action), action), chosen=True)
            return None

    def _table_rules(self, seat: int) -> str:
        """The rules of play the table model names for this game (China fool's one card
        taken, Mau-Mau's wild cards...), after the help; in another language only those the
        catalogue translates."""
        from bito.tui_table import said

        notes = [said(n) for n in self.model(seat).vocabulary.notes]
        notes = [n for n in notes if n]
        if not notes:
            return ""
        return "\n" + _("At this table:") + "".join(f"\n  - {n}" for n in notes)

    def _wild_hint(self) -> str:
        """After a bad move number: how the wild cards of the hand are typed, where their
        notation is not their face (Fool!'s wild 1 is ``w1``)."""
        hand = self.model().zone("hand")
        wild = {c.text: c.label for c in (hand.cards if hand is not None else ())
                if c.wild and c.text != c.label}
        return "".join(" " + _("(type {text} for the {card})").format(text=t, card=label)
                       for t, label in sorted(wild.items()))

    def _hint_line(self, view: Any) -> str:
        """The in-game ``hint``: the ``--hint`` helper, else one made on first use."""
        helper = self.hint
        if helper is None and self.hinter is not None:
            self.out(say("hint.thinking"))
            helper = self._asked = self.hinter()
            self.hinter = None
        elif helper is None:
            helper = self._asked
        if helper is None:
            return say("hint.none")
        try:
            return engine_words(helper(view))
        except Exception as e:  # an optional helper: its failure must not end the game
            return say("hint.failed", why=f"{type(e).__name__}: "
                       f"{' '.join(str(e).split())[:120]}")

    def _show_result(self) -> None:
        from bito.tui_table import final_lines

        state = self.state
        self.out("")
        self.out(_("Game over. Final position:"))
        labels = [shown(label) for label in self.labels]
        hands = [self.model(s) for s in range(state.players)]
        self.out(final_lines(self.model(), hands, labels))
        for line in self.words.result(state, self.names, self.labels):
            self.out(line)
        self.out(verdict(self.model(), self.human))

    def _save(self) -> Path | None:
        if self.save_path is None:
            return None
        from bito.record import record_from_game

        text = record_from_game(self.game, self.labels, spec=self.spec or None,
                                people=[self.human]).to_jsonl()
        write_record(self.save_path, text)
        self.out(ngettext("Game saved to {path} ({n} move). Replay it with: bito replay {path}",
                          "Game saved to {path} ({n} moves). Replay it with: bito replay "
                          "{path}", len(self.game)).format(path=self.save_path,
                                                          n=len(self.game)))
        if self.state.is_over:
            self.out(_("See where it was won and lost: bito review {path}").format(
                path=self.save_path))
        return self.save_path


def _seen(model: TableModel) -> set[int]:
    """The cards a seat's table model shows, wherever they lie."""
    return {c.code for c in model.cards()}


def write_record(path: Path, text: str) -> None:
    """Write a record for ``--save``; a failure (a full disk, a vanished folder) is a
    :class:`SaveError` naming the file, for the command to report on stderr."""
    try:
        with path.open("w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise SaveError(_("--save {path}: cannot write the record: {why}").format(
            path=path, why=e.strerror or type(e).__name__)) from None


def render_full(state: DurakState, names: Sequence[str]) -> str:
    """The whole position, every hand face up, with seat names: for replays and the end of a
    game (never shown to a player while the game is on)."""
    names = [shown(n) for n in names]
    words = engine_words(state_trump_words(state))
    lines = [_("{trump}   stock {stock}   discard {discard}   bout {bout}   phase {phase}"
               ).format(trump=words, stock=len(state.stock),
                        discard=state.discard.bit_count(), bout=state.bout + 1,
                        phase=_(PHASE_WORDS.get(state.phase_name, state.phase_name)))]
    view = state.view(0)
    lines += table_lines(view)
    width = max(len(n) for n in names)
    for seat in range(state.players):
        role = _roles(view, seat)
        trump = state.deal.trump  # (with trumps by seat, each hand's own)
        hand = hand_text(state.hands[seat], min(trump.suits_of(seat)) if trump.varies
                         else state.trump_suit)
        lines.append(f"  {names[seat]:<{width}}  {engine_words(hand)}{role}")
    return "\n".join(lines)


def losing_team(loser: int | None, teams: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The seats of the fool's team in a partnership game (#53-55), or none."""
    for members in teams:
        if loser in members and len(members) > 1:
            return tuple(members)
    return ()


def result_text(loser: int | None, draw: bool, order: Sequence[int],
                names: Sequence[str], reason: str = "",
                teams: Sequence[Sequence[int]] = ()) -> str:
    """The result line shared by ``play`` and ``replay`` (so a replay can be checked against
    the game it records)."""
    names = [shown(n) for n in names]
    if draw or loser is None:
        verdict = engine_words(outcome_text(None, True, names, reason))
    else:
        who = names[loser]
        verdict = _("You are the fool (дурак).") if is_you(who) else \
            _("{name} is the fool (дурак).").format(name=who)
        for members in teams:
            if loser in members and len(members) > 1:  # #53-55: the fool's partners lose too
                loses = (_("Your team loses: {names}.") if any(is_you(names[m]) for m in members)
                         else _("Their team loses: {names}."))
                verdict += " " + loses.format(names=", ".join(names[m] for m in members))
    # in a partnership game the fool's partners lose with him, whatever cards they hold
    beaten = losing_team(loser, teams) or ((loser,) if loser is not None else ())
    went_out = ", ".join(names[s] for s in order if s not in beaten)
    verdict = plain_words(verdict)
    return _("Result:") + f" {verdict}" + (
        " " + (_("The winning team: {names}.") if teams else
               _("Out in order: {names}.")).format(names=went_out) if went_out else "")
