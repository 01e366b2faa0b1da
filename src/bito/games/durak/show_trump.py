"""Transfer by showing a trump (``transfer.show_trump``, bito's catalogue entry #96).

Many transfer tables let the defender pass the attack on without giving up a card: while no
attack card is covered, he shows the trump of the rank led and keeps it. The attack then
moves to the next player exactly as a transfer moves it (:meth:`DurakState.pass_attack_on`),
and the new defender faces the same cards. The shown trump is public from then on. A player
may show once per bout, so the attack cannot circle the table for ever on shown trumps.

The move is written ``*7s`` (typed also ``show 7s``). Everything the rule needs is here and
in its option and catalogue entry: the core knows it only as a hook.

Where the rule meets other options (decisions in docs/variants.md, #96):

* a show is a transfer: in a game without transfers there is none, and every restriction
  on transfers holds (the first bout under #78, no transfer while a trump lies on the table
  under B12), asked of the core's
  :meth:`~bito.games.durak.state.DurakState.transfer_block`;
* its window is the rule's own, "while no attack card is covered", whatever
  ``transfer.window`` says (#10's any-time transfers lay a card on open ones), and every
  attack card must be of the rank shown;
* the card limits differ, since no card is added: the next defender must hold as many cards
  as lie uncovered (not one more), and the bout's cap does not apply; he beats every card
  on the table (#11's "transfer card only" is about the card a transfer lays);
* nobody can show to a player who has gone out (#9's refusal is for cards laid);
* a player who cannot see his hand (#58) cannot show from it: the mix is refused;
* only the defender shows, on his own turn (not while #49's counter-attacked player answers).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from bito.cards import MATCH_MASKS, card_str, cards_count, cards_of, is_special, suit_of
from bito.errors import IllegalActionError, Reason, RulesError
from bito.games.durak.actions import TAKE_ACTION, Action, register_kind
from bito.games.durak.hooks import (
    Answer,
    Event,
    Hook,
    Memory,
    PositionRequest,
    Question,
    Refusal,
    Stage,
    answered,
    refused,
)
from bito.games.durak.phases import Phase
from bito.games.durak.reasons import Refused, TransferBar
from bito.i18n import N_
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState

__all__ = ["HOOK", "SHOW", "shown_this_bout", "trumps_to_show"]

#: The move: show a trump and pass the attack on.
SHOW: Final = register_kind(name="show trump", prefix="*", word="show",
                            pretty="transfer by showing the trump").kind
#: The rule's memory: the seats that have shown a trump in this bout, as a bitmask.
SHOWN: Final[Memory[int]] = Memory("shown_trump")
_DEFEND: Final = int(Phase.DEFEND)


class ShowRefused(Reason):
    """The refusal of a show of a trump (#96)."""

    SHOW_TRUMP = "show trump", N_("a transfer by showing a trump is not possible now")


def shown_this_bout(state: DurakState) -> int:
    """The seats (bitmask) that have shown a trump in the current bout."""
    return SHOWN.of(state) or 0


def _block(state: DurakState) -> tuple[Reason, str] | None:
    """Why the defender may not show a trump now, and how (None: he may, holding one)."""
    if state.phase != _DEFEND or state.to_act != state.defender:
        return ShowRefused.SHOW_TRUMP, "only the defender shows, before he covers"
    if any(d != -1 for d in state.defence):
        return TransferBar.WINDOW, "a card on the table is already covered"
    if shown_this_bout(state) >> state.defender & 1:
        return ShowRefused.SHOW_TRUMP, "each player shows a trump at most once per bout (#96)"
    block = state.transfer_block()
    if block is not None and not block.bar.is_card_limit:
        # the core's own transfer rules (transfers on, #78, B12, nobody left)
        return block.bar, block.detail
    lead = state.attack[0]
    if is_special(lead):
        return ShowRefused.SHOW_TRUMP, f"{card_str(lead)} has no trump of its rank"
    same = MATCH_MASKS[lead]
    if any(not same >> a & 1 for a in state.attack):
        return TransferBar.RANK, "the attack cards are not all of one rank"
    nxt = state.next_active(state.defender)
    if nxt == state.defender:
        return ShowRefused.SHOW_TRUMP, "nobody else is left in the game to pass the attack to"
    held = state.hands[nxt].bit_count()
    if held < state.uncovered:
        return TransferBar.NEXT_HAND, (
            f"the next defender holds {cards_count(held)}, fewer than the "
            f"{cards_count(state.uncovered)} he would have to cover")
    return None


def trumps_to_show(state: DurakState) -> int:
    """The defender's trumps of the attack rank (as a mask), the cards he may show."""
    trumps = state.trumps
    same_rank = state.hands[state.defender] & MATCH_MASKS[state.attack[0]]
    return sum(1 << c for c in cards_of(same_rank) if suit_of(c) in trumps)


class _ShowTrump(Hook):
    """``transfer.show_trump`` at the core's points: one more defence, its step, its note."""

    name = "#96 transfer by showing a trump"
    kinds = frozenset({SHOW})
    position_keys = frozenset({"shown_trump"})
    events = frozenset({Stage.BOUT_OPENED})
    questions = frozenset({Refusal})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.transfer_show_trump

    def check(self, rules: Rules, players: int) -> None:
        if rules.transfer_show_trump and not rules.deal_owner_sees_hand:
            raise RulesError("transfer.show_trump", "showing a trump needs a player who sees "
                             "his hand: it does not combine with hands held face out "
                             "(deal.owner_sees_hand=false, #58)")

    def moves(self, state: DurakState, acts: list[Action]) -> list[Action]:
        if state.phase != _DEFEND or _block(state) is not None:
            return acts
        shows = [Action(SHOW, (c,)) for c in cards_of(trumps_to_show(state))]
        if not shows:
            return acts
        at = acts.index(TAKE_ACTION) if TAKE_ACTION in acts else len(acts)
        return acts[:at] + shows + acts[at:]  # with the transfers, before the take

    def step(self, state: DurakState, action: Action) -> None:
        seat = state.defender
        state.show(seat, action.mask)  # the shown trump is public from now on
        SHOWN.keep(state, shown_this_bout(state) | 1 << seat)
        state.pass_attack_on()

    def on(self, state: DurakState, event: Event) -> None:
        if event == Stage.BOUT_OPENED and SHOWN.of(state) is not None:
            SHOWN.keep(state, None)

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        return refused(state, question, answer, self._refusal)

    def _refusal(self, state: DurakState, action: Action) -> IllegalActionError | None:
        if action.kind != SHOW:
            return None
        if not state.deal.rules.transfer_show_trump:
            return IllegalActionError(ShowRefused.SHOW_TRUMP, "these rules have no transfer by "
                                      "showing a trump (transfer.show_trump is off, #96)")
        block = _block(state)
        if block is not None:
            return IllegalActionError(*block)
        card = action.cards[0]
        if not state.hands[state.defender] >> card & 1:
            return IllegalActionError(Refused.NOT_IN_HAND, f"seat {state.defender} does not "
                                      f"hold {card_str(card)}")
        return IllegalActionError(ShowRefused.SHOW_TRUMP, f"{card_str(card)} is not the trump "
                                  f"of the attack rank, {card_str(state.attack[0])} (#96)")

    def _blocks(self, rules: Rules, cards: tuple[int, ...]
                ) -> list[tuple[str, Iterable[Action]]]:
        if not rules.transfer_show_trump:
            return []
        return [("show trump", [Action(SHOW, (c,)) for c in cards])]

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, self._write, self._read, blocks=self._blocks)

    def _write(self, state: DurakState, seat: int | None) -> list[str]:
        shown = shown_this_bout(state)
        if not shown:
            return []
        return ["shown_trump=" + ".".join(str(s) for s in range(state.deal.players)
                                          if shown >> s & 1)]

    def _read(self, state: DurakState, fields: dict[str, str], where: dict[str, int],
              text: str) -> None:
        raw = fields.get("shown_trump")
        if raw is None:
            return
        from bito.errors import InvalidNotationError

        at = where["shown_trump"]
        if not state.deal.rules.transfer_show_trump:
            raise InvalidNotationError("shown_trump: these rules have no transfer by showing "
                                       "a trump (#96)", text, at)
        mask = 0
        for part in raw.split("."):
            if not (part.isascii() and part.isdigit()) or int(part) >= state.deal.players:
                raise InvalidNotationError("shown_trump: seats that showed a trump this bout, "
                                           "like 0.2", text, at)
            mask |= 1 << int(part)
        SHOWN.keep(state, mask or None)


HOOK: Final = _ShowTrump()
