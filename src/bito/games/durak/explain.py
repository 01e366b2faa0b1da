"""Why an action is illegal, in the words of the rule it breaks.

Legality itself is decided by move generation (an action is legal exactly when it is in
``legal_actions()``); this module only finds the most specific rule to name in the error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bito.cards import (
    MATCH_MASKS,
    RANK_NAMES,
    SUIT_CHARS,
    card_str,
    cards_count,
    is_joker,
    is_special,
    is_wild,
    rank_of,
)
from bito.errors import IllegalActionError
from bito.games.durak.actions import (
    ATTACK,
    DEFEND,
    KIND_NAMES,
    PASS,
    TAKE,
    TRANSFER,
    Action,
)
from bito.games.durak.hooks import Refusal
from bito.games.durak.installed import HOOKS
from bito.games.durak.phases import Phase
from bito.games.durak.reasons import Refused

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState

_LEAD, _DEFEND, _THROW, _OVER, _GIVE = (int(p) for p in (
    Phase.LEAD, Phase.DEFEND, Phase.THROW, Phase.OVER, Phase.GIVE))


def rank_word(code: int) -> str:
    """The word for what a card matches on when thrown in or transferred: its rank, or for
    a special card the group it matches (jokers match jokers, wild cards wild cards, the mega
    card only itself, ``cards.MATCH_MASKS``). Error messages name a rank through this, so a
    joker or wild card can never make the explanation itself fail."""
    if is_joker(code):
        return "joker"
    if is_wild(code):
        return "wild card"
    if is_special(code):
        return "mega card"
    return RANK_NAMES[rank_of(code)]


def _trump_words(state: DurakState) -> str:
    suits = "".join(SUIT_CHARS[s] for s in sorted(state.trumps) if 0 <= s < len(SUIT_CHARS))
    return f"trump {suits}" if suits else "no trumps"


def explain(state: DurakState, action: Action) -> IllegalActionError:
    if not isinstance(action, Action):
        # another family's move (a prelude's ``turn``) handed on by a wrapping state: the
        # explainer must still name a rule, never fail on a kind it cannot compare
        return IllegalActionError(Refused.FOREIGN, f"{action!s} is not a move of this game")
    rules = state.deal.rules
    ph = state.phase
    seat = state.to_act
    kind = action.kind
    err = IllegalActionError
    if ph == _OVER:
        return err(Refused.GAME_OVER, "no more moves: the game has ended")
    # A variant's own rule speaks first: each hook these rules play, and the hook that owns
    # this kind of move even where these rules do not play it (to say so).
    played = state.deal.hooks.hooks
    question = Refusal(action)
    for hook in HOOKS:
        if Refusal in hook.questions and (hook in played or kind in hook.kinds):
            ruled = hook.query(state, question, None)
            if ruled is not None:
                return ruled
    hand = state.hands[seat]
    for c in action.cards:
        if not hand >> c & 1:
            return err(Refused.NOT_IN_HAND, f"seat {seat} does not hold {card_str(c)}", {"card": c})
    if kind == TAKE:
        if ph == _THROW:
            return err(Refused.TAKE_NOT_NOW,
                       "only the defender may take, while cards are uncovered")
        return err(Refused.NOTHING_TO_TAKE, "nothing to take")
    if kind == PASS:
        if ph == _LEAD:
            return err(Refused.LEAD_NO_PASS, "the attacker must open the bout; he cannot pass")
        return err(Refused.DEFENDER_PASS, "the defender must cover or take; only throwers pass")
    if kind == DEFEND:
        if ph != _DEFEND:
            return err(Refused.NOTHING_TO_COVER, "there is nothing uncovered to defend against now")
        target = action.target
        if target not in state.attack:
            return err(Refused.TARGET_GONE,
                       f"{card_str(target)} is not on the table", {"target": target})
        if state.defence[state.attack.index(target)] != -1:
            return err(Refused.TARGET_COVERED,
                       f"{card_str(target)} is already covered", {"target": target})
        return err(Refused.BEAT, f"{card_str(action.card)} does not beat "
                   f"{card_str(target)} ({_trump_words(state)})",
                   {"card": action.card, "target": target, "trumps": tuple(sorted(state.trumps))})
    if kind == TRANSFER:
        if ph != _DEFEND:
            return err(Refused.TRANSFER_NOT_NOW, "only the defender may transfer, before he covers")
        block = state.transfer_block()
        if block is not None:
            return err(block.bar, block.detail)
        want = state.transfer_rank_card()
        if is_special(want):
            return err(Refused.TRANSFER_SPECIAL,
                       f"a {rank_word(want)} on the table cannot be passed on "
                       "by a transfer (§3.3)", {"target": want})
        for c in action.cards:
            if is_special(c):
                return err(Refused.TRANSFER_SPECIAL, f"a {rank_word(c)} never transfers (§3.3)",
                           {"card": c})
            if not MATCH_MASKS[want] >> c & 1:
                return err(Refused.TRANSFER_RANK, f"a transfer card must be a {rank_word(want)}",
                           {"card": c, "target": want})
        return err(Refused.TRANSFER_NOT_HERE, "not allowed here")
    if kind != ATTACK:
        # Every other kind belongs to a rule module above, which names its own rule when the
        # rules have it; reaching here means these rules or this moment have no such move.
        name = KIND_NAMES.get(kind, "move")
        return err(Refused.NO_SUCH_MOVE, f"no {name} move is possible here")
    if ph == _DEFEND:
        return err(Refused.DEFENDER_FIRST,
                   "the defender must cover or take before anyone throws in")
    room = state.room()
    defender_cards = state.hands[state.defender].bit_count()
    if ph == _LEAD:
        shape = rules.lead_shape
        ranks = {MATCH_MASKS[c] for c in action.cards}  # jokers share a "rank" (§3.3)
        n = len(action.cards)
        if shape == "single" and n > 1:
            return err(Refused.LEAD_SHAPE, "lead exactly one card")
        if shape in ("same_rank", "same_rank_1or2") and len(ranks) > 1:
            return err(Refused.LEAD_SHAPE, "all cards of a lead must be of one rank")
        if shape == "same_rank_1or2" and n > 2:
            return err(Refused.LEAD_SHAPE, "lead one or two cards of one rank")
        if shape == "rozaliev":
            return err(Refused.LEAD_SHAPE, "lead a single card, a pair, or a pair plus one card")
        if n > rules.lead_max:
            return err(Refused.LEAD_TOO_MANY, f"at most {cards_count(rules.lead_max)} in a lead")
        if n > defender_cards:
            return err(Refused.LEAD_OVER_HAND, f"the defender holds {cards_count(defender_cards)}")
        return err(Refused.BOUT_LIMIT, f"this bout holds at most {cards_count(room)}")
    # throw-in
    if not rules.throw_in_enabled:
        return err(Refused.NO_THROW_IN, "this game has no throw-ins")
    if len(action.cards) != 1:
        return err(Refused.THROW_ONE, "throw in one card at a time")
    c = action.card
    if not state.table_ranks >> c & 1:
        on_table = tuple(x for x in (*state.attack, *state.defence) if x >= 0)
        return err(Refused.THROW_RANK, f"no {rank_word(c)} on the table",
                   {"card": c, "table": on_table})
    if state.hands[state.defender].bit_count() - state.uncovered <= 0:
        return err(Refused.THROW_OVER_HAND, f"the defender holds {cards_count(defender_cards)} and "
                   f"{state.uncovered} are uncovered")
    return err(Refused.THROW_BOUT_FULL, f"the bout already holds {len(state.attack)} attack cards")
