"""How a bot plays with its cards held face out (#58, ``deal.owner_sees_hand=false``).

A blind player sees every other hand, the table, the discard pile and the trump card, so he
can name the cards that are nowhere he can see: his own hand and the stock (only his hand,
once the stock is gone). Every position of his hand is equally likely to hold any of those
*unseen* cards (the view says nothing about which card sits where), so a play's chance of
being legal is the share of unseen cards that would make it legal:

* **Lead:** any card may lead, so he leads his first position (#1).
* **Defend:** a wrong cover costs what a take costs (the bout's cards, his own card coming
  back) and even ends the bout before anyone throws in more; so he never takes while he may
  try a cover. He covers the open attack card the most unseen cards beat, or transfers instead
  when a transfer is more likely to be legal than that cover.
* **Throw in:** a wrong throw-in makes him take every card on the table, a right one sheds one
  card. He throws in only when the chance ``p`` that the card matches a rank on the table
  pays for that risk: ``p >= t / (t + 1)`` with ``t`` cards on the table.

The search levels do not determinize a hand its owner cannot see (their worlds start from the
seat's own cards): :class:`~bito.bots.search.SearchBot` plays this policy in blind games.
"""

from __future__ import annotations

from bito.cards import MATCH_MASKS
from bito.games.durak import DEFEND_PHASE, LEAD, PASS_ACTION, TAKE_ACTION, Action, DurakView
from bito.games.durak.actions import BLIND_COVER, BLIND_PLAY, BLIND_TRANSFER


def unseen(view: DurakView) -> int:
    """The cards this seat cannot see anywhere: its own hand and the stock."""
    seen = view.seen_discard
    for k in view.known:
        seen |= k
    for c in (*view.attack, *view.defence):
        if c >= 0:
            seen |= 1 << c
    if view.trump_card >= 0 and view.trump_card_in_stock:
        seen |= 1 << view.trump_card
    deck = 0
    for c in view.rules.deck():
        deck |= 1 << c
    return deck & ~seen


def share(pool: int, wanted: int) -> float:
    """The chance that a card drawn from ``pool`` at random is in ``wanted``."""
    total = pool.bit_count()
    return (pool & wanted).bit_count() / total if total else 0.0


def choose(view: DurakView) -> Action:
    """The blind policy of the module docstring; always a member of ``view.legal``."""
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    pool = unseen(view)
    if view.phase == LEAD:
        plays = [a for a in legal if a.kind == BLIND_PLAY]
        return plays[0] if plays else legal[0]
    if view.phase == DEFEND_PHASE:
        covers = [a for a in legal if a.kind == BLIND_COVER and a.position == 0]
        best: tuple[float, Action] = (-1.0, TAKE_ACTION)
        for a in covers:
            p = share(pool, view.beats[a.target])
            if p > best[0]:
                best = (p, a)
        moves = [a for a in legal if a.kind == BLIND_TRANSFER and a.position == 0]
        if moves and view.attack:
            rank = 0
            for card in view.attack:
                rank |= MATCH_MASKS[card]
            if share(pool, rank) > best[0]:
                return moves[0]
        return best[1] if best[1] in legal else legal[-1]
    plays = [a for a in legal if a.kind == BLIND_PLAY and a.position == 0]
    if not plays:
        return PASS_ACTION if PASS_ACTION in legal else legal[0]
    ranks = 0
    on_table = [c for c in (*view.attack, *view.defence) if c >= 0]
    for c in on_table:
        ranks |= MATCH_MASKS[c]
    t = len(on_table)
    p = share(pool, ranks)
    return plays[0] if p >= t / (t + 1) else PASS_ACTION
