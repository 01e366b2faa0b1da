"""The observation encoders of every family as they were before they drew from the table model
(frozen here, test-only): ``test_observation_from_table.py`` proves the encoders that now read
the table model write the very same vectors, and ``tools/learner_step_speed.py`` times the two.
They read the engine's view directly and share the live encoders' plane layout."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from bito.cards import cards_of
from bito.env.bouts import PHASES, BoutsEncoder
from bito.env.cardplay import CardPlayEncoder
from bito.env.numbering import blank_vector
from bito.env.observation import ObservationEncoder
from bito.games.durak.own_trumps import OwnTrumps
from bito.games.durak.secret_trump import SecretTurned
from bito.games.family import family_for

_DURAK_PHASES = ("lead", "defend", "throw")


def _zone(zone: int | Sequence[int]) -> Iterable[int]:
    if isinstance(zone, int):
        return (c for c in range(zone.bit_length()) if zone >> c & 1)
    return zone


class _CardPlay:
    def __init__(self, enc: CardPlayEncoder) -> None:
        self.e = enc

    def cards(self, out: Any, plane: str, cards: Iterable[int]) -> None:
        where = [int(self.e._pos[c]) for c in cards]
        if where:
            out[self.e.planes[plane].start + np.asarray(where, dtype=np.int64)] = 1.0

    def seats(self, out: Any, plane: str, seat: int, values: Sequence[float]) -> None:
        n = self.e.players
        out[self.e.planes[plane]] = [values[(seat + k) % n] for k in range(n)]

    def one_hot(self, out: Any, plane: str, seat: int, who: int) -> None:
        if who >= 0:
            out[self.e.planes[plane].start + (who - seat) % self.e.players] = 1.0


def old_card_play(enc: CardPlayEncoder, view: Any) -> Any:
    """The card-play observation as it was written from the view."""
    k = _CardPlay(enc)
    out = blank_vector(enc.size, None)
    seat, n, has, d = view.seat, enc.players, enc._has, float(len(enc.codec.cards))
    k.cards(out, "hand", _zone(view.hand))
    k.seats(out, "hand_counts", seat, [c / d for c in view.hand_counts])
    k.one_hot(out, "to_act", seat, view.to_act)
    if "scores" in has:
        k.seats(out, "scores", seat, [max(-1.0, min(1.0, s / 100.0))
                                      for s in view.scores] or [0.0] * n)
    if "round" in has:
        out[enc.planes["round"].start] = min(1.0, view.round / 20.0)
    if "pile" in has:
        k.cards(out, "pile", view.pile)
    if "top" in has and view.top >= 0:
        k.cards(out, "top", [view.top])
    if "stock_count" in has:
        out[enc.planes["stock"].start] = view.stock_count / d
    if "called" in has and view.called >= 0:
        out[enc.planes["called"].start + view.called] = 1.0
    if "ace_open" in has:
        out[enc.planes["ace_open"].start] = float(view.ace_open)
    if "drawn" in has and view.drawn >= 0:
        k.cards(out, "drawn", [view.drawn])
    if "out" in has:
        k.seats(out, "out", seat, [float(s in view.out) for s in range(n)])
    if "pending_out" in has:
        k.one_hot(out, "pending_out", seat, view.pending_out)
    if "anti_rank" in has:
        out[enc.planes["anti_rank"].start] = float(view.anti_rank)
    if "trick" in has:
        for who, card in view.trick:
            k.cards(out, f"trick_{(who - seat) % n}", [card])
    if "played" in has:
        k.cards(out, "played", _zone(view.played))
    if "lead_colour" in has and 0 <= view.lead_colour < 4:
        out[enc.planes["lead_colour"].start + view.lead_colour] = 1.0
    if "sitting_out" in has:
        k.seats(out, "sitting_out", seat, [float(s in view.sitting_out) for s in range(n)])
    if "plus_tens" in has:
        k.seats(out, "plus_tens", seat, [min(1.0, t / 6.0) for t in view.plus_tens])
    if "due" in has:
        p = enc.planes
        if 2 <= view.due <= 14:
            out[p["due"].start + view.due - 2] = 1.0
        out[p["judging"].start] = float(view.phase in ("judge", "doubting"))
        if "skipper" in has:
            if view.phase == "judge":
                k.one_hot(out, "skipper", seat, view.skipper)
            k.seats(out, "laughed", seat, [float(s in view.laughed) for s in range(n)])
        if "claimer" in has:
            out[p["pile_size"].start] = view.pile_count / d
            k.cards(out, "mine_in_pile", _zone(view.mine_in_pile))
            out[p["claim_size"].start] = view.claim_count / d
            k.cards(out, "claim_cards", _zone(view.claim_cards))
            k.one_hot(out, "claimer", seat, view.claimer)
        if "known" in has:
            for j in range(1, n):
                k.cards(out, f"known_{j}", _zone(view.known[(seat + j) % n]))
    return out


def old_bouts(enc: BoutsEncoder, view: Any) -> Any:
    """The bout games' observation as it was written from the view."""
    out = blank_vector(enc.size, None)
    seat, n, p, d = view.seat, enc.players, enc.planes, float(len(enc.codec.cards))
    pos = enc._pos

    def put(plane: str, cards: Iterable[int]) -> None:
        where = [int(pos[c]) for c in cards if 0 <= c < len(pos)]
        if where:
            out[p[plane].start + np.asarray(where, dtype=np.int64)] = 1.0

    put("hand", cards_of(view.hand))
    for k in range(1, n):
        put(f"known_{k}", cards_of(view.known[(seat + k) % n]))
    if family_for(view) is family_for(enc.rules):
        extra = view.extra
        centre = list(view.centre)
        if "attack" in extra:
            to_beat = [a for a, c in zip(extra["attack"], extra["defence"], strict=True)
                       if c < 0]
        elif view.phase in ("cover", "beat") and centre:
            to_beat = [extra.get("pile", centre)[-1]]
        else:
            to_beat = []
        trump_card, trump_suit = int(extra.get("trump_card", -1)), view.trump_suit
        phase = view.phase
    else:
        centre = [*view.attack, *(c for c in view.defence if c >= 0)]
        to_beat = [a for a, c in zip(view.attack, view.defence, strict=True) if c < 0]
        trump_card, trump_suit = view.trump_card, view.trump_suit
        phase = _DURAK_PHASES[view.phase] if view.phase < len(_DURAK_PHASES) else ""
    put("centre", centre)
    put("to_beat", to_beat)
    if trump_card >= 0:
        put("trump_card", [trump_card])
    if 0 <= trump_suit < 4:
        out[p["trump_suit"].start + trump_suit] = 1.0
    out[p["hand_counts"]] = [view.hand_counts[(seat + k) % n] / d for k in range(n)]
    out[p["stock"].start] = view.stock_count / d
    out[p["discard"].start] = view.discard_count / d
    if 0 <= view.to_act < n:
        out[p["to_act"].start + (view.to_act - seat) % n] = 1.0
    for s in view.out:
        if 0 <= s < n:
            out[p["out"].start + (s - seat) % n] = 1.0
    if phase in PHASES:
        out[p["phase"].start + PHASES.index(phase)] = 1.0
    return out


_TRUMP_PLANES: dict[tuple[tuple[int, ...], frozenset[int]], Any] = {}


def _old_cards(enc: ObservationEncoder, mask: int) -> Any:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return enc._card_pos[out] if out else np.zeros(0, dtype=np.int64)


def _old_trump_plane(enc: ObservationEncoder, trumps: frozenset[int]) -> Any:
    key = (enc.codec.cards, trumps)
    plane = _TRUMP_PLANES.get(key)
    if plane is None:
        plane = np.zeros(len(enc.codec.cards), dtype=np.float32)
        for i, c in enumerate(enc.codec.cards):
            if (c % 80) // 16 in trumps:
                plane[i] = 1.0
        _TRUMP_PLANES[key] = plane
    return plane


_PACKS: dict[tuple[int, ...], int] = {}


def _old_pack(enc: ObservationEncoder) -> int:
    pack = _PACKS.get(enc.codec.cards)
    if pack is None:
        pack = _PACKS[enc.codec.cards] = sum(1 << c for c in enc.codec.cards)
    return pack


def old_durak(enc: ObservationEncoder, view: Any, out: Any = None) -> Any:
    """The Durak observation as it was written from the view."""
    obs = np.zeros(enc.size, dtype=np.float32) if out is None else out
    if out is not None:
        obs.fill(0.0)
    p = enc.planes
    n = enc.players
    me = view.seat

    def card_plane(name: str, mask: int) -> None:
        if mask:
            obs[p[name].start + _old_cards(enc, mask)] = 1.0

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
    face_up = view.stock_face_up  # #16's turned cards lie face up too
    turned = view.extension(SecretTurned)  # #18, once turned
    secret = turned.card if turned is not None else -1
    shown = face_up | (1 << secret if secret >= 0 else 0)
    if view.trump_card >= 0:
        shown |= 1 << view.trump_card
        if view.trump_card_in_stock:
            seen |= 1 << view.trump_card
    card_plane("trump_card", shown)
    seen |= face_up | (1 << secret if secret >= 0 else 0)
    if view.trumps:
        obs[p["trump_suit"]] = _old_trump_plane(enc, view.trumps)
    card_plane("unseen", _old_pack(enc) & ~seen)
    pack = float(enc.rules.card_count)
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
    own_record = view.extension(OwnTrumps)
    own = own_record.suits if own_record is not None else ()
    if own and "own_trumps" in p:
        start = p["own_trumps"].start
        for k in range(n):
            obs[start + 4 * k + own[(me + k) % n]] = 1.0
    return obs
