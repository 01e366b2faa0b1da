"""What bito's OpenSpiel games share, whatever the family: the game type, the parameters,
the chance node of seeded deals, the move cap, the returns and a bito bot in a seat.

``python_bito_durak`` (:mod:`bito.env.openspiel`) and ``python_bito_cards``
(:mod:`bito.env.cardplay_spiel`) differ only in their engines, their encoders and what their
information states remember; one place for the rest keeps the two games answering alike (a
fix to the move cap or the returns reaches both).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bito.env._optional import require
from bito.env.payoff import seat_returns

pyspiel: Any = require("pyspiel", "bito.env.spiel_kit")
np: Any = require("numpy", "bito.env.spiel_kit")


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
    """A game's parameters read and checked, so a bad one is refused by name at load."""

    all: dict[str, Any]
    variant: str
    players: int
    deals: int
    max_moves: int

    @classmethod
    def read(cls, params: dict[str, Any] | None, defaults: dict[str, Any], short_name: str,
             max_players: int) -> GameParams:
        p = {**defaults, **(params or {})}
        out = cls(p, str(p["variant"]), int(p["players"]), int(p["deals"]),
                  int(p["max_game_length"]))
        if out.deals < 1 or out.max_moves < 1:
            raise ValueError("deals and max_game_length must be positive")
        if not 2 <= out.players <= max_players:
            raise ValueError(f"{short_name} seats 2 to {max_players} players, "
                             f"not {out.players}")
        return out

    def info(self, actions: int) -> Any:
        """The ``pyspiel.GameInfo``: -1 for the fool, 1/(players-1) for each of the others."""
        return pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0 / (self.players - 1),
            utility_sum=0.0,
            max_game_length=self.max_moves,
        )


def check_observer_params(short_name: str, params: Any) -> None:
    if params:
        raise ValueError(f"{short_name} observers take no parameters, got {params}")


class Shared:
    """What every state of one game shares; OpenSpiel's clone (a deepcopy) keeps it shared
    rather than copying the codec and encoder at every node of a search."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class SpielState(pyspiel.State):  # type: ignore[misc]
    """The OpenSpiel state API over ``self.pos`` (None before the deal; else an object with
    ``engine`` and ``moves``) and ``self.ctx`` (``codec``, ``deals``, ``players``,
    ``max_moves``); a family's state adds how a move is applied and remembered."""

    ctx: Any
    pos: Any

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


class SeatTensor:
    """A seat's observation vector now (the game's ``encoder``), zero before the deal."""

    def __init__(self, game: Any, extra: int = 0) -> None:
        self.game = game
        self.tensor = np.zeros(game.encoder.size + extra, np.float32)
        self.dict = {name: self.tensor[s] for name, s in game.encoder.planes.items()}

    def set_from(self, state: SpielState, player: int) -> None:
        if state.pos is None:
            self.tensor.fill(0.0)
            return
        self.game.encoder.encode(state.pos.engine.view(player), out=self.tensor)


class SpielBot(pyspiel.Bot):  # type: ignore[misc]
    """A bito bot in an OpenSpiel seat: it sees only its seat's view (the engine's ``view``,
    as everywhere in bito) and answers with the codec's integer.

    bito's bots decide from the view alone, so the history OpenSpiel reports
    (``inform_action``, ``restart_at``) needs no bookkeeping here."""

    #: the game's short name, for the message when asked to play before the deal
    short_name = "a bito game"

    def __init__(self, bot: Any, player_id: int) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.player_id = player_id

    def step(self, state: Any) -> int:
        engine = getattr(state, "engine", None)
        if engine is None:
            raise TypeError(f"a bito bot plays {self.short_name} states after the deal, not "
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
