"""What one seat knows, as a flat vector of named planes.

The encoder reads only :meth:`DurakState.view` (the seat's view), so an observation cannot
hold a card the seat may not see: that is the whole exactness argument, and
``tests/env/test_observation.py`` checks it by re-dealing the hidden cards and comparing.

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

from typing import TYPE_CHECKING, Any

from bito.env._optional import require
from bito.env.codec import ActionCodec, codec_for, durak_rules
from bito.env.numbering import lay_out
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak import DurakView

np: Any = require("numpy", "bito.env")


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
        # Trump planes depend only on the trump suits: cache one per suit set.
        self._trump_planes: dict[frozenset[int], Any] = {}
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
        self._all_cards = sum(1 << c for c in self.codec.cards)

    # --- encoding ------------------------------------------------------------------------------

    def _cards(self, mask: int) -> Any:
        """Positions (in pack order) of the cards of a bitmask."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return self._card_pos[out] if out else np.zeros(0, dtype=np.int64)

    def _trump_plane(self, trumps: frozenset[int]) -> Any:
        plane = self._trump_planes.get(trumps)
        if plane is None:
            plane = np.zeros(len(self.codec.cards), dtype=np.float32)
            for i, c in enumerate(self.codec.cards):
                if (c % 80) // 16 in trumps:
                    plane[i] = 1.0
            self._trump_planes[trumps] = plane
        return plane

    def encode(self, view: DurakView, out: Any = None) -> Any:
        """The observation of ``view`` as a ``float32`` vector of length :attr:`size`."""
        if view.players != self.players:
            raise ValueError(f"encoder for {self.players} players got a view of "
                             f"{view.players}")
        obs = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            obs.fill(0.0)
        p = self.planes
        n = self.players
        me = view.seat

        def card_plane(name: str, mask: int) -> None:
            if mask:
                obs[p[name].start + self._cards(mask)] = 1.0

        seen = view.hand
        card_plane("hand", view.hand)
        att_open = att_cov = cov = 0
        for a, d in zip(view.attack, view.defence, strict=True):
            if d == -3:  # #59: covered face down, the cover unseen
                att_cov |= 1 << a
            elif d < 0:
                att_open |= 1 << a
            else:
                att_cov |= 1 << a
                cov |= 1 << d
        card_plane("attack_open", att_open)
        card_plane("attack_covered", att_cov)
        card_plane("defence", cov)
        card_plane("discard", view.seen_discard)
        seen |= att_open | att_cov | cov | view.seen_discard
        for k in range(1, n):
            known = view.known[(me + k) % n]
            card_plane(f"known_{k}", known)
            seen |= known
        face_up = getattr(view, "stock_face_up", 0)  # #16's turned cards lie face up too
        secret = getattr(view, "secret_card", -1)  # #18, once turned
        shown = face_up | (1 << secret if secret >= 0 else 0)
        if view.trump_card >= 0:
            shown |= 1 << view.trump_card
            if view.trump_card_in_stock:
                seen |= 1 << view.trump_card
        card_plane("trump_card", shown)
        seen |= face_up | (1 << secret if secret >= 0 else 0)
        if view.trumps:
            obs[p["trump_suit"]] = self._trump_plane(view.trumps)
        card_plane("unseen", self._all_cards & ~seen)
        pack = self._pack
        counts = obs[p["hand_counts"]]
        for k in range(n):
            counts[k] = view.hand_counts[(me + k) % n] / pack
        stock = obs[p["stock"]]
        stock[0] = view.stock_count / pack
        stock[1] = 1.0 if view.trump_card_in_stock and view.trump_card >= 0 else 0.0
        obs[p["discard_count"]] = view.discard_count / pack
        role = obs[p["role"]]
        role[0] = view.attacker == me
        role[1] = view.defender == me
        role[2] = view.leader == me
        role[3] = view.to_act == me
        role[4] = view.taking
        phase = p["phase"]
        obs[phase.start + min(view.phase, phase.stop - phase.start - 1)] = 1.0

        def seat_onehot(name: str, seat: int) -> None:
            if 0 <= seat < n:
                obs[p[name].start + (seat - me) % n] = 1.0

        seat_onehot("to_act", view.to_act)
        seat_onehot("attacker", view.attacker)
        seat_onehot("defender", view.defender)
        for s in view.out:
            seat_onehot("out", s)
        obs[p["bout"]] = min(view.bout, 100) / 100.0
        own = getattr(view, "own_trumps", ())
        if own and "own_trumps" in p:
            start = p["own_trumps"].start
            for k in range(n):
                obs[start + 4 * k + own[(me + k) % n]] = 1.0
        return obs

    def split(self, obs: Any) -> dict[str, Any]:
        """The named planes of an observation (views into ``obs``)."""
        return {name: obs[s] for name, s in self.planes.items()}

    def __repr__(self) -> str:
        return (f"ObservationEncoder({self.rules.changed_options()!r}, players={self.players}, "
                f"size={self.size})")
