"""An OpenSpiel game: importing this module registers ``python_bito_durak``.

::

    import pyspiel
    import bito.env.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_bito_durak", {"variant": "perevodnoy", "players": 3})

Parameters: ``variant`` (any Durak-family spec, default ``podkidnoy``), ``players`` (2),
``deals`` (65536) and ``max_game_length`` (3000).

**Chance.** The deal is one explicit chance node with ``deals`` equally likely outcomes;
outcome *k* is the shuffle of ``bito.games.durak.new_game(variant, players, seed=k)``, the
very deal ``bito play --seed k`` would give. So the game's deal distribution is uniform over
``deals`` seeded shuffles rather than over all 36! orders: finite, reproducible, and a
faithful sample of the real one. Every other step is a player's move (the engine draws cards
from the stock the deal fixed, so there is no later chance).

**Length.** The engine ends every deal (``end.repetition`` draws a deal that keeps repeating
once the stock is gone), but its bound is not a small number, so the game declares
``max_game_length`` player moves and a deal that reaches it ends there, drawn (all returns 0).
Random play never came near it in our runs (the longest of 60 random six-player big fool deals
took 1104 moves; 2-player podkidnoy stays under 250).

**Returns.** :func:`bito.env.payoff.seat_returns`: -1 for the fool, +1/(players-1) for each
other player, 0 for a draw; zero-sum.

**Observations.** ``observation_tensor`` is the seat's
:class:`~bito.env.observation.ObservationEncoder` vector; ``observation_string`` the censored
position text (``bito.notation``) of that seat. ``information_state_string`` has perfect
recall: the seat's censored position at the deal, then every move, with the cards the seat
drew privately after it. ``information_state_tensor`` is the observation vector plus, per
relative seat, the cards that seat has played so far: a summary, not perfect recall (the
order of moves is lost).

**Bots.** :func:`spiel_bot` seats any bito bot (every name of :func:`bito.bots.bot_names`,
and ``greedy``) as a ``pyspiel.Bot``, so OpenSpiel's ``evaluate_bots`` and its algorithms'
tooling can play them against each other and against OpenSpiel's own bots::

    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    bots = [spiel_bot("heuristic", 0, seed=1), spiel_bot("random", 1, seed=2)]
    evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0))

**Resampling.** ``resample_from_infostate`` (used by OpenSpiel's ISMCTS) re-deals the cards
hidden from the player (:func:`bito.env.redeal.redeal`).
"""

from __future__ import annotations

import random
from typing import Any

from bito.cards import cards_of, cards_str
from bito.env._optional import require
from bito.env.codec import codec_for, durak_rules
from bito.env.observation import ObservationEncoder
from bito.env.redeal import redeal
from bito.env.spiel_kit import (
    GameParams,
    SeatTensor,
    Shared,
    SpielBot,
    SpielState,
    check_observer_params,
    game_type,
)
from bito.games.durak import DurakState, new_game
from bito.games.durak.position import position_text

pyspiel: Any = require("pyspiel", "bito.env.openspiel")
np: Any = require("numpy", "bito.env.openspiel")

SHORT_NAME = "python_bito_durak"
DEFAULTS: dict[str, Any] = {"variant": "podkidnoy", "players": 2, "deals": 65536,
                            "max_game_length": 3000}
_MAX_PLAYERS = 12

_GAME_TYPE = game_type(
    SHORT_NAME, "bito: Durak family (podkidnoy, perevodnoy and their variants)",
    _MAX_PLAYERS, DEFAULTS)


class DurakGame(pyspiel.Game):  # type: ignore[misc]
    """``python_bito_durak``: one Durak-family deal (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = GameParams.read(params, DEFAULTS, SHORT_NAME, _MAX_PLAYERS)
        self.variant = p.variant
        self.rules = durak_rules(self.variant)
        self.players, self.deals, self.max_moves = p.players, p.deals, p.max_moves
        new_game(self.rules, self.players, seed=0)  # checks the seat count now
        self.codec = codec_for(self.rules)
        self.encoder = ObservationEncoder(self.rules, self.players)
        super().__init__(_GAME_TYPE, p.info(self.codec.size), p.all)

    def new_initial_state(self) -> DurakSpielState:
        return DurakSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        check_observer_params(SHORT_NAME, params)
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return InfoStateObserver(self) if recall else SeatObserver(self)


class _Context(Shared):
    """What every state of one game shares."""

    def __init__(self, game: DurakGame) -> None:
        self.rules = game.rules
        self.players = game.players
        self.deals = game.deals
        self.max_moves = game.max_moves
        self.codec = game.codec
        self.encoder = game.encoder


class _Moves:
    """One move of the history, linked to the one before (shared, never changed)."""

    __slots__ = ("before", "drawn", "text")

    def __init__(self, before: _Moves | None, text: str, drawn: tuple[int, ...]) -> None:
        self.before = before
        self.text = text
        self.drawn = drawn  # per seat: the cards it drew unseen by the others after the move

    def __deepcopy__(self, memo: dict[int, Any]) -> _Moves:
        return self

    def __reduce__(self) -> tuple[Any, tuple[tuple[tuple[str, tuple[int, ...]], ...]]]:
        # Pickled as one flat tuple: pickling the chain link by link recurses once per move
        # and overflows the interpreter's stack a few hundred moves into a long deal.
        return _moves_from, (tuple((m.text, m.drawn) for m in self.in_order()),)

    def in_order(self) -> list[_Moves]:
        out: list[_Moves] = []
        node: _Moves | None = self
        while node is not None:
            out.append(node)
            node = node.before
        return out[::-1]


def _moves_from(flat: tuple[tuple[str, tuple[int, ...]], ...]) -> _Moves:
    """The chain :meth:`_Moves.__reduce__` flattened, linked again."""
    node: _Moves | None = None
    for text, drawn in flat:
        node = _Moves(node, text, drawn)
    assert node is not None  # a chain has at least one move
    return node


class _Position:
    """The engine state and what the information state needs, replaced on every move, so
    that OpenSpiel's ``clone`` (a deepcopy of the attributes) can share it."""

    __slots__ = ("engine", "known_to", "moves", "played", "start", "tail")

    def __init__(self, engine: DurakState, start: tuple[str, ...], moves: int,
                 played: tuple[int, ...], tail: _Moves | None, known_to: int = -1) -> None:
        self.engine = engine
        self.start = start  # per seat: its censored position at the deal
        self.moves = moves
        self.played = played  # per seat: every card it has put on the table
        self.tail = tail
        #: -1 for a real deal; in a re-dealt world (resample_from_infostate) the one seat whose
        #: history is still true: the others' hidden cards, and so their pasts, were replaced.
        self.known_to = known_to

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return self


class DurakSpielState(SpielState):
    """A deal in progress; before the chance outcome there is no engine state yet."""

    def __init__(self, game: DurakGame) -> None:
        super().__init__(game)
        self.ctx = _Context(game)
        self.pos: _Position | None = None

    @property
    def engine(self) -> DurakState | None:
        return None if self.pos is None else self.pos.engine

    def _apply_action(self, action: int) -> None:
        ctx = self.ctx
        pos = self.pos
        if pos is None:
            deal = new_game(ctx.rules, ctx.players, seed=int(action))
            start = tuple(position_text(deal, s) for s in range(ctx.players))
            self.pos = _Position(deal, start, 0, (0,) * ctx.players, None)
            return
        before = pos.engine
        act = ctx.codec.action(int(action))
        after = before.apply(act)
        played = list(pos.played)
        played[before.to_act] |= act.mask
        drawn = tuple(after.hands[s] & ~before.hands[s] & ~after.known[s]
                      for s in range(ctx.players))
        self.pos = _Position(after, pos.start, pos.moves + 1, tuple(played),
                             _Moves(pos.tail, str(act), drawn), pos.known_to)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> DurakSpielState:
        """A state the player cannot tell from this one: its hidden cards re-dealt."""
        world: DurakSpielState = self.clone()
        pos = self.pos
        if pos is None:
            return world
        u = probability_sampler() if callable(probability_sampler) else random.random()
        world.pos = _Position(redeal(pos.engine, player, random.Random(u)), pos.start,
                              pos.moves, pos.played, pos.tail, player)
        return world

    def __str__(self) -> str:
        if self.pos is None:
            return "chance: the deal"
        return position_text(self.pos.engine)


class SeatObserver(SeatTensor):
    """What a seat sees now: the observation vector and the censored position text."""

    def string_from(self, state: DurakSpielState, player: int) -> str:
        if state.pos is None:
            return f"p{player} before the deal"
        return position_text(state.pos.engine, player)


class InfoStateObserver(SeatObserver):
    """Perfect-recall strings; tensors with what each seat has played (see the module)."""

    def __init__(self, game: DurakGame) -> None:
        enc = game.encoder
        d = len(game.codec.cards)
        super().__init__(game, extra=game.players * d)
        self._played_at = enc.size
        for k in range(game.players):
            self.dict[f"played_{k}"] = self.tensor[enc.size + k * d:enc.size + (k + 1) * d]

    def set_from(self, state: SpielState, player: int) -> None:
        pos = state.pos
        if pos is None:
            self.tensor.fill(0.0)
            return
        enc = self.game.encoder
        enc.encode(pos.engine.view(player), out=self.tensor[:enc.size])
        self.tensor[enc.size:] = 0.0
        n = self.game.players
        where = enc._card_pos
        d = len(self.game.codec.cards)
        for k in range(n):
            cards = cards_of(pos.played[(player + k) % n])
            if cards:
                self.tensor[self._played_at + k * d + where[cards]] = 1.0

    def string_from(self, state: DurakSpielState, player: int) -> str:
        pos = state.pos
        if pos is None:
            return f"p{player} before the deal"
        parts = [f"p{player}", pos.start[player]]
        for move in pos.tail.in_order() if pos.tail is not None else ():
            mine = move.drawn[player]
            if mine:
                parts.append(f"{move.text}(drew {cards_str(cards_of(mine))})")
            else:
                parts.append(move.text)
        if pos.known_to >= 0 and pos.known_to != player:
            # A re-dealt world: this seat's recorded past is not its past here, so its hand
            # now must be part of the key (ISMCTS keys nodes on it and expects the same
            # legal actions under the same key).
            parts.append("| world " + position_text(pos.engine, player))
        return " ".join(parts)


class BitoSpielBot(SpielBot):
    """A bito bot in a ``python_bito_durak`` seat (see :class:`bito.env.spiel_kit.SpielBot`)."""

    short_name = SHORT_NAME

    def __repr__(self) -> str:
        return f"BitoSpielBot({getattr(self.bot, 'name', self.bot)!r}, {self.player_id})"


def spiel_bot(name: str, player_id: int, seed: int | None = None) -> BitoSpielBot:
    """The bito bot ``name`` (``bito.bots.make_bot``, or ``greedy``: the rollout policy, see
    :mod:`bito.env.greedy`) as a ``pyspiel.Bot`` for ``player_id``."""
    if name == "greedy":
        from bito.env.greedy import GreedyBot

        return BitoSpielBot(GreedyBot(seed), player_id)
    from bito.bots import make_bot

    return BitoSpielBot(make_bot(name, seed), player_id)


pyspiel.register_game(_GAME_TYPE, DurakGame)
