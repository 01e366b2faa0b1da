"""The codec and observation of the Durak games with their own kind of bout (VARIANTS.md §3.9):
China fool (#65, #66), the two prelude games (#67, #68), heaped fool (#69, #70), the chain
fool (#71) and the Polish fool (#72).

These engines speak the Durak moves (``7h`` lead, ``9h>7h`` cover, ``take``, ``pass``) plus
``turn`` (turn the stock's top card), so the numbering follows the Durak codec's design
(:mod:`bito.env.codec`): a fixed list of every move a game can ever make, with a mask of the
legal ones.

**Actions** (one block after the other): ``take``, ``pass``, ``turn``; ``attack`` (one per card
of the pack: a lead, a throw-in); ``defend`` (one per ordered pair (cover, card covered));
``group`` (China fool's leads of 2..k cards of one rank, k its bout cap). A prelude game's
second phase is an ordinary Durak game: the blocks of that game's own
:class:`~bito.env.codec.ActionCodec` (for every trump suit the prelude can fix) follow, each
move numbered once, so a cover means the same integer in both phases.

**Observation** (planes of the pack size ``d``, relative seats as in Durak: index k is the k-th
seat to the acting seat's left), written from the seat's table model (:mod:`bito.games.tables`)
of its view (a :class:`BoutsView`, or the Durak view of a prelude's second phase): ``hand``;
``known_k`` (cards publicly known to be in the k-th seat's hand, k = 1..n-1); ``centre``
(every card in the middle: the heap, the chain, the table's attack and cover cards);
``to_beat`` (the cards that must be covered now: the heap's or the centre's top card, the
uncovered attack cards); ``trump_card`` (the face-up trump card); ``trump_suit`` (one-hot of
4); ``hand_counts`` (per relative seat, over ``d``); ``stock`` and ``discard`` (counts over
``d``); ``to_act`` and ``out`` (relative seats); ``phase`` (one-hot of :data:`PHASES`).
Values lie in [0, 1].
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations
from typing import Any

from bito.cards import RANK_MASKS, SUIT_NAMES, cards_of, rank_of, standard_deck
from bito.env._optional import require
from bito.env.numbering import NumberedActions, Numbering, blank_vector, lay_out
from bito.games.bouts import ChineseRules, PreludeRules, rules_for
from bito.games.bouts.common import SUITS, TURN
from bito.games.durak.actions import PASS_ACTION, TAKE_ACTION, Action, attack, defend
from bito.games.protocol import Move
from bito.games.tables import facts_of
from bito.games.tables.model import Card, TableModel

np: Any = require("numpy", "bito.env.bouts")

#: The phases the observation names (the engines' own words; a prelude's second phase is
#: named by the Durak phase it is in).
PHASES = ("lead", "cover", "defend", "throw", "beat", "prelude")


class BoutsCodec(NumberedActions[Action | Move]):
    """The integer numbering of every move of a bout-structure game (see the module)."""

    def __init__(self, spec: Any) -> None:
        self.rules = rules_for(spec)
        self.cards: tuple[int, ...] = tuple(sorted(standard_deck(self.rules.deck_size)))
        numbering: Numbering[Action | Move] = Numbering()
        block = numbering.block
        block("take", [TAKE_ACTION])
        block("pass", [PASS_ACTION])
        block("turn", [TURN])
        block("attack", (attack(c) for c in self.cards))
        block("defend", (defend(cover, target) for target in self.cards
                         for cover in self.cards if cover != target))
        if isinstance(self.rules, ChineseRules):
            block("group", self._group_leads(self.rules.cap))
        if isinstance(self.rules, PreludeRules):
            from bito.env.codec import ActionCodec

            for suit in SUITS:  # the second phase's own moves, for every trump it may have
                main = ActionCodec(self.rules.main_spec(suit))
                for name, (start, end) in main.blocks.items():
                    block(f"main {name}", main.actions[start:end])
        self.keep(numbering)

    def _group_leads(self, cap: int) -> Iterable[Action]:
        for rank in sorted({rank_of(c) for c in self.cards}):
            group = cards_of(RANK_MASKS[rank] & sum(1 << c for c in self.cards))
            for k in range(2, min(cap, len(group)) + 1):
                yield from (attack(*combo) for combo in combinations(group, k))

    def __repr__(self) -> str:
        return f"BoutsCodec({self.rules.variant!r}, size={self.size})"


class BoutsEncoder:
    """Encodes a seat's view of a bout-structure game (see the module docstring)."""

    def __init__(self, spec: Any, players: int) -> None:
        self.codec = bouts_codec(spec)
        self.rules = self.codec.rules
        self.players = players
        d = len(self.codec.cards)
        self._d = float(d)
        self._pos = np.full(max(self.codec.cards) + 1, -1, dtype=np.int64)
        for i, c in enumerate(self.codec.cards):
            self._pos[c] = i
        n = players
        self.planes, self.size = lay_out([
            ("hand", d), *((f"known_{k}", d) for k in range(1, n)), ("centre", d),
            ("to_beat", d), ("trump_card", d), ("trump_suit", 4), ("hand_counts", n),
            ("stock", 1), ("discard", 1), ("to_act", n), ("out", n), ("phase", len(PHASES))])
        self._starts = {name: plane.start for name, plane in self.planes.items()}
        self._where = self._pos.tolist()  # a card's place in the pack, by its code

    def encode(self, view: Any, out: Any = None) -> Any:
        """The ``float32`` vector of ``view`` (written into ``out`` when given), built from the
        seat's table model in its learner's build (:func:`bito.games.tables.facts_of`): the
        game's own, or the Durak game's once a prelude has handed over to it."""
        return self.encode_table(facts_of(view), out)

    def encode_table(self, table: TableModel, out: Any = None) -> Any:
        """The ``float32`` vector of a seat's table model (see the module docstring); the
        entries that are 1 are written in one go, then the counts."""
        out = blank_vector(self.size, out)
        seat, n, at, where = table.seat, self.players, self._starts, self._where
        last = len(where)
        seats = table.seats
        zones = {z.name: z for z in table.zones}
        ones: list[int] = []

        def put(plane: str, cards: Iterable[Card]) -> None:
            start = at[plane]
            ones.extend([start + where[c.code] for c in cards if 0 <= c.code < last])

        put("hand", zones["hand"].cards)
        for k in range(1, n):
            put(f"known_{k}", seats[(seat + k) % n].known)
        pairs = zones.get("table")
        if pairs is not None:
            put("centre", [c for pair in pairs.pairs
                           for c in (pair.attack, pair.cover) if c is not None])
        else:
            put("centre", zones["centre"].cards)
        put("to_beat", table.to_beat)
        if table.trump_card is not None:
            put("trump_card", (table.trump_card,))
        trumps = table.vocabulary.trumps
        if len(trumps) == 1:
            ones.append(at["trump_suit"] + SUIT_NAMES.index(trumps[0]))
        if 0 <= table.to_act < n:
            ones.append(at["to_act"] + (table.to_act - seat) % n)
        ones.extend([at["out"] + (s.seat - seat) % n for s in seats if s.out])
        if table.phase in PHASES:
            ones.append(at["phase"] + PHASES.index(table.phase))
        out[ones] = 1.0
        out[self.planes["hand_counts"]] = [seats[(seat + k) % n].cards / self._d
                                           for k in range(n)]
        out[at["stock"]] = zones["stock"].count / self._d
        out[at["discard"]] = zones["discard"].count / self._d
        return out

    def __repr__(self) -> str:
        return f"BoutsEncoder({self.rules.variant!r}, players={self.players}, size={self.size})"


@lru_cache(maxsize=64)
def bouts_codec(spec: Any) -> BoutsCodec:
    """A shared codec per spec (or rules object)."""
    return BoutsCodec(spec)


@lru_cache(maxsize=64)
def bouts_encoder(spec: Any, players: int) -> BoutsEncoder:
    return BoutsEncoder(spec, players)


__all__ = ["PHASES", "BoutsCodec", "BoutsEncoder", "bouts_codec", "bouts_encoder"]
