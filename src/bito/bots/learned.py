"""The learned bot: a policy network trained on the compiled vector environment, played in numpy.

The network maps a seat's observation (:class:`~bito.env.observation.ObservationEncoder`, the
vector every bito environment speaks) to one logit per action number of the codec
(:class:`~bito.env.codec.ActionCodec`); the bot plays the legal action with the highest logit.
Only the columns of the legal actions are computed, so a move costs two small hidden layers and
a handful of dot products: no search, no PyTorch at play time.

Weights ship per game (``bito/bots/weights/learned_<variant>_<players>p.npz``; the training is
:mod:`bito.train.learned`, documented in ``docs/rl.md``). A game with no weights of its own is
played by the heuristic, and the bot says so once (a :class:`UserWarning` naming the game) and
counts those moves in :attr:`LearnedBot.fallbacks`, as the search levels do: a bot seated at a
table it was not trained for must still play, and the player should know what is playing.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bito.bots.base import Bot, DurakBot, remember
from bito.games.family import DURAK, family_for
from bito.games.protocol import PlayAction, SeatView

WEIGHTS_DIR = Path(__file__).with_name("weights")
"""Where the shipped weights live (package data)."""

LAYERS = 3
"""Two hidden ReLU layers and the logits: the shape :mod:`bito.train.learned` exports."""


def _numpy() -> Any:
    from bito.env._optional import require

    return require("numpy", "the learned bot")


@dataclass(frozen=True)
class PolicyNetwork:
    """The numpy forward pass of an exported policy: ``(w, b)`` per layer, ``w`` laid out
    (inputs, outputs), stored as float16 and computed in float32."""

    weights: tuple[Any, ...]
    biases: tuple[Any, ...]
    variant: str
    players: int

    @classmethod
    def load(cls, path: str | Path) -> PolicyNetwork:
        """Read an ``.npz`` written by :func:`bito.train.learned.export`; a file of another
        shape gets a ``ValueError`` naming the missing entry."""
        np = _numpy()
        with np.load(path, allow_pickle=False) as data:
            missing = [k for k in ("variant", "players", *(f"w{i}" for i in range(LAYERS)),
                                   *(f"b{i}" for i in range(LAYERS))) if k not in data.files]
            if missing:
                raise ValueError(f"{path}: not learned-bot weights (missing {', '.join(missing)})")
            return cls(tuple(data[f"w{i}"].astype(np.float32) for i in range(LAYERS)),
                       tuple(data[f"b{i}"].astype(np.float32) for i in range(LAYERS)),
                       str(data["variant"]), int(data["players"]))

    @property
    def obs_size(self) -> int:
        return int(self.weights[0].shape[0])

    @property
    def actions(self) -> int:
        return int(self.weights[-1].shape[1])

    def hidden(self, obs: Any) -> Any:
        """The last hidden layer for a batch of observations ``(n, obs_size)``."""
        np = _numpy()
        h = np.asarray(obs, dtype=np.float32)
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            h = np.maximum(h @ w + b, 0.0)
        return h

    def logits(self, obs: Any, columns: Any = None) -> Any:
        """Logits for a batch of observations; ``columns`` restricts them to those action
        numbers (the legal ones), which is all play needs."""
        h = self.hidden(obs)
        w, b = self.weights[-1], self.biases[-1]
        if columns is None:
            return h @ w + b
        return h @ w[:, columns] + b[columns]


def shipped_weights() -> dict[tuple[str, int], Path]:
    """The packaged weights by (variant, players), read from the files' own metadata (a
    training run's ``*.latest.npz`` checkpoint is not one of them)."""
    out: dict[tuple[str, int], Path] = {}
    for path in sorted(WEIGHTS_DIR.glob("learned_*p.npz")):
        net = PolicyNetwork.load(path)
        out[(net.variant, net.players)] = path
    return out


class LearnedBot:
    """Plays the legal action the policy network ranks highest (``make_bot("learned")``);
    games without weights are played by the heuristic (see the module docstring)."""

    name = "learned"

    def __init__(self, seed: int | None = None,
                 weights: dict[tuple[str, int], Path] | None = None) -> None:
        from bito.bots.families import FamilyHeuristicBot

        self.fallback: Bot = FamilyHeuristicBot(seed)
        self.paths = shipped_weights() if weights is None else dict(weights)
        self.fallbacks = 0
        """Moves played by the heuristic because this game has no weights."""
        self._nets: dict[tuple[type[object], object, int],
                         tuple[PolicyNetwork, Any, Any] | None] = {}

    def _network(self, view: SeatView) -> tuple[PolicyNetwork, Any, Any] | None:
        """The network, encoder and codec for this view's game, or None (warned once)."""
        # a bout-structure view names its game by ``variant`` and has no ``rules``
        key = (type(view), getattr(view, "rules", None) or getattr(view, "variant", None),
               view.players)
        if key in self._nets:
            return self._nets[key]
        found = None
        # weights name their game, so a view of another family (other rules) matches none
        from bito.env.codec import codec_for, durak_rules
        from bito.env.observation import ObservationEncoder

        for (variant, players), path in self.paths.items():
            if players == view.players and durak_rules(variant) == getattr(view, "rules", None):
                rules = DURAK.own_view(view).rules  # weights are trained on Durak views
                net = PolicyNetwork.load(path)
                enc = ObservationEncoder(rules, view.players)
                codec = codec_for(rules)
                if net.obs_size != enc.size or net.actions != codec.size:
                    raise ValueError(
                        f"{path}: the network takes {net.obs_size} inputs and "
                        f"{net.actions} actions; this game encodes {enc.size} and "
                        f"{codec.size}")
                found = (net, enc, codec)
                break
        if found is None:
            games = ", ".join(f"{v} ({p} players)" for v, p in sorted(self.paths)) or "none"
            warnings.warn(f"the learned bot has no weights for this game ({view.players} "
                          f"players); the heuristic plays for it (trained for: {games})",
                          UserWarning, stacklevel=3)
        self._nets[key] = found
        return found

    def remember(self, view: object) -> None:
        """An earlier view of this seat goes to the heuristic that plays the games without
        weights (see :func:`bito.bots.base.remember`); the network itself has no memory."""
        remember(self.fallback, view)

    def choose(self, view: SeatView) -> PlayAction:
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        found = self._network(view)
        if found is None:
            self.fallbacks += 1
            return self.fallback.choose(view)
        net, enc, codec = found
        np = _numpy()
        columns = np.array([codec.index(a) for a in legal], dtype=np.int64)
        scores = net.logits(enc.encode(view)[None, :], columns)[0]
        return legal[int(np.argmax(scores))]


class TrainedOrHeuristic:
    """A trained bot that encodes only the games it was trained for (``dmc``: 2-player
    36-card Durak), seated anywhere: a view its encoder refuses (``ValueError``, another
    family or shape) is played by the heuristic from then on for that game, with one warning
    and the moves counted in :attr:`fallbacks`, as :class:`LearnedBot` does."""

    def __init__(self, trained: DurakBot, seed: int | None = None) -> None:
        from bito.bots.families import FamilyHeuristicBot

        self.trained = trained
        self.name = trained.name
        self.fallback: Bot = FamilyHeuristicBot(seed)
        self.fallbacks = 0
        self._untrained: set[tuple[type[object], object, int]] = set()

    def remember(self, view: object) -> None:
        remember(self.fallback, view)

    def choose(self, view: Any) -> Any:
        key = (type(view), getattr(view, "rules", None), int(view.players))
        if key not in self._untrained and not family_for(view).codec:
            self._untrained.add(key)  # trained bots encode views through the codec only
            warnings.warn(f"the {self.name} bot plays Durak games only; the heuristic plays "
                          "this game for it", UserWarning, stacklevel=2)
        if key not in self._untrained:
            try:
                return self.trained.choose(DURAK.own_view(view))
            except ValueError as e:
                self._untrained.add(key)
                warnings.warn(f"the {self.name} bot cannot play this game ({e}); the "
                              "heuristic plays for it", UserWarning, stacklevel=2)
        if len(view.legal) > 1:
            self.fallbacks += 1
        return self.fallback.choose(view)


__all__ = ["WEIGHTS_DIR", "LearnedBot", "PolicyNetwork", "TrainedOrHeuristic",
           "shipped_weights"]
