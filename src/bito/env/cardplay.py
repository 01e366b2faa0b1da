"""The codec and observation of the games that are played one card at a time: the shedding
family (Czech fool #86 and its options #87-#93, the adjacent-rank game #94), the trick
family (*Fool!* #95) and the social family (animal sounds #60, Cheat #85).

They share the design of the Durak codec (:mod:`bito.env.codec`): a fixed numbering of every
action a rules object can ever produce, with a mask of the legal entries, and a flat vector of
what the acting seat may see, written from the seat's table model
(:mod:`bito.games.tables`: the description of the view every face draws from).

**The cards.** The card space of a game is every card its pack holds for that seat count
(the zones of a fresh deal, :meth:`bito.games.family.Family.card_zones`), in code order: 36 or
32 standard cards for Czech fool, one or more 54-card packs for the adjacent-rank game, the
88-card *Fool!* deck trimmed to 12 cards a player. The numbering therefore depends on
``(rules, players)``, not on the rules alone as in Durak.

**Actions** (one block after the other):

=========  ==================================================================================
block      entries
=========  ==================================================================================
``draw``   one: draw from the stock (shedding)
``pass``   one: pass the turn (shedding; the adjacent-rank game with an empty stock)
``play``   one per card of the pack; *Fool!*'s six wild 1s are one move in its engine, so they
           share one entry (the lowest wild code)
``call``   one per (card, suit) pair in the Mau-Mau games: a card played naming a suit (the
           wild rank; covering an English ace, option #90)
``say``    the social games' words: ``sound``, ``laugh`` (animal sounds), ``claim``, ``doubt``
           (Cheat), one each
=========  ==================================================================================

``draw`` and ``pass`` are kept in *Fool!* too (always masked), so every game of these families
has the same leading entries.

**Observation** (planes of the pack size ``d``, relative seats as in Durak: index k is the
k-th seat to the acting seat's left). Present in every game: ``hand``, ``hand_counts`` (per
relative seat, over ``d``) and ``to_act`` (relative one-hot). Then, where the engine's view
has them:

* games of rounds (Mau-Mau, *Fool!*): ``scores`` (per relative seat, score / 100 clipped to
  [-1, 1]: Mau-Mau's penalty points, *Fool!*'s points) and ``round`` (round number / 20,
  capped at 1);

* shedding: ``pile`` (every card played face up this round), ``top`` (the pile's top card),
  ``stock`` (cards left, over ``d``);
* Mau-Mau: ``called`` (the named suit, one-hot of 4), ``ace_open`` and ``drawn`` (the card the
  seat has just drawn, which the rules may let it play at once);
* adjacent-rank: ``out`` and ``pending_out`` (per relative seat) and ``anti_rank``;
* *Fool!*: ``trick_k`` (the card relative seat k put on the current trick), ``played`` (cards
  of this round's finished tricks), ``lead_colour`` (one-hot of 4), ``sitting_out`` (per
  relative seat: it holds a Fool disc) and ``plus_tens`` (per relative seat, over 6).
* the social games: ``due`` (the rank due, one-hot of 13, 2 to ace), ``judging`` (a sound is
  being judged, a claim doubted); animal sounds: ``skipper`` (relative one-hot: who made the
  sound) and ``laughed`` (per relative seat); Cheat: ``pile_size`` (over ``d``),
  ``mine_in_pile`` (the seat's own cards in the face-down pile), ``claim_size`` (over
  ``d``), ``claim_cards`` (the open claim's cards: the claimer's own only), ``claimer``
  (relative one-hot) and ``known_k`` (cards publicly known to be in the k-th seat's hand).

Values lie in [-1, 1] (only ``scores`` is ever negative). The table model holds only what the
view holds, and the view hides every other hand and the stock, so the observation cannot hold
a card the seat may not see. Which planes a game has is fixed once, from a fresh deal's view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from bito.cards import SUIT_CHARS, SUIT_NAMES
from bito.env._optional import require
from bito.env.numbering import NumberedActions, Numbering, blank_vector, lay_out
from bito.games.family import SomeFamily, family_for
from bito.games.protocol import Move, play, word
from bito.games.tables import table_builder
from bito.games.tables.model import Card, TableModel, Zone
from bito.games.tricks.fool import COLOUR_NAMES

np: Any = require("numpy", "bito.env")

#: The families this module covers (the Durak family has :mod:`bito.env.codec`, the bout
#: family :mod:`bito.env.bouts`).
CARD_PLAY_FAMILIES = ("shedding", "tricks", "social")

#: The one-word moves of a family beyond ``draw`` and ``pass``, numbered in the ``say`` block.
FAMILY_WORDS: dict[str, tuple[str, ...]] = {"social": ("sound", "laugh", "claim", "doubt")}

DRAW = word("draw")
PASS = word("pass")



#: The families whose moves are words as well as cards (the animal sounds, Cheat's claims
#: and doubts), by family name: their observation has the talk planes.
_TALKING: dict[str, bool] = {"social": True}

def card_play_rules(spec: Any) -> tuple[SomeFamily, Any]:
    """The family and rules of a spec of a card-play family; ValueError naming the family
    otherwise (the Durak family goes through :mod:`bito.env.codec`)."""
    family = family_for(spec)
    if family.name not in CARD_PLAY_FAMILIES:
        raise ValueError(f"{spec!r} is a game of the {family.name} family; this numbering "
                         f"covers the {', '.join(CARD_PLAY_FAMILIES)} families (every "
                         "family's is chosen by bito.env.kit.kit_for, see docs/rl.md)")
    return family, family.rules_for(spec)


def play_of(rules: Any) -> Callable[[int], Move]:
    """How the engine writes a one-card play: *Fool!* folds its wild 1s into one move."""
    if rules.PREFIX == "fool":
        from bito.games.tricks.fool import play_card

        return play_card
    return one_card_play


def one_card_play(card: int) -> Move:
    """A play of one standard card, naming no suit (a module function: states pickle it)."""
    return play([card])


def _cards_of_zone(zone: int | Sequence[int]) -> Iterable[int]:
    if isinstance(zone, int):
        return (c for c in range(zone.bit_length()) if zone >> c & 1)
    return zone


class CardPlayCodec(NumberedActions[Move]):
    """The integer numbering of every action of a card-play game for a seat count."""

    def __init__(self, spec: Any, players: int) -> None:
        self.family, self.rules = card_play_rules(spec)
        self.players = players
        start = self.family.new_game(self.rules, players, seed=0)  # checks the seat count
        self.cards: tuple[int, ...] = tuple(sorted(
            {c for zone in self.family.card_zones(start) for c in _cards_of_zone(zone)}))
        self.card_index: dict[int, int] = {c: i for i, c in enumerate(self.cards)}
        numbering: Numbering[Move] = Numbering(keep_empty=True)
        block = numbering.block
        block("draw", [DRAW])
        block("pass", [PASS])
        block("play", map(play_of(self.rules), self.cards))
        if hasattr(self.rules, "wild_rank"):  # the Mau-Mau games name suits
            block("call", (play([c], s) for c in self.cards for s in range(len(SUIT_CHARS))))
        words = FAMILY_WORDS.get(self.family.name, ())
        if words:
            block("say", map(word, words))
        self.keep(numbering)

    def __repr__(self) -> str:
        return f"CardPlayCodec({self.rules.variant!r}, players={self.players}, size={self.size})"


class CardPlayEncoder:
    """Encodes a seat's view of a card-play game (see the module docstring)."""

    def __init__(self, spec: Any, players: int) -> None:
        self.codec = codec_for_cards(spec, players)
        self.rules = self.codec.rules
        self.players = players
        d = len(self.codec.cards)
        self._d = float(d)
        self._pos = np.full(max(self.codec.cards) + 1, -1, dtype=np.int64)
        for i, c in enumerate(self.codec.cards):
            self._pos[c] = i
        sample = self.codec.family.new_game(self.rules, players, seed=0).view(0)
        self._has = {name for name in (
            "scores", "round", "pile", "top", "stock_count", "called", "ace_open", "drawn", "out",
            "pending_out", "anti_rank", "trick", "played", "lead_colour", "sitting_out",
            "plus_tens", "due", "skipper", "laughed", "claimer", "claim_count", "claim_cards",
            "mine_in_pile", "known") if hasattr(sample, name)}
        self._social = _TALKING.get(self.codec.family.name, False)
        self._facts = table_builder(self.codec.family)
        n = players
        pieces: list[tuple[str, int]] = [("hand", d), ("hand_counts", n), ("to_act", n)]
        optional: list[tuple[str, int]] = [
            ("scores", n), ("round", 1), ("pile", d), ("top", d), ("stock", 1), ("called", 4),
            ("ace_open", 1),
            ("drawn", d), ("out", n), ("pending_out", n), ("anti_rank", 1),
            *((f"trick_{k}", d) for k in range(n)), ("played", d), ("lead_colour", 4),
            ("sitting_out", n), ("plus_tens", n)]
        source = {"stock": "stock_count"}
        if self._social:
            optional += [("due", 13), ("judging", 1), ("skipper", n), ("laughed", n),
                         ("pile_size", 1), ("mine_in_pile", d), ("claim_size", 1),
                         ("claim_cards", d), ("claimer", n),
                         *((f"known_{k}", d) for k in range(1, n))]
            source.update(judging="due", pile_size="claimer", claim_size="claim_count")
        for name, width in optional:
            attr = ("trick" if name.startswith("trick_")
                    else "known" if name.startswith("known_") else source.get(name, name))
            if attr in self._has:
                pieces.append((name, width))
        self.planes, self.size = lay_out(pieces)
        self._starts = {name: plane.start for name, plane in self.planes.items()}
        self._where = self._pos.tolist()  # a card's place in the pack, by its code

    def encode(self, view: Any, out: Any = None) -> Any:
        """The ``float32`` vector of ``view`` (written into ``out`` when given), built from the
        seat's table model in its learner's build (:func:`bito.games.tables.facts_of`)."""
        return self.encode_table(self._facts(view, False), out)

    def encode_table(self, table: TableModel, out: Any = None) -> Any:
        """The ``float32`` vector of a seat's table model (see the module docstring).

        The entries that are 1 are collected first and written in one go, then the few
        counts and scores: a learner encodes at every step, and one scatter costs less than
        one per plane."""
        out = blank_vector(self.size, out)
        seat, n, has, at = table.seat, self.players, self._has, self._starts
        seats = table.seats
        zones = {z.name: z for z in table.zones}
        ones: list[int] = []
        put = self._putter(ones)

        def flags(plane: str, flagged: Iterable[bool]) -> None:
            """Per relative seat: 1 where the seat's flag is set."""
            start = at[plane]
            ones.extend([start + (s - seat) % n for s, flag in enumerate(flagged) if flag])

        def per_seat(plane: str, values: Sequence[float]) -> None:
            out[self.planes[plane]] = [values[(seat + k) % n] for k in range(n)]

        put("hand", zones["hand"].cards)
        per_seat("hand_counts", [s.cards / self._d for s in seats])
        if table.to_act >= 0:
            ones.append(at["to_act"] + (table.to_act - seat) % n)
        if "scores" in has:
            per_seat("scores", [max(-1.0, min(1.0, (s.score or 0) / 100.0)) for s in seats])
        if "round" in has:
            out[at["round"]] = min(1.0, max(0, table.round - 1) / 20.0)  # counts from 1
        pile = zones.get("pile")
        if "pile" in has and pile is not None:
            put("pile", pile.cards)
        if "top" in has and pile is not None and pile.top is not None:
            put("top", (pile.top,))
        if "stock_count" in has:
            out[at["stock"]] = zones["stock"].count / self._d
        if "called" in has and table.vocabulary.called_suit:
            ones.append(at["called"] + SUIT_NAMES.index(table.vocabulary.called_suit))
        if "ace_open" in has and table.ace_open:
            ones.append(at["ace_open"])
        if "drawn" in has and table.drawn is not None:
            put("drawn", (table.drawn,))
        if "out" in has:
            flags("out", [s.out for s in seats])
        if "pending_out" in has:
            flags("pending_out", [s.pending_out for s in seats])
        if "anti_rank" in has and table.any_card:
            ones.append(at["anti_rank"])
        trick = zones.get("trick")
        if "trick" in has and trick is not None:
            for play in trick.plays:
                put(f"trick_{(play.seat - seat) % n}", (play.card,))
        won = zones.get("won")
        if "played" in has and won is not None:
            put("played", won.cards)
        if "lead_colour" in has and table.led:
            ones.append(at["lead_colour"] + COLOUR_NAMES.index(table.led))
        if "sitting_out" in has:
            flags("sitting_out", [s.sits_out for s in seats])
        if "plus_tens" in has:
            per_seat("plus_tens", [min(1.0, s.plus_tens / 6.0) for s in seats])
        if self._social:
            self._encode_social(out, ones, table, zones)
        out[ones] = 1.0
        return out

    def _putter(self, ones: list[int]) -> Callable[[str, Iterable[Card]], None]:
        """Adds the entries of cards on a card plane to ``ones``."""
        at, where = self._starts, self._where

        def put(plane: str, cards: Iterable[Card]) -> None:
            start = at[plane]
            ones.extend([start + where[c.code] for c in cards])

        return put

    def _encode_social(self, out: Any, ones: list[int], table: TableModel,
                       zones: dict[str, Zone]) -> None:
        """The planes of animal sounds and Cheat (see the module docstring): the counts
        written into ``out``, the entries that are 1 added to ``ones``."""
        seat, n, has, at = table.seat, self.players, self._has, self._starts
        put = self._putter(ones)
        if 2 <= table.due <= 14:
            ones.append(at["due"] + table.due - 2)
        if table.judged >= 0:
            ones.append(at["judging"])
        if "skipper" in has:
            if table.judged >= 0:
                ones.append(at["skipper"] + (table.judged - seat) % n)
            ones.extend([at["laughed"] + (s.seat - seat) % n for s in table.seats if s.laughed])
        claim = zones.get("claim")
        if "claimer" in has and claim is not None:
            pile = zones["pile"]
            out[at["pile_size"]] = (pile.count + claim.count) / self._d
            put("mine_in_pile", pile.cards)
            out[at["claim_size"]] = claim.count / self._d
            put("claim_cards", claim.cards)
            if claim.owner >= 0:
                ones.append(at["claimer"] + (claim.owner - seat) % n)
        if "known" in has:
            for k in range(1, n):
                put(f"known_{k}", table.seats[(seat + k) % n].known)

    def __repr__(self) -> str:
        return (f"CardPlayEncoder({self.rules.variant!r}, players={self.players}, "
                f"size={self.size})")


@lru_cache(maxsize=64)
def codec_for_cards(spec: Any, players: int) -> CardPlayCodec:
    """A shared codec per (spec or rules, seat count)."""
    return CardPlayCodec(spec, players)


@lru_cache(maxsize=64)
def encoder_for_cards(spec: Any, players: int) -> CardPlayEncoder:
    return CardPlayEncoder(spec, players)


__all__ = ["CARD_PLAY_FAMILIES", "FAMILY_WORDS", "CardPlayCodec", "CardPlayEncoder",
           "card_play_rules", "codec_for_cards", "encoder_for_cards", "play_of"]
