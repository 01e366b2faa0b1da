"""What one seat knows, as a flat vector of named planes.

The encoder writes the vector from the seat's table model (:mod:`bito.games.tables`, the
description of a seat's view the terminal and the browser draw too), in its learner's build
(``words=False``: the facts without the words). The model is built from
:meth:`DurakState.view` (the seat's view) alone, so an observation cannot hold a card the seat
may not see: that is the whole exactness argument, and ``tests/env/test_observation.py``
checks it by re-dealing the hidden cards and comparing.

Seats are *relative*: plane ``known_1`` is the player on the seat's left (the next seat
clockwise), ``known_2`` the one after, and so on; the same for the per-seat scalars. A policy
trained from one seat therefore plays from any seat.

Card planes have one entry per card of the pack (in code order, as
:attr:`ActionCodec.cards <bito.env.codec.ActionCodec.cards>`):

=================  =========================================================================
plane              1 where the card ...
=================  =========================================================================
``hand``           is in the seat's own hand
``attack_open``    lies on the table as an attack card not yet covered
``attack_covered`` lies on the table as an attack card that is covered
``defence``        lies on the table covering an attack card
``discard``        is in the discard pile (everybody saw it go there)
``known_k``        is publicly known to be in the hand of the k-th seat to the left
``trump_card``     is face up: the trump card (wherever it is now), the personal trump
                   cards turned up under the stock (#16), the turned secret card (#18)
``trump_suit``     is a trump (every card of every trump suit of the deal)
``unseen``         is none of the above: in a hidden slot of another hand or in the stock
=================  =========================================================================

Scalar groups (values in [0, 1]): ``hand_counts`` (per relative seat, divided by the pack
size), ``stock`` (cards left and whether the face-up trump card is still under the stock),
``discard_count``, ``role`` (the seat is attacker, defender, leader, to act; the defender has
said *take*), ``phase`` (lead, defend, throw, over, and give in games with joker gifts; one-hot),
``to_act``, ``attacker``, ``defender`` and ``out`` (relative-seat one-hots / flags), ``bout``
(bout number / 100, capped at 1) and, with personal trumps (#16), ``own_trumps`` (each
relative seat's suit, one-hot). Blocks that only some rules need are present only under those
rules, so the vector of the base games stays the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from bito.cards import SUIT_NAMES
from bito.env._optional import require
from bito.env.codec import ActionCodec, codec_for, durak_rules
from bito.env.numbering import blank_vector, lay_out
from bito.games.durak.phases import PHASE_NAMES
from bito.games.tables.durak import table_model
from bito.games.tables.model import Card, TableModel
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak import DurakView

np: Any = require("numpy", "bito.env")

#: Each Durak phase's number (the ``phase`` plane's order), by the table model's name of it.
PHASES: dict[str, int] = {name: i for i, name in enumerate(PHASE_NAMES)}


class ObservationEncoder:
    """Encodes a :class:`~bito.games.durak.DurakView` for a rules object and seat count."""

    def __init__(self, rules: Rules | str, players: int) -> None:
        self.rules = durak_rules(rules)
        self.players = players
        self.codec: ActionCodec = codec_for(self.rules)
        d = len(self.codec.cards)
        self._card_pos = np.full(160, -1, dtype=np.int64)
        for i, c in enumerate(self.codec.cards):
            self._card_pos[c] = i
        self._pack = float(self.rules.card_count)
        # The trump plane depends only on the trump suits: made once per suit set.
        self._trump_planes: dict[tuple[str, ...], list[int]] = {}
        pieces: list[tuple[str, int]] = [
            ("hand", d), ("attack_open", d), ("attack_covered", d), ("defence", d),
            ("discard", d),
            *((f"known_{k}", d) for k in range(1, players)),
            ("trump_card", d), ("trump_suit", d), ("unseen", d),
            ("hand_counts", players), ("stock", 2), ("discard_count", 1), ("role", 5),
            # lead, defend, throw, over; and give, in games with joker gifts (#24)
            ("phase", 5 if self.rules.specials_joker_gifts else 4),
            ("to_act", players), ("attacker", players), ("defender", players),
            ("out", players), ("bout", 1),
        ]
        if self.rules.trump_per_player:
            pieces.append(("own_trumps", 4 * players))  # #16: each relative seat's suit
        self.planes, self.size = lay_out(pieces)
        self._starts = {name: plane.start for name, plane in self.planes.items()}
        self._where = self._card_pos.tolist()  # a card's place in the pack, by its code
        self._cards = d
        self._phases = self.planes["phase"].stop - self.planes["phase"].start
        self._own_trumps = "own_trumps" in self.planes

    # --- encoding ------------------------------------------------------------------------------

    def _trump_ones(self, trumps: tuple[str, ...]) -> list[int]:
        """The entries of the ``trump_suit`` plane set for the trump suits named (made once
        per suit set)."""
        ones = self._trump_planes.get(trumps)
        if ones is None:
            suits = {SUIT_NAMES.index(t) for t in trumps}
            start = self.planes["trump_suit"].start
            ones = self._trump_planes[trumps] = [
                start + i for i, c in enumerate(self.codec.cards) if (c % 80) // 16 in suits]
        return ones

    def encode(self, view: DurakView, out: Any = None) -> Any:
        """The observation of ``view`` as a ``float32`` vector of length :attr:`size`,
        written from the seat's table model (the learner's build, :func:`table_model`
        with ``words=False``)."""
        if view.players != self.players:
            raise ValueError(f"encoder for {self.players} players got a view of "
                             f"{view.players}")
        return self.encode_table(table_model(view, words=False), out)

    def encode_table(self, table: TableModel, out: Any = None) -> Any:
        """The observation of a seat's Durak table model (see the module docstring).

        Every entry that is 1 is collected first and written in one go: a learner encodes
        at every step, and one scatter costs less than one per plane."""
        obs = blank_vector(self.size, out)
        at = self._starts
        where = self._where
        n = self.players
        me = table.seat
        ones: list[int] = []
        seen: list[int] = []  # pack positions of the cards the seat has seen

        def put(name: str, cards: Iterable[Card]) -> None:
            spots = [where[c.code] for c in cards]
            start = at[name]
            ones.extend([start + i for i in spots])
            seen.extend(spots)

        hand, pairs, stock, discard = table.zones[:4]  # the Durak model's first four zones
        seats = table.seats
        put("hand", hand.cards)
        open_cards: list[Card] = []
        covered: list[Card] = []
        covers: list[Card] = []
        for pair in pairs.pairs:
            if pair.cover is not None:
                covered.append(pair.attack)
                covers.append(pair.cover)
            elif pair.face_down:  # #59: covered face down, the cover unseen
                covered.append(pair.attack)
            else:
                open_cards.append(pair.attack)
        put("attack_open", open_cards)
        put("attack_covered", covered)
        put("defence", covers)
        put("discard", table.discarded)
        for k in range(1, n):
            put(f"known_{k}", seats[(me + k) % n].known)
        trump_card = table.trump_card
        put("trump_card", table.face_up)
        if trump_card is not None:  # shown wherever it is, seen while it lies under the stock
            ones.append(at["trump_card"] + where[trump_card.code])
        if stock.top is not None:
            seen.append(where[stock.top.code])
            ones.append(at["stock"] + 1)
        trumps = table.vocabulary.trumps
        if trumps:
            ones.extend(self._trump_ones(trumps))
        unseen = at["unseen"]
        visible = set(seen)
        ones.extend([unseen + i for i in range(self._cards) if i not in visible])
        role = at["role"]
        ones.extend([role + i for i, flag in enumerate((
            table.attacker == me, table.defender == me, table.leader == me,
            table.to_act == me, table.taking)) if flag])
        ones.append(at["phase"] + min(PHASES[table.phase], self._phases - 1))
        for name, seat in (("to_act", table.to_act), ("attacker", table.attacker),
                           ("defender", table.defender)):
            if 0 <= seat < n:
                ones.append(at[name] + (seat - me) % n)
        ones.extend([at["out"] + (s.seat - me) % n for s in seats if s.out])
        if self._own_trumps and seats[0].trump:
            start = at["own_trumps"]
            ones.extend([start + 4 * k + SUIT_NAMES.index(seats[(me + k) % n].trump)
                         for k in range(n)])
        obs[ones] = 1.0
        pack = self._pack
        obs[self.planes["hand_counts"]] = [seats[(me + k) % n].cards / pack for k in range(n)]
        obs[at["stock"]] = stock.count / pack
        obs[at["discard_count"]] = discard.count / pack
        obs[at["bout"]] = min(table.bout - 1, 100) / 100.0
        return obs

    def split(self, obs: Any) -> dict[str, Any]:
        """The named planes of an observation (views into ``obs``)."""
        return {name: obs[s] for name, s in self.planes.items()}

    def __repr__(self) -> str:
        return (f"ObservationEncoder({self.rules.changed_options()!r}, players={self.players}, "
                f"size={self.size})")
