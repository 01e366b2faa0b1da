"""Re-deal the cards a seat cannot see: another world that looks the same from that seat.

Used by the OpenSpiel adapter (``resample_from_infostate``, which ISMCTS calls) and by the
observation-exactness tests: a seat's observation must not change when the hidden cards are
dealt differently.

Hidden from a seat are the other hands' cards that are not publicly known, every card of the
stock except the face-up ones (the trump card lying under it), and the secret card of #18 while
it lies face down. Those cards are shuffled and put back into the same slots: every hand keeps
its size and its known cards, the stock keeps its length and its face-up cards in place.
The dummy's hand (#56, the last entry of ``hands``) is hidden from every seat but its
controller's (unless ``dummy.visible_to=all``), and face-down covers (#59) from every seat but
the defender's: they are re-dealt too.
"""

from __future__ import annotations

import dataclasses
import random

from bito.games.durak import DurakState
from bito.games.durak.dummy import dummy_controller
from bito.games.durak.position_stock import BOOKS
from bito.games.durak.setup import trumps_of


def hidden_slots(state: DurakState, seat: int) -> tuple[list[int], list[int], list[int]]:
    """(the hidden cards, per seat how many of its cards are hidden, stock positions hidden)."""
    pool: list[int] = []
    counts = [0] * len(state.hands)
    for s, (hand, known) in enumerate(zip(state.hands, state.known, strict=True)):
        if s == seat or (s == state.players and _dummy_seen(state, seat)):
            continue
        hidden = hand & ~known & ~_passed(state, seat)
        counts[s] = hidden.bit_count()
        while hidden:
            low = hidden & -hidden
            pool.append(low.bit_length() - 1)
            hidden ^= low
    face_up = state.deal.trump.face_up
    positions = [i for i, c in enumerate(state.stock) if not face_up >> c & 1]
    pool += [state.stock[i] for i in positions]
    if _secret_face_down(state):
        pool.append(state.deal.trump.hidden)
    pool += _face_down_covers(state, seat)
    return pool, counts, positions


def _passed(state: DurakState, seat: int) -> int:
    """#31: the hand ``seat`` passed on at the last exchange, which he still knows."""
    books = BOOKS.of(state)
    return books.passed[seat] if books is not None else 0


def _dummy_seen(state: DurakState, seat: int) -> bool:
    """Does ``seat`` see #56's dummy hand?"""
    deal = state.deal
    return seat == dummy_controller(deal) or deal.rules.dummy_visible_to == "all"


def _face_down_covers(state: DurakState, seat: int) -> list[int]:
    """#59: the covers lying face down, as far as ``seat`` cannot see them."""
    if not state.rules.defense_face_down or seat == state.defender:
        return []
    return [d for d in state.defence if d >= 0]


def _secret_face_down(state: DurakState) -> bool:
    """Is #18's secret card still lying face down, out of the stock?"""
    return (state.deal.trump.hidden >= 0 and bool(getattr(state, "aside", 0))
            and not getattr(state, "revealed", True))


def redeal(state: DurakState, seat: int, rng: random.Random) -> DurakState:
    """A copy of ``state`` whose cards hidden from ``seat`` are shuffled into their slots."""
    pool, counts, positions = hidden_slots(state, seat)
    rng.shuffle(pool)
    world = state.copy()
    at = 0
    for s, k in enumerate(counts):
        if s == seat or not k:
            continue
        hand = state.hands[s] & (state.known[s] | _passed(state, seat))
        for c in pool[at:at + k]:
            hand |= 1 << c
        at += k
        world.hands[s] = hand
    for i in positions:
        world.stock[i] = pool[at]
        at += 1
    if _secret_face_down(state):
        secret = pool[at]
        deal = state.deal
        world.deal = dataclasses.replace(deal, trump=trumps_of(
            deal.rules, deal.trump_card, hidden=secret, face_up=deal.trump.face_up))
        world.aside = (state.aside & ~(1 << deal.trump.hidden)) | 1 << secret
        at += 1
    if _face_down_covers(state, seat):
        for i, d in enumerate(state.defence):
            if d >= 0:
                world.defence[i] = pool[at]
                at += 1
        world.table_mask = -1  # rebuilt from the lists when the bout ends
    world.forget_legal()
    return world
