"""#58 ``blind_face_out`` under random play: the core invariants, and exact views.

Random games of ``podkidnoy+blind_face_out`` and ``perevodnoy+blind_face_out`` (S1:76) at
every seat count: cards are conserved, every listed move is accepted and nothing else is,
games end, hands stay in a consistent position order, and no seat ever sees a card of its own
hand: not in any field of its view, not in its censored position, not in the log as it sees
it (a played card is turned up, so the log may name it once it lies on the table).
"""

from __future__ import annotations

import random
import re
from dataclasses import fields

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.cards import cards_of, parse_card
from bito.errors import IllegalActionError
from bito.games.durak import DurakView, new_game, parse_action
from bito.games.durak.blind import FaceOut, hand_order
from bito.games.durak.bout_extras import Extras
from bito.games.durak.dummy import TossingDummy
from bito.games.durak.exchange import Chosen
from bito.games.family import seen_by
from bito.notation import parse_position, position_text
from conftest import assert_conserved, random_walk

#: DurakView fields that hold card bitmasks, tuples of bitmasks, or tuples of cards: each is
#: checked against the seat's own hand.
MASKS = {"hand", "seen_discard", "stock_face_up"}
MASK_TUPLES = {"known"}
CARD_TUPLES = {"attack", "defence"}
#: Fields that name no card of anybody's hand: rules, counts, seats, phases, flags, the beat
#: table (a fact of the rules, the same for every position), the outcome; ``trump_card`` is
#: the card turned up for all at the deal (its owner saw it face up before drawing it).
NO_HAND_CARDS = {"seat", "players", "rules", "hand_counts", "trump_suit", "trumps",
                 "trump_card", "trump_card_in_stock", "stock_count", "discard_count", "phase",
                 "to_act", "attacker", "leader", "defender", "taking", "bout", "out",
                 "outcome", "beats", "decider", "uncovered", "table_ranks"}
#: ``uncovered`` is a count; ``table_ranks`` a rank mask (every card of a rank on the table,
#: whoever holds it: it names ranks, not cards). The rules' records (``extensions``) are read
#: by type below: #56's dummy cards, #31's choice, #58's hands by position, and the bout
#: memory of Variants II (``bout_extras.Extras``); #53-57's seats, the tallies, a gift's
#: counts, #16's own trump suits and #18's turned secret card name no card of a hand.
EXTENSIONS = {"extensions"}
CARD = re.compile(r"[2-9TJQKA][cdhs]")


def test_every_view_field_is_classified() -> None:
    """A field added to DurakView later must be classified here before this test passes."""
    names = {f.name for f in fields(DurakView)}
    assert names == (MASKS | MASK_TUPLES | CARD_TUPLES | NO_HAND_CARDS | EXTENSIONS
                     | {"legal"})


def view_cards(view: DurakView) -> set[int]:
    """Every card a view names, field by field (see the sets above)."""
    out: set[int] = set()
    for name in MASKS:
        out |= set(cards_of(getattr(view, name)))
    for name in MASK_TUPLES:
        for m in getattr(view, name):
            out |= set(cards_of(m))
    for name in CARD_TUPLES:
        out |= {c for c in getattr(view, name) if c >= 0}
    dummy = view.extension(TossingDummy)
    chosen = view.extension(Chosen)
    out |= set(cards_of((dummy.hand if dummy else 0) | (chosen.cards if chosen else 0)))
    face_out = view.extension(FaceOut)
    for row in face_out.hand_order if face_out else ():
        out |= set(row)
    ex = view.extension(Extras)
    if ex is not None:
        for m in (ex.tried, ex.stock_plays, ex.own_covers, *ex.owned):
            out |= set(cards_of(m))
        out |= {c for c in (ex.shown, *ex.counter, *ex.counter_cover) if c >= 0}
    for a in view.legal:
        out |= {c for c in a.cards if c >= 0}
        if a.target >= 0:
            out.add(a.target)
    return out


def censored_cards(text: str) -> set[int]:
    """The cards a censored position names in its card fields."""
    out: set[int] = set()
    for key in ("stock", "hands", "known", "table", "discard"):
        found = re.search(rf"\b{key}=(\S+)", text)
        if found:
            out |= {parse_card(m) for m in CARD.findall(found.group(1))}
    return out


@settings(max_examples=14, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.integers(2, 6), st.sampled_from(("podkidnoy", "perevodnoy")))
def test_random_face_out_games_keep_the_invariants_and_hide_each_own_hand(
        seed: int, players: int, base: str) -> None:
    s = new_game(f"{base}+blind_face_out", players=players, seed=seed)
    rng = random.Random(seed)
    trump = s.deal.trump_card
    steps = 0
    for before, action, after in random_walk(s, rng):
        steps += 1
        assert_conserved(after)
        mover = before.to_act
        table_now = set(after.attack) | {d for d in after.defence if d >= 0}
        turned = table_now | set(after.last_bout) | set(cards_of(after.discard))
        for seat in range(players):
            own = set(cards_of(after.hands[seat])) - {trump}
            order = hand_order(after, seat)
            assert set(order) == set(cards_of(after.hands[seat])) and len(order) == len(
                set(order))
            assert not view_cards(after.view(seat)) & own, (seat, position_text(after))
            if steps % 7 == 0:
                assert not censored_cards(position_text(after, seat)) & own
            # The log as this seat sees the move: it may name the turned-up card only.
            seen = seen_by(before, action, seat)
            named = {c for c in getattr(seen, "cards", ()) if c >= 0}
            assert named <= turned | set(cards_of(before.hands[mover] & ~after.hands[mover]))
        # legal == accepted: a position beyond the hand, or a seen card, is refused.
        if steps % 11 == 0 and not after.is_over:
            size = after.hands[after.to_act].bit_count()
            for text in (f"#{size + 1}", "take" if after.phase_name == "lead" else "#0x"):
                try:
                    act = parse_action(text)
                except Exception:
                    continue
                if act not in after.legal_actions():
                    try:
                        after.apply(act)
                    except IllegalActionError:
                        pass
                    else:
                        raise AssertionError(f"{text} accepted but not listed")
            if steps % 33 == 0:
                text = position_text(after)
                assert position_text(parse_position(text)) == text
    assert after.is_over


def test_every_listed_move_is_accepted_along_a_game() -> None:
    """legal ⇔ accepted, exhaustively along one game per base: every listed move applies."""
    for base in ("podkidnoy", "perevodnoy"):
        s = new_game(f"{base}+blind_face_out", players=3, seed=21)
        rng = random.Random(21)
        for before, _, _ in random_walk(s, rng):
            if before.bout > 6:
                break
            for act in before.legal_actions():
                before.apply(act)
