"""An OpenSpiel game for the card-play families: importing this module registers
``python_bito_cards`` (Czech fool and its options, the adjacent-rank game, *Fool!*).

::

    import pyspiel
    import bito.env.cardplay_spiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_bito_cards", {"variant": "friese_fool", "players": 4})

Parameters: ``variant`` (a spec of the shedding or trick family, default ``czech_fool``),
``players`` (2), ``deals`` (65536) and ``max_game_length`` (5000).

It follows ``python_bito_durak`` (:mod:`bito.env.openspiel`): the deal is one explicit chance
node with ``deals`` equally likely outcomes, outcome *k* being the game
``bito.games.new_game(variant, players, seed=k)`` deals (its later rounds are dealt from the
same seed, so there is no later chance); a game reaching ``max_game_length`` moves ends there
drawn (every engine ends its games on its own: the cap is a guard); returns are
:func:`bito.env.payoff.seat_returns` (zero-sum).

**Observations.** ``observation_tensor`` is the :class:`~bito.env.cardplay.CardPlayEncoder`
vector of the seat's view, ``observation_string`` the view as text. The
``information_state_string`` has perfect recall: the seat's view at the deal, then every move
as that seat saw it, with the cards that came into its hand after it (a drawn card, a new
round's hand). The ``information_state_tensor`` is the observation vector, a summary: the pile
and trick planes hold every card played face up this round, but not the order.

:func:`spiel_bot` seats a bito bot (``bito.bots.make_bot``) as a ``pyspiel.Bot``.
"""

from __future__ import annotations

from typing import Any

from bito.cards import cards_of
from bito.env._optional import require
from bito.env.cardplay import card_play_rules, codec_for_cards, encoder_for_cards, play_of
from bito.env.spiel_kit import (
    GameParams,
    SeatTensor,
    Shared,
    SpielBot,
    SpielState,
    check_observer_params,
    game_type,
)
from bito.games.protocol import seen_by

pyspiel: Any = require("pyspiel", "bito.env.cardplay_spiel")
np: Any = require("numpy", "bito.env.cardplay_spiel")

SHORT_NAME = "python_bito_cards"
DEFAULTS: dict[str, Any] = {"variant": "czech_fool", "players": 2, "deals": 65536,
                            "max_game_length": 5000}
_MAX_PLAYERS = 10

_GAME_TYPE = game_type(
    SHORT_NAME, "bito: shedding and trick games (Czech fool, the adjacent-rank game, Fool!)",
    _MAX_PLAYERS, DEFAULTS)


class CardPlayGame(pyspiel.Game):  # type: ignore[misc]
    """``python_bito_cards``: one game of a card-play family (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = GameParams.read(params, DEFAULTS, SHORT_NAME, _MAX_PLAYERS)
        self.variant = p.variant
        self.family, self.rules = card_play_rules(self.variant)
        self.players, self.deals, self.max_moves = p.players, p.deals, p.max_moves
        self.codec = codec_for_cards(self.rules, self.players)  # checks the seat count
        self.encoder = encoder_for_cards(self.rules, self.players)
        super().__init__(_GAME_TYPE, p.info(self.codec.size), p.all)

    def new_initial_state(self) -> CardPlayState:
        return CardPlayState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        check_observer_params(SHORT_NAME, params)
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CardPlayObserver(self, perfect_recall=recall)


class _Shared(Shared):
    """What every state of one game shares."""

    def __init__(self, game: CardPlayGame) -> None:
        self.family = game.family
        self.rules = game.rules
        self.players = game.players
        self.deals = game.deals
        self.max_moves = game.max_moves
        self.codec = game.codec
        self.encoder = game.encoder
        self.play_of = play_of(game.rules)  # names a card as the game writes it


class _Position:
    """The engine state, the move count and each seat's recall, replaced on every move (never
    changed), so a clone can share it."""

    __slots__ = ("engine", "moves", "recall")

    def __init__(self, engine: Any, moves: int, recall: tuple[tuple[str, ...], ...]) -> None:
        self.engine = engine
        self.moves = moves
        self.recall = recall  # per seat: its view at the deal, then each move as it saw it

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return self


class CardPlayState(SpielState):
    """A game in progress; before the chance outcome there is no engine state yet."""

    def __init__(self, game: CardPlayGame) -> None:
        super().__init__(game)
        self.ctx = _Shared(game)
        self.pos: _Position | None = None

    def _apply_action(self, action: int) -> None:
        ctx = self.ctx
        pos = self.pos
        if pos is None:
            deal = ctx.family.new_game(ctx.rules, ctx.players, seed=int(action))
            recall = tuple((str(deal.view(s)),) for s in range(ctx.players))
            self.pos = _Position(deal, 0, recall)
            return
        before = pos.engine
        act = ctx.codec.action(int(action))
        after = before.apply(act)
        seats = []
        for s in range(ctx.players):
            came = after.hands[s] & ~before.hands[s]
            seen = f"p{before.to_act}:{seen_by(before, act, s)}"
            if came:  # a drawn card or a new round's hand: only this seat sees it
                seen += f"(+{' '.join(str(ctx.play_of(c)) for c in cards_of(came))})"
            seats.append((*pos.recall[s], seen))
        self.pos = _Position(after, pos.moves + 1, tuple(seats))

    def __str__(self) -> str:
        return "chance: the deal" if self.pos is None else str(self.pos.engine)


class CardPlayObserver(SeatTensor):
    """What a seat sees now (the observation), or all it has seen (perfect recall)."""

    def __init__(self, game: CardPlayGame, perfect_recall: bool) -> None:
        super().__init__(game)
        self.perfect_recall = perfect_recall

    def string_from(self, state: CardPlayState, player: int) -> str:
        pos = state.pos
        if pos is None:
            return f"p{player} before the deal"
        if self.perfect_recall:
            return f"p{player} " + " | ".join(pos.recall[player])
        return f"p{player} {pos.engine.view(player)}"


class CardPlaySpielBot(SpielBot):
    """A bito bot in a ``python_bito_cards`` seat: it decides from the seat's view."""

    short_name = SHORT_NAME


def spiel_bot(name: str, player_id: int, seed: int | None = None) -> CardPlaySpielBot:
    """The bito bot ``name`` (:func:`bito.bots.make_bot`) as a ``pyspiel.Bot``."""
    from bito.bots import make_bot

    return CardPlaySpielBot(make_bot(name, seed), player_id)


pyspiel.register_game(_GAME_TYPE, CardPlayGame)
