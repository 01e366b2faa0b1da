"""An OpenSpiel game: importing this module registers ``python_bito_durak``, which plays any
game of any family (Durak and its variants, the shedding, trick, social and bout games).

::

    import pyspiel
    import bito.env.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_bito_durak", {"variant": "perevodnoy", "players": 3})
    game = pyspiel.load_game("python_bito_durak", {"variant": "believe_not_believe_2"})
    again = pyspiel.load_game(str(game))          # a game string reloads, options and all

Parameters: ``variant`` (any catalogue spec, default ``podkidnoy``), ``players`` (2), ``deals``
(65536) and ``max_game_length`` (3000). ``python_bito_cards`` is the same game under the name
it had when the shedding and trick games had their own (default ``czech_fool``,
``max_game_length`` 5000).

**Game strings.** OpenSpiel writes a game as ``name(key=value,...)`` and splits it on ``=``
and ``,``, so a variant holding an option (``perevodnoy+transfer.show_trump=true``) is kept in
the game's parameters with those characters escaped (:func:`spiel_variant`: ``=`` is ``%3D``,
``,`` is ``%2C``). The game reads both forms, so ``load_game(str(game))`` and
``deserialize_game_and_state`` give the game back.

**Chance.** The deal is one explicit chance node with ``deals`` equally likely outcomes;
outcome *k* is ``bito.games.new_game(variant, players, seed=k)``, the very deal
``bito play --seed k`` would give. So the game's deal distribution is uniform over ``deals``
seeded shuffles rather than over all 36! orders: finite, reproducible, and a faithful sample
of the real one. Every other step is a player's move (the engines draw from the stock the deal
fixed, and a game of rounds deals its later rounds from the same seed).

**Length.** Every engine ends its games (repetition rules), but the bound is not a small
number, so the game declares ``max_game_length`` player moves and a game that reaches it ends
there, drawn (all returns 0).

**Returns.** :func:`bito.env.payoff.seat_returns`: -1 for each member of the losing side,
+1/(sides-1) for each member of the others (a side is a team in partnership games, a seat
otherwise), 0 for a draw; zero-sum.

**Observations.** ``observation_tensor`` is the seat's encoder vector (:mod:`bito.env.kit`);
``observation_string`` what the seat sees as text (a Durak game's censored position text,
``bito.notation``; another family's view). ``information_state_string`` has perfect recall:
the seat's text at the deal, then every move as that seat saw it (a card put down face down
is ``?``), with the cards that came privately into its own hand after it.
``information_state_tensor`` is the observation vector plus, per relative seat, the cards the
seat saw that seat play: a summary, not perfect recall (the order of moves is lost).

**Bots.** :func:`spiel_bot` seats any bito bot (every name of :func:`bito.bots.bot_names`,
and ``greedy`` in Durak games) as a ``pyspiel.Bot``, so OpenSpiel's ``evaluate_bots`` and its
algorithms' tooling can play them against each other and against OpenSpiel's own bots::

    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    bots = [spiel_bot("heuristic", 0, seed=1), spiel_bot("random", 1, seed=2)]
    evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0))

**Resampling.** ``resample_from_infostate`` (used by OpenSpiel's ISMCTS) re-deals the cards
hidden from the player: :func:`bito.env.redeal.redeal` in the Durak family, the family's own
world sampler (the search bots') elsewhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from bito.cards import cards_of
from bito.env._optional import require
from bito.env.kit import GameKit, kit_for
from bito.env.payoff import seat_returns

pyspiel: Any = require("pyspiel", "bito.env.openspiel")
np: Any = require("numpy", "bito.env.openspiel")

SHORT_NAME = "python_bito_durak"
DEFAULTS: dict[str, Any] = {"variant": "podkidnoy", "players": 2, "deals": 65536,
                            "max_game_length": 3000}
CARDS_NAME = "python_bito_cards"
CARDS_DEFAULTS: dict[str, Any] = {"variant": "czech_fool", "players": 2, "deals": 65536,
                                  "max_game_length": 5000}

#: The characters OpenSpiel's game strings give a meaning to, and how a variant writes them.
_ESCAPES = {"%": "%25", "=": "%3D", ",": "%2C", "(": "%28", ")": "%29"}


def spiel_variant(spec: str) -> str:
    """``spec`` as a game-string value: ``=``, ``,``, ``(``, ``)`` (and ``%``) escaped."""
    return "".join(_ESCAPES.get(ch, ch) for ch in spec)


def bito_variant(text: str) -> str:
    """A game-string value read back as the spec it escapes (a plain spec is unchanged:
    no spec holds ``%``)."""
    for ch, code in reversed(list(_ESCAPES.items())):
        text = text.replace(code, ch)
    return text


def game_type(short_name: str, long_name: str, max_players: int,
              defaults: dict[str, Any]) -> Any:
    """The ``pyspiel.GameType`` of a bito game: sequential, one explicit chance node (the
    deal), imperfect information, zero-sum, rewarded at the end."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


@dataclass(frozen=True)
class GameParams:
    """A game's parameters read and checked, so a bad one is refused by name at load;
    ``all`` holds the variant escaped for the game string."""

    all: dict[str, Any]
    variant: str
    players: int
    deals: int
    max_moves: int

    @classmethod
    def read(cls, params: dict[str, Any] | None, defaults: dict[str, Any], short_name: str,
             max_players: int) -> GameParams:
        p = {**defaults, **(params or {})}
        variant = bito_variant(str(p["variant"]))
        p["variant"] = spiel_variant(variant)
        out = cls(p, variant, int(p["players"]), int(p["deals"]), int(p["max_game_length"]))
        if out.deals < 1 or out.max_moves < 1:
            raise ValueError("deals and max_game_length must be positive")
        if not 2 <= out.players <= max_players:
            raise ValueError(f"{short_name} seats 2 to {max_players} players, "
                             f"not {out.players}")
        return out


class BitoGame(pyspiel.Game):  # type: ignore[misc]
    """``python_bito_durak``: one game of any family (see the module docstring)."""

    SHORT_NAME: ClassVar[str] = SHORT_NAME
    DEFAULTS: ClassVar[dict[str, Any]] = DEFAULTS
    MAX_PLAYERS: ClassVar[int] = 12
    GAME_TYPE: ClassVar[Any] = game_type(
        SHORT_NAME, "bito: every game of every family (Durak, shedding, tricks, social, bouts)",
        12, DEFAULTS)

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = GameParams.read(params, self.DEFAULTS, self.SHORT_NAME, self.MAX_PLAYERS)
        self.variant = p.variant
        self.players, self.deals, self.max_moves = p.players, p.deals, p.max_moves
        self.kit: GameKit = kit_for(self.variant, self.players)  # refuses a bad game by name
        self.rules = self.kit.rules
        self.codec = self.kit.codec
        self.encoder = self.kit.encoder
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=self.kit.best,
            utility_sum=0.0,
            max_game_length=self.max_moves,
        )
        super().__init__(self.GAME_TYPE, info, p.all)

    def new_initial_state(self) -> BitoSpielState:
        return BitoSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"{self.SHORT_NAME} observers take no parameters, got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return InfoStateObserver(self) if recall else SeatObserver(self)


class CardsGame(BitoGame):
    """``python_bito_cards``: the same game under its older name and defaults."""

    SHORT_NAME = CARDS_NAME
    DEFAULTS = CARDS_DEFAULTS
    MAX_PLAYERS = 10
    GAME_TYPE = game_type(
        CARDS_NAME, "bito: shedding and trick games (Czech fool, the adjacent-rank game, Fool!)",
        10, CARDS_DEFAULTS)


#: Kept for code that names the game class of the Durak family.
DurakGame = BitoGame


class _Context:
    """What every state of one game shares; OpenSpiel's clone (a deepcopy) keeps it shared
    rather than copying the codec and encoder at every node of a search."""

    def __init__(self, game: BitoGame) -> None:
        self.kit = game.kit
        self.players = game.players
        self.deals = game.deals
        self.max_moves = game.max_moves
        self.codec = game.codec
        self.encoder = game.encoder

    def __deepcopy__(self, memo: dict[int, Any]) -> _Context:
        return self


class _Moves:
    """One move of the history, linked to the one before (shared, never changed)."""

    __slots__ = ("before", "drawn", "texts")

    def __init__(self, before: _Moves | None, texts: tuple[str, ...],
                 drawn: tuple[int, ...]) -> None:
        self.before = before
        self.texts = texts  # per seat: the move as that seat saw it
        self.drawn = drawn  # per seat: the cards that came into its hand unseen by the others

    def __deepcopy__(self, memo: dict[int, Any]) -> _Moves:
        return self

    def __reduce__(self) -> tuple[Any, tuple[tuple[tuple[tuple[str, ...], tuple[int, ...]],
                                                   ...]]]:
        # Pickled as one flat tuple: pickling the chain link by link recurses once per move
        # and overflows the interpreter's stack a few hundred moves into a long game.
        return _moves_from, (tuple((m.texts, m.drawn) for m in self.in_order()),)

    def in_order(self) -> list[_Moves]:
        out: list[_Moves] = []
        node: _Moves | None = self
        while node is not None:
            out.append(node)
            node = node.before
        return out[::-1]


def _moves_from(flat: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]) -> _Moves:
    """The chain :meth:`_Moves.__reduce__` flattened, linked again."""
    node: _Moves | None = None
    for texts, drawn in flat:
        node = _Moves(node, texts, drawn)
    assert node is not None  # a chain has at least one move
    return node


class _Position:
    """The engine state and what the information state needs, replaced on every move, so
    that OpenSpiel's ``clone`` (a deepcopy of the attributes) can share it."""

    __slots__ = ("engine", "known_to", "moves", "played", "start", "tail")

    def __init__(self, engine: Any, start: tuple[str, ...], moves: int,
                 played: tuple[tuple[int, ...], ...], tail: _Moves | None,
                 known_to: int = -1) -> None:
        self.engine = engine
        self.start = start  # per seat: what it saw at the deal
        self.moves = moves
        #: per seeing seat, per acting seat: every card it saw that seat put down
        self.played = played
        self.tail = tail
        #: -1 for a real deal; in a re-dealt world (resample_from_infostate) the one seat whose
        #: history is still true: the others' hidden cards, and so their pasts, were replaced.
        self.known_to = known_to

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return self


def _mask(cards: Any) -> int:
    out = 0
    for c in cards:
        if c >= 0:
            out |= 1 << c
    return out


class BitoSpielState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; before the chance outcome there is no engine state yet."""

    def __init__(self, game: BitoGame) -> None:
        super().__init__(game)
        self.ctx = _Context(game)
        self.pos: _Position | None = None

    @property
    def engine(self) -> Any:
        return None if self.pos is None else self.pos.engine

    def current_player(self) -> int:
        pos = self.pos
        if pos is None:
            return int(pyspiel.PlayerId.CHANCE)
        if pos.engine.is_over or pos.moves >= self.ctx.max_moves:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pos.engine.to_act)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.pos is not None and player == self.pos.engine.to_act
        return sorted(self.ctx.codec.legal_indices(self.pos.engine))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.ctx.deals
        return [(k, p) for k in range(self.ctx.deals)]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed={action}"
        return str(self.ctx.codec.describe(action))

    def is_terminal(self) -> bool:
        pos = self.pos
        return pos is not None and bool(pos.engine.is_over or pos.moves >= self.ctx.max_moves)

    def returns(self) -> list[float]:
        if self.pos is None or not self.pos.engine.is_over:
            return [0.0] * self.ctx.players
        return seat_returns(self.pos.engine.outcome, self.ctx.players)

    def _apply_action(self, action: int) -> None:
        ctx = self.ctx
        kit = ctx.kit
        n = ctx.players
        pos = self.pos
        if pos is None:
            deal = kit.deal(int(action))
            start = tuple(kit.position_text(deal, s) for s in range(n))
            self.pos = _Position(deal, start, 0, ((0,) * n,) * n, None)
            return
        before = pos.engine
        actor = before.to_act
        act = ctx.codec.action(int(action))
        after = before.apply(act)
        seen = [kit.seen(before, act, s) for s in range(n)]
        played = tuple(tuple(cards | (_mask(getattr(seen[s], "cards", ())) if a == actor
                                      else 0) for a, cards in enumerate(pos.played[s]))
                       for s in range(n))
        known = getattr(after, "known", None)
        drawn = tuple(after.hands[s] & ~before.hands[s] & ~(known[s] if known else 0)
                      for s in range(n))
        self.pos = _Position(after, pos.start, pos.moves + 1, played,
                             _Moves(pos.tail, tuple(str(x) for x in seen), drawn),
                             pos.known_to)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> BitoSpielState:
        """A state the player cannot tell from this one: its hidden cards re-dealt."""
        world: BitoSpielState = self.clone()
        pos = self.pos
        if pos is None:
            return world
        u = probability_sampler() if callable(probability_sampler) else random.random()
        rng = random.Random(u)
        family = self.ctx.kit.family
        if family.codec:
            from bito.env.redeal import redeal

            engine = redeal(pos.engine, player, rng)
        else:
            view = pos.engine.view(player)
            make = family.samplers().get(type(view))
            if make is None:
                raise NotImplementedError(f"{family.name} games of this kind have no world "
                                          "sampler to re-deal the hidden cards")
            sampler = make()
            if hasattr(sampler, "observe"):
                sampler.observe(view)
            engine = sampler.sample(view, rng)
        world.pos = _Position(engine, pos.start, pos.moves, pos.played, pos.tail, player)
        return world

    def __str__(self) -> str:
        if self.pos is None:
            return "chance: the deal"
        return self.ctx.kit.position_text(self.pos.engine, None)


class SeatObserver:
    """What a seat sees now: the observation vector and the seat's text."""

    def __init__(self, game: BitoGame, extra: int = 0) -> None:
        self.game = game
        self.tensor = np.zeros(game.encoder.size + extra, np.float32)
        self.dict = {name: self.tensor[s] for name, s in game.encoder.planes.items()}

    def set_from(self, state: BitoSpielState, player: int) -> None:
        if state.pos is None:
            self.tensor.fill(0.0)
            return
        self.game.encoder.encode(state.pos.engine.view(player), out=self.tensor)

    def string_from(self, state: BitoSpielState, player: int) -> str:
        if state.pos is None:
            return f"p{player} before the deal"
        return state.ctx.kit.position_text(state.pos.engine, player)


class InfoStateObserver(SeatObserver):
    """Perfect-recall strings; tensors with what each seat was seen to play (see the
    module)."""

    def __init__(self, game: BitoGame) -> None:
        enc = game.encoder
        cards = game.codec.cards
        d = len(cards)
        super().__init__(game, extra=game.players * d)
        self._size = enc.size
        self._where = np.full(max(cards) + 1, -1, dtype=np.int64)
        for i, c in enumerate(cards):
            self._where[c] = i
        for k in range(game.players):
            self.dict[f"played_{k}"] = self.tensor[enc.size + k * d:enc.size + (k + 1) * d]

    def set_from(self, state: BitoSpielState, player: int) -> None:
        pos = state.pos
        if pos is None:
            self.tensor.fill(0.0)
            return
        size = self._size
        self.game.encoder.encode(pos.engine.view(player), out=self.tensor[:size])
        self.tensor[size:] = 0.0
        n = self.game.players
        d = len(self.game.codec.cards)
        for k in range(n):
            cards = [c for c in cards_of(pos.played[player][(player + k) % n])
                     if c < len(self._where) and self._where[c] >= 0]
            if cards:
                self.tensor[size + k * d + self._where[cards]] = 1.0

    def string_from(self, state: BitoSpielState, player: int) -> str:
        pos = state.pos
        if pos is None:
            return f"p{player} before the deal"
        kit = state.ctx.kit
        parts = [f"p{player}", pos.start[player]]
        for move in pos.tail.in_order() if pos.tail is not None else ():
            mine = move.drawn[player]
            text = move.texts[player]
            parts.append(f"{text}(drew {kit.cards_text(mine)})" if mine else text)
        if pos.known_to >= 0 and pos.known_to != player:
            # A re-dealt world: this seat's recorded past is not its past here, so its text
            # now must be part of the key (ISMCTS keys nodes on it and expects the same
            # legal actions under the same key).
            parts.append("| world " + kit.position_text(pos.engine, player))
        return " ".join(parts)


class BitoSpielBot(pyspiel.Bot):  # type: ignore[misc]
    """A bito bot in a seat: it sees only its seat's view (the engine's ``view``, as
    everywhere in bito) and answers with the codec's integer.

    bito's bots decide from the view alone, so the history OpenSpiel reports
    (``inform_action``, ``restart_at``) needs no bookkeeping here."""

    def __init__(self, bot: Any, player_id: int) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.player_id = player_id

    def step(self, state: Any) -> int:
        engine = getattr(state, "engine", None)
        if engine is None:
            raise TypeError(f"a bito bot plays {SHORT_NAME} states after the deal, not "
                            f"{type(state).__name__}")
        if engine.to_act != self.player_id:
            raise ValueError(f"bot of player {self.player_id} asked to move for player "
                             f"{engine.to_act}")
        index: int = state.ctx.codec.index(self.bot.choose(engine.view(self.player_id)))
        return index

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"BitoSpielBot({getattr(self.bot, 'name', self.bot)!r}, {self.player_id})"


def spiel_bot(name: str, player_id: int, seed: int | None = None) -> BitoSpielBot:
    """The bito bot ``name`` (``bito.bots.make_bot``, or ``greedy``: the Durak rollout
    policy, see :mod:`bito.env.greedy`) as a ``pyspiel.Bot`` for ``player_id``."""
    if name == "greedy":
        from bito.env.greedy import GreedyBot

        return BitoSpielBot(GreedyBot(seed), player_id)
    from bito.bots import make_bot

    return BitoSpielBot(make_bot(name, seed), player_id)


#: Kept for code that names the Durak game's state.
DurakSpielState = BitoSpielState

pyspiel.register_game(BitoGame.GAME_TYPE, BitoGame)
pyspiel.register_game(CardsGame.GAME_TYPE, CardsGame)
