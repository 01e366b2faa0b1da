"""A trained Durak player that needs only numpy: Deep Monte-Carlo action values.

The network scores one (observation, action) pair at a time: its input is the seat's
:class:`~bito.env.observation.ObservationEncoder` vector followed by the action's features
(:func:`action_features`: its kind, its cards, the card it covers). The bot evaluates every
legal action and plays the best. This is the DMC method of DouZero (Zha et al., 2021): the
target of each value is simply the final result of the deal the pair was played in.

The weights were trained by ``tools/train_dmc.py`` (PyTorch on the CPU, see ``docs/rl.md``)
and ship as a small ``.npz`` next to this module; inference here is plain numpy, so playing the
bot needs the ``rl`` extra but not PyTorch.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bito.env._optional import require
from bito.env.codec import codec_for
from bito.env.observation import ObservationEncoder
from bito.games.durak import Action, DurakView
from bito.games.durak.actions import DEFEND
from bito.rules import Rules

np: Any = require("numpy", "bito.env.agent")

#: The shipped weights: 2-player podkidnoy (36 cards).
DEFAULT_WEIGHTS = Path(__file__).with_name("weights") / "dmc_podkidnoy_2p.npz"

#: Action kinds (attack, defend, transfer, take, pass) plus the card and target planes.
KINDS = 5


def action_features(cards: tuple[int, ...], card_pos: Any, actions: list[Action]) -> Any:
    """One row per action: kind one-hot, the cards it plays, the card it covers."""
    d = len(cards)
    out = np.zeros((len(actions), KINDS + 2 * d), dtype=np.float32)
    for row, act in enumerate(actions):
        out[row, act.kind] = 1.0
        for c in act.cards:
            out[row, KINDS + card_pos[c]] = 1.0
        if act.kind == DEFEND:
            out[row, KINDS + d + card_pos[act.target]] = 1.0
    return out


class ValueNetwork:
    """The numpy forward pass of the trained multilayer perceptron (ReLU, two hidden layers)."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.layers = [(params[f"w{i}"].astype(np.float32), params[f"b{i}"].astype(np.float32))
                       for i in range(3)]
        self.obs_size = int(params["obs_size"])
        self.card_count = int(params["card_count"])
        self.players = int(params["players"])

    @classmethod
    def load(cls, path: str | Path = DEFAULT_WEIGHTS) -> ValueNetwork:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def values(self, obs: Any, feats: Any) -> Any:
        """Q-value of each action row for one observation.

        ``einsum`` rather than ``@``: these products are tiny, and a threaded BLAS on a busy
        machine can stall for milliseconds on each one. The observation's share of the first
        layer is computed once for all rows."""
        (w0, b0), (w1, b1), (w2, b2) = self.layers
        n = self.obs_size
        h = np.einsum("j,jk->k", obs, w0[:n]) + b0 + np.einsum("ij,jk->ik", feats, w0[n:])
        h = np.maximum(h, 0.0)
        h = np.maximum(np.einsum("ij,jk->ik", h, w1) + b1, 0.0)
        return np.einsum("ij,j->i", h, w2[:, 0]) + b2[0]


class DMCBot:
    """Plays the legal action with the highest learned value (``make_bot("dmc")``)."""

    name = "dmc"

    def __init__(self, seed: int | None = None, weights: str | Path = DEFAULT_WEIGHTS) -> None:
        del seed  # the policy is deterministic
        self.net = ValueNetwork.load(weights)
        self._encoders: dict[tuple[Rules, int], tuple[ObservationEncoder, Any]] = {}

    def _encoder(self, view: DurakView) -> tuple[ObservationEncoder, Any]:
        key = (view.rules, view.players)
        hit = self._encoders.get(key)
        if hit is None:
            enc = ObservationEncoder(view.rules, view.players)
            if enc.size != self.net.obs_size or len(enc.codec.cards) != self.net.card_count:
                raise ValueError(
                    f"the dmc bot was trained for {self.net.players}-player games with "
                    f"{self.net.card_count} cards; this game has {view.players} players and "
                    f"{len(enc.codec.cards)} cards")
            pos = np.full(160, -1, dtype=np.int64)
            for i, c in enumerate(codec_for(view.rules).cards):
                pos[c] = i
            hit = self._encoders[key] = (enc, pos)
        return hit

    def choose(self, view: DurakView) -> Action:
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        enc, pos = self._encoder(view)
        obs = enc.encode(view)
        q = self.net.values(obs, action_features(enc.codec.cards, pos, legal))
        return legal[int(np.argmax(q))]
