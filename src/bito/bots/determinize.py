"""Worlds a seat cannot rule out: full game states rebuilt from one seat's view.

A search bot never sees the hidden cards, so it plays many *possible worlds*: full states that
agree with everything its seat has seen. A world keeps every public fact of the view (the table,
the discard pile, hand sizes, cards publicly known to sit in a hand, the face-up trump card under
the stock) and deals the unseen cards at random into the hidden parts of the other hands and the
stock. The search then plays each world as an ordinary perfect-information game with the
engine's own rules, so there is no per-variant code here.

Two facts of the engine state are not in a view and are filled in with their most likely value:
the count of throwers who passed in a row during a throw round (0: everyone may still throw), and
the match context (the first deal of a match unless the seat's legal moves say otherwise).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from bito.bots.tracking import CardTracker, table_mask
from bito.cards import MATCH_MASKS, cards_of
from bito.games.durak import Action, DurakState, DurakView
from bito.games.durak.actions import BELIEVE, DOUBT
from bito.games.durak.believe import CALL_PHASE, FACE_DOWN, honest
from bito.games.durak.bout_extras import EXTRAS, Extras
from bito.games.durak.dummy import TossingDummy
from bito.games.durak.joker_gifts import rebuild as rebuild_gift
from bito.games.durak.setup import Deal, MatchContext, rule_facts, trumps_of
from bito.games.durak.state import LEAD, THROW, closes, thrower_order

COVER_HONESTY = 0.9
"""#59: how often a defender who can cover every attack card honestly does so in the worlds
(the rest, and whenever he cannot, his face-down covers are any cards of his: a bluff)."""


@dataclass
class WorldTemplate:
    """What every world of one decision shares: the public part of the state."""

    view: DurakView
    base: DurakState
    #: Per seat, cards publicly known to be in that hand (the seat's own hand for itself).
    fixed: tuple[int, ...]
    #: Per seat, how many cards of the hand are hidden from this seat.
    hidden: tuple[int, ...]
    #: Every card that could be in a hidden slot (other hands' hidden cards and the stock).
    pool: tuple[int, ...]
    #: How many stock cards are face down.
    stock_hidden: int
    #: The face-up stock cards, bottom first.
    face_up: tuple[int, ...] = ()
    #: A card everyone saw go back on top of the stock (#83), else empty.
    top: tuple[int, ...] = ()
    #: Places in ``defence`` where a cover lies face down (#59): filled from the pool too.
    face_down: tuple[int, ...] = ()

    def sample(self, rng: random.Random) -> DurakState:
        """One world consistent with the view: drawn uniformly, except that face-down covers
        (#59) seen by anyone but their defender are modelled (:meth:`model_covers`)."""
        pool = list(self.pool)
        rng.shuffle(pool)
        if self.face_down and self.view.seat != self.view.defender:
            self.model_covers(pool, rng)
        return self.build(pool)

    def model_covers(self, order: list[int], rng: random.Random) -> bool:
        """#59: make the face-down covers of a dealt ``order`` honest as often as a defender
        who covers honestly whenever he can would make them (:data:`COVER_HONESTY`), in
        place. His hand before covering is his hidden cards plus the covers; when it holds a
        cover for every face-down place (cheapest first, hardest attack card first) he used
        those with that chance, else the covers stay as dealt (a bluff: any cards of his).
        Uniform worlds make nearly every cover a bluff, so the search doubted covers an
        honest defender laid (issue 20, item 5). Whether the covers were made honest."""
        defender = self.view.defender
        start = sum(self.hidden[:defender])
        size = self.hidden[defender]
        places = sum(self.hidden)
        f = len(self.face_down)
        cards = order[start:start + size] + order[places:places + f]
        if rng.random() >= COVER_HONESTY:
            return False
        beats = self.view.beats
        attack = self.view.attack
        todo = sorted(self.face_down,
                      key=lambda i: sum(1 for c in cards if beats[attack[i]] >> c & 1))
        free = list(cards)
        chosen: dict[int, int] = {}
        for i in todo:
            covers = [c for c in free if beats[attack[i]] >> c & 1]
            if not covers:
                return False  # he could not cover honestly: a bluff, as dealt
            best = max(covers, key=lambda c: (beats[c].bit_count(), -c))  # the weakest
            chosen[i] = best
            free.remove(best)
        order[start:start + size] = free
        order[places:places + f] = [chosen[i] for i in self.face_down]
        return True

    def build(self, order: list[int]) -> DurakState:
        """The world that deals ``order`` (a permutation of :attr:`pool`) to the hidden hand
        slots in seat order, then to the stock from its top down."""
        s = self.base.copy()
        hands = list(self.fixed)
        at = 0
        for seat, h in enumerate(self.hidden):
            if h:
                m = 0
                for c in order[at:at + h]:
                    m |= 1 << c
                hands[seat] |= m
                at += h
        s.hands = hands
        if self.face_down:
            # #59: a face-down cover may be any card its defender held, a bluff included.
            defence = list(s.defence)
            for i in self.face_down:
                c = order[at]
                at += 1
                defence[i] = c
                s.table_mask |= 1 << c
                s.table_ranks |= MATCH_MASKS[c]
            s.defence = defence
        # stock[0] is drawn last (the face-up trump while it lies there); stock[-1] is the top.
        rest = order[at:at + self.stock_hidden]
        # Face-up stock cards (the trump card under the stock, #16's turned cards) stay at
        # the bottom, the trump card lowest; pool cards beyond the slots are set aside (#18).
        s.stock = [*self.face_up, *rest, *self.top]
        return s


def template(view: DurakView, tracker: CardTracker | None = None) -> WorldTemplate:
    """The shared public part of every world for ``view`` (its seat must be to act)."""
    if tracker is None:
        tracker = CardTracker()
    tracker.update(view)
    n = view.players
    fixed = list(tracker.known)
    fixed[view.seat] = view.hand
    hidden = [0] * n
    for s in range(n):
        if s != view.seat:
            hidden[s] = view.hand_counts[s] - fixed[s].bit_count()
    dummy = view.extension(TossingDummy)
    if dummy is not None:
        # #56: the tossing dummy's hand is one more hand (after the players'): the cards of
        # it this seat may see, and the rest hidden like an opponent's.
        fixed.append(dummy.hand)
        hidden.append(dummy.count - dummy.hand.bit_count())
    face = cards_of(view.stock_face_up)
    if view.trump_card in face:
        face.remove(view.trump_card)
        face.insert(0, view.trump_card)
    seen = (view.extension(Extras) or Extras()).shown  # #83: seen on top of the stock
    top = ((seen,) if seen >= 0 and view.stock_count > len(face) and seen not in face else ())
    stock_hidden = view.stock_count - len(face) - len(top)
    pool = tuple(c for c in cards_of(tracker.unseen) if c not in top)
    face_down = tuple(i for i, d in enumerate(view.defence) if d == FACE_DOWN)
    if len(pool) < sum(hidden) + len(face_down) + stock_hidden:
        raise ValueError(f"view of seat {view.seat} does not add up: {len(pool)} unseen cards "
                         f"for {sum(hidden)} hidden hand cards, {len(face_down)} face-down "
                         f"covers and {stock_hidden} in the stock")
    base = _base_state(view, 0)
    if view.bout == 0 and view.my_turn and view.legal:
        # A rule on the first bout of a deal may depend on the match (#78): pick the match
        # context under which the seat has exactly the legal moves it was given.
        probe = _probe(base, fixed, hidden, pool, view, top, face_down)
        if set(probe.legal_actions()) != set(view.legal):
            base = _base_state(view, 1)
    return WorldTemplate(view, base, tuple(fixed), tuple(hidden), pool, stock_hidden,
                         tuple(face), top, face_down)


CALL_WORLDS = 200
"""Worlds sampled for a #59 call (:func:`call_from_worlds`): the honest share to about ±3.5
points."""


def call_from_worlds(t: WorldTemplate, rng: random.Random) -> Action | None:
    """#59: the attacker's believe or doubt from the share of modelled worlds whose covers are
    honest (:meth:`WorldTemplate.model_covers`), or None when this is no call. A wrong call
    costs the caller the table either way; a right one ends the bout (believe) or hands the
    defender the table (doubt), so the call follows the likelier side. Why not the
    playouts: over the same worlds they believed only 242 of 373 honest covers (68.2 % of
    443 calls right at 100 playouts, against 93.7 % for this rule on the same positions;
    ``tools/call_accuracy.py``, docs/history.md)."""
    view = t.view
    kinds = {a.kind: a for a in view.legal}
    if view.phase != CALL_PHASE or BELIEVE not in kinds or DOUBT not in kinds:
        return None
    fair = sum(honest(t.sample(rng)) for _ in range(CALL_WORLDS))
    return kinds[BELIEVE] if 2 * fair >= CALL_WORLDS else kinds[DOUBT]


def _probe(base: DurakState, fixed: list[int], hidden: list[int], pool: tuple[int, ...],
           view: DurakView, top: tuple[int, ...], face_down: tuple[int, ...]) -> DurakState:
    stock_hidden = len(pool) - sum(hidden) - len(face_down)
    face = [view.trump_card] if view.trump_card_in_stock else []
    t = WorldTemplate(view, base, tuple(fixed), tuple(hidden), pool, stock_hidden, tuple(face),
                      top, face_down)
    return t.build(list(pool))


def _base_state(view: DurakView, game_number: int) -> DurakState:
    """The public part of the state (hands and stock are filled in per world)."""
    rules = view.rules
    n = view.players
    trump = trumps_of(rules, view.trump_card)
    if view.trumps and view.trumps != trump.suits:  # (the seat's trumps now: a turned card's)
        trump = replace(trump, suits=view.trumps)
    match = MatchContext(game_number=game_number, dealer=(view.attacker - 1) % n)
    dummy = view.extension(TossingDummy)
    slots = n + 1 if dummy is not None else n  # #56: the dummy's hand comes last
    deal = Deal(rules=rules, players=n, seed=0, match=match, dealer=(view.attacker - 1) % n,
                trump_suit=view.trump_suit, trump_card=view.trump_card,
                hands=tuple([0] * slots), stock=(), first_attacker=view.attacker,
                first_defender=view.defender, shown=tuple([0] * slots), under_fool=False,
                trump=trump,
                facts=tuple(fact.played_by(dummy.controller) for fact in rule_facts(rules, n))
                if dummy is not None else ())
    s = DurakState.start(deal)
    s.beats = view.beats
    s.known = list(view.known) + [0] * (slots - n)
    s.discard = view.seen_discard
    s.attack = list(view.attack)
    s.defence = list(view.defence)
    s.uncovered = view.uncovered
    # Which ranks are open is public; the rules decide it (#50, #51: a card laid on one's own
    # attack card opens none), so the world takes it from the view rather than recount it.
    s.table_ranks = view.table_ranks
    s.table_mask = table_mask(view)
    s.phase = view.phase
    s.to_act = view.to_act
    s.attacker = view.attacker
    s.leader = view.leader
    s.defender = view.defender
    s.taking = view.taking
    s.bout = view.bout
    s.out = list(view.out)
    s.out_mask = sum(1 << x for x in view.out)
    rebuild_gift(s, view)  # #24: a gift under way is public
    # the Variants II bout memory (who laid what, counters): public
    EXTRAS.keep(s, view.extension(Extras))
    s.closed = bool(deal.cover_closes and any(
        d >= 0 and closes(d, a, deal) for a, d in zip(view.attack, view.defence, strict=True)))
    if view.phase == THROW:
        order = thrower_order(n, view.attacker, view.defender, s.out_mask,
                              rules.throw_in_by == "neighbours")
        s.throwers = order
        s.t_idx = order.index(view.to_act) if view.to_act in order else 0
        s.passes = 0
    elif view.phase == LEAD:
        s.throwers = ()
    return s


def sample_worlds(view: DurakView, count: int, rng: random.Random,
                  tracker: CardTracker | None = None) -> list[DurakState]:
    """``count`` worlds drawn uniformly among those consistent with ``view``."""
    t = template(view, tracker)
    return [t.sample(rng) for _ in range(count)]
