"""A Gymnasium vector environment stepped in compiled code: thousands of deals per call.

::

    import gymnasium as gym
    import bito.env.gymnasium  # registers the ids (and this vector entry point)

    envs = gym.make_vec("bito/Podkidnoy-v0", num_envs=1024,
                        vectorization_mode="vector_entry_point")
    obs, info = envs.reset(seed=0)
    obs, reward, terminated, truncated, info = envs.step(info["action_mask"].argmax(axis=1))

Each env is one deal with the learner in seat ``seat`` and compiled opponents in the others
(``"greedy"``, the search bots' rollout policy of :mod:`bito.kernel.greedy`, or ``"random"``);
with ``self_play=True`` the learner takes every seat and each observation is that of the seat
to act (``info["seat"]``). Observations and action integers are those of the single
environment (:class:`bito.env.gymnasium.DurakEnv`), so a policy moves between the two
unchanged; ``tests/env/test_vector_env.py`` steps both side by side and compares.

Everything per step — the learner's move, the opponents' moves, the observations, the legal
masks, the rewards and the auto-reset — happens in one compiled loop over the envs
(:func:`bito.kernel.vector.vector_step`) on the kernel's rules (:mod:`bito.kernel`, tested
move by move against the reference engine). Observation rows are written incrementally (only
the cards a move changes; ``tests/env/test_vector_observation.py`` holds every row to the
reference encoder), so with ``copy=False`` the rows handed out are read-only. It plays the
rules the kernel plays (:func:`bito.kernel.supports`) whose observation has the base games'
planes (:func:`vector_plays`); other rules get a ``ValueError`` pointing at the single
environment, which plays them all.

Auto-reset follows Gymnasium's default, ``AutoresetMode.NEXT_STEP``: the step on which a deal
ends returns its last observation, reward and ``terminated``; the next step ignores that env's
action and returns the first observation of a new deal with reward 0. Rewards are
:func:`bito.env.payoff.seat_returns` at the end of the deal (in self-play, the return of the
seat that made the last move; every seat's is in ``info["returns"]``). An illegal action ends
the deal with -1 and ``info["illegal"]``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, ClassVar

from bito.env._optional import require
from bito.env.codec import ActionCodec, codec_for, durak_rules
from bito.env.observation import ObservationEncoder
from bito.rules import Rules

gym: Any = require("gymnasium", "bito.env.vector")
np: Any = require("numpy", "bito.env.vector")

OPPONENTS = ("greedy", "random")
"""The opponents the compiled loop plays."""


def kernel_tables(codec: ActionCodec, encoder: ObservationEncoder) -> dict[str, Any]:
    """The codec's numbering and the encoder's plane offsets as the arrays the compiled loop
    reads, over the kernel's card indices (:func:`bito.kernel.convert.card_index`: a deck
    with jokers is numbered past its codes), so the numbering and the layout are defined once
    (by those two classes)."""
    from bito.kernel.convert import action_code, card_index
    from bito.kernel.layout import (
        ATTACK_KIND,
        DEFEND_KIND,
        PASS_KIND,
        SHOW_KIND,
        TAKE_KIND,
        TRANSFER_KIND,
    )
    from bito.kernel.vector import (
        C_ATTACK,
        C_DEFEND,
        C_PASS,
        C_SHOW,
        C_SIZE,
        C_TAKE,
        C_TRANSFER,
        PLANES,
    )

    players = encoder.players
    expected = {*PLANES, *(f"known_{k}" for k in range(2, players))}
    if set(encoder.planes) != expected:
        extra = ", ".join(sorted(set(encoder.planes) ^ expected))
        raise ValueError(f"the vector environment encodes the base games' observation; these "
                         f"rules change its planes ({extra})")
    index = card_index(encoder.rules)
    if index is None:
        raise ValueError("the vector environment plays one deck of at most 63 cards")
    off = np.array([encoder.planes[name].start for name in PLANES], np.int64)
    card_pos = np.full(64, -1, np.int64)
    for i, c in enumerate(codec.cards):
        card_pos[index.kernel_card(c)] = i
    codes = np.full(C_SIZE, -1, np.int64)
    act_masks = np.zeros(codec.size, np.int64)
    act_metas = np.zeros(codec.size, np.int64)
    multi: list[tuple[int, int, int]] = []  # (meta, mask, integer) of every other move
    starts = {ATTACK_KIND: C_ATTACK, TRANSFER_KIND: C_TRANSFER, SHOW_KIND: C_SHOW}
    for idx, act in enumerate(codec.actions):
        mask, meta = action_code(act, index)
        act_masks[idx] = mask
        act_metas[idx] = meta
        kind = meta & 7
        one = mask & (mask - 1) == 0 and mask != 0
        if meta == TAKE_KIND:  # (the gifts and #97's swap borrow the kind, with a target)
            codes[C_TAKE] = idx
        elif kind == PASS_KIND:
            codes[C_PASS] = idx
        elif one and kind in starts:
            codes[starts[kind] + mask.bit_length() - 1] = idx
        elif one and kind == DEFEND_KIND:
            codes[C_DEFEND + (mask.bit_length() - 1) * 64 + (meta >> 3) - 1] = idx
        else:
            multi.append((meta, mask, idx))
    multi.sort()  # (bito.kernel.vector.code_index searches them by (meta, mask))
    return {
        "off": off, "card_pos": card_pos, "codes": codes, "act_masks": act_masks,
        "act_metas": act_metas,
        "multi_masks": np.array([x for m, k, _ in multi for x in (m, k)], np.int64),
        "multi_index": np.array([i for _, _, i in multi], np.int64),
        "pack_size": float(encoder.rules.card_count),
        "all_cards": index.kernel_mask(sum(1 << c for c in codec.cards)),
    }


def aligned_zeros(shape: int | tuple[int, ...], dtype: Any) -> Any:
    """``np.zeros`` whose data starts on a 64-byte cache line: a row whose size is a whole
    number of lines (a position, the known and drawn card sets) then spans no more lines
    than it must, and the loop's prefetches fetch exactly the lines it reads."""
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = np.zeros(size + 64, np.uint8)
    start = -raw.ctypes.data % 64
    return raw[start:start + size].view(dtype).reshape(shape)


def greedy_tables(rules: Any) -> tuple[Any, Any, Any]:
    """Card worths and throw-in limits of the greedy policy for each beat table a deal may
    turn up (the rows of ``bito.kernel.layout.TRUMP_ROWS``: a card of each suit, no trump,
    either joker), as the reference's :class:`bito.bots.rollouts.CardWorth` makes them for
    that table."""
    from bito.bots.rollouts import card_worth
    from bito.kernel.convert import _trump_rows, card_index
    from bito.kernel.layout import ROWS

    index = card_index(rules)
    worth = np.zeros((ROWS, 64), np.int64)
    lim_stock = np.zeros(ROWS, np.float64)
    lim_empty = np.zeros(ROWS, np.float64)
    for row, (trumps, table) in enumerate(_trump_rows(rules)):
        w = card_worth(table, trumps)
        worth[row] = w.kernel_worth(index)
        lim_stock[row] = w.limit_stock
        lim_empty[row] = w.limit_empty
    return worth, lim_stock, lim_empty


def vector_plays(rules: Any, players: int) -> bool:
    """Whether :class:`DurakVectorEnv` plays these rules with this many seats here: the
    compiled kernel is available and plays them (:func:`bito.kernel.supports`), and their
    observation has the base games' planes (a rule that adds a plane, such as #16's own
    trumps, is not written by the compiled loop). Every rule the kernel plays has been held
    to the reference encoder, codec and payoff move by move
    (``tests/env/test_vector_observation.py``)."""
    import bito.kernel as kernel

    if not (kernel.available() and kernel.supports(rules, players)):
        return False
    from bito.kernel.vector import PLANES
    try:
        planes = set(ObservationEncoder(rules, players).planes)
    except ValueError:  # (no observation for these rules at all)
        return False
    return planes == {*PLANES, *(f"known_{k}" for k in range(2, players))}


class DurakVectorEnv(gym.vector.VectorEnv):  # type: ignore[misc]
    """``num_envs`` deals stepped in compiled code (see the module docstring).

    ``copy`` (default True) hands out fresh arrays each step; ``copy=False`` returns the
    environment's own buffers, overwritten by the next step (faster: what the benchmark
    measures, and safe for a learner that copies what it keeps). ``threads`` > 1 steps the
    envs on that many of numba's threads (at most ``numba.config.NUMBA_NUM_THREADS``); the
    games are the same, since every env has its own generator (except the rare random facts
    of a deal under ``trump.source=any_card`` or a first attacker by lot)."""

    metadata: ClassVar[dict[str, Any]] = {
        "autoreset_mode": gym.vector.AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 16, variant: Rules | str = "podkidnoy", players: int = 2,
                 opponents: Sequence[str] | str = ("greedy",), seat: int = 0,
                 self_play: bool = False, greedy_epsilon: float = 0.0, illegal: str = "lose",
                 copy: bool = True, threads: int = 1, render_mode: str | None = None) -> None:
        import bito.kernel as kernel

        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        rules = durak_rules(variant)
        if not kernel.available():
            raise ImportError("the vector environment runs in the compiled kernel, which needs "
                              "numba: pip install 'bito[fast]' (or use "
                              "vectorization_mode='sync')")
        if not kernel.supports(rules, players):
            raise ValueError(f"variant {variant!r} with {players} players: the compiled kernel "
                             "does not play these rules (bito.kernel.supports); use "
                             "gymnasium.make_vec(..., vectorization_mode='sync') or the "
                             "single environment")
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
        if illegal != "lose":
            raise ValueError(f"illegal: the vector environment ends the deal with -1 "
                             f"('lose'); {illegal!r} is only offered by the single environment")
        if render_mode is not None:
            raise ValueError("render_mode: the vector environment does not render; render a "
                             "single environment (bito.env.gymnasium.DurakEnv)")
        import numba

        most = int(getattr(numba.config, "NUMBA_NUM_THREADS", 1))
        if not isinstance(threads, int) or not 1 <= threads <= most:
            raise ValueError(f"threads must be an integer from 1 to {most} (numba's "
                             f"threads), not {threads!r}")
        if not 0.0 <= greedy_epsilon <= 1.0:
            raise ValueError(f"greedy_epsilon must lie in [0, 1], not {greedy_epsilon!r}")
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(names) == 1:
            names = names * (players - 1)
        if len(names) != players - 1:
            raise ValueError(f"opponents: give one name or {players - 1}, not {len(names)}")
        for name in names:
            if name not in OPPONENTS:
                raise ValueError(f"opponents: {name!r} is not played in compiled code; the "
                                 f"vector environment offers {', '.join(OPPONENTS)}")
        from bito.kernel.convert import card_index, pack_of, rule_facts
        from bito.kernel.layout import MAX_PLAYERS, MAX_SEEN, SEEN
        from bito.kernel.vector import DRAWN, GREEDY_OPPONENT, KNOWN_WIDTH, RANDOM_OPPONENT

        self.rules = rules
        self.variant = variant
        self.players = players
        self.seat = seat
        self.self_play = bool(self_play)
        self.opponent_names = tuple(names)
        self.copy = copy
        self.threads = threads
        self.render_mode = None
        self.num_envs = num_envs
        self.codec = codec_for(rules)
        index = card_index(rules)  # the kernel's numbering of the deck (jokers past 62)
        if index is None:  # (two decks: kernel.supports refused them above)
            raise ValueError("the vector environment plays one deck of at most 63 cards")
        self._index = index
        self.encoder = ObservationEncoder(rules, players)
        self._t = kernel_tables(self.codec, self.encoder)
        self._worth, self._lim_stock, self._lim_empty = greedy_tables(rules)
        self._eps = int(greedy_epsilon * (1 << 20))
        kinds = np.zeros(MAX_PLAYERS, np.int64)
        others = [s for s in range(players) if s != seat]
        for s, name in zip(others, names, strict=True):
            kinds[s] = GREEDY_OPPONENT if name == "greedy" else RANDOM_OPPONENT
        self._kinds = kinds
        self._template = rule_facts(rules, players)
        self._pack = pack_of(rules).copy()
        self._work = np.empty(self._pack.size, np.int64)
        # A position needs room for MAX_SEEN bout openings of (players + 3) entries each
        # (end.repetition), not of the layout's widest: rows closer together, fewer cache misses.
        self._width = width = SEEN + MAX_SEEN * (players + 3)
        n, size, acts = num_envs, self.encoder.size, self.codec.size
        # (pages untouched stay unallocated: most of a row is room for bout openings)
        self._states = aligned_zeros(n * width, np.int64)
        self._known = aligned_zeros((n, KNOWN_WIDTH), np.int64)  # (then what each passed)
        self._rngs = np.zeros(n, np.uint64)
        self._obs = np.zeros((n, size), np.float32)
        self._drawn = aligned_zeros((n, DRAWN), np.int64)  # what each row's card planes show
        self._masks = np.zeros((n, acts), np.int8)
        self._last = aligned_zeros((n, 64), np.int32)  # the mask entries each row set (codes)
        self._n_last = np.full(n, -1, np.int64)
        self._seats = np.zeros(n, np.int64)
        self._rows = np.zeros(n, np.int64)  # each deal's row of the greedy worths (trump_row)
        self._pending = np.zeros(n, np.bool_)
        self._rewards = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._illegal = np.zeros(n, np.bool_)
        self._returns = np.zeros((n, players), np.float64)
        self._all = np.ones(n, np.bool_)
        self._started = False
        # vector_step's arguments before and after the actions, gathered once (the buffers
        # are the env's own for its lifetime): a step then costs one call.
        self._head = (self._states, self._width, self._known, self._template, self._pack)
        self._tail = (
            self._pending, self.seat, self.self_play, self._kinds, self._rngs, self._worth,
            self._lim_stock, self._lim_empty, self._eps, self._t["act_masks"],
            self._t["act_metas"], self._obs, self._drawn, self._masks, self._last, self._n_last,
            self._seats, self._rows, self._rewards, self._terminated, self._truncated,
            self._illegal, self._returns, self._t["off"], self._t["card_pos"], self._t["pack_size"],
            self._t["all_cards"], self._t["codes"], self._t["multi_masks"],
            self._t["multi_index"])
        spaces = gym.spaces
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(acts)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space, n)
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, n)

    # --- gymnasium API -------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal every env (``options["reset_mask"]``: only those marked). ``seed``: one int
        (env ``i`` gets ``seed + i``) or one per env. ``options["deals"]``: reference
        positions (:class:`~bito.games.durak.DurakState`, one per env) to start from instead
        of dealing, e.g. to replay the single environment's deals."""
        from bito.kernel.vector import seed_deals, seed_envs

        n = self.num_envs
        options = dict(options or {})
        unknown = set(options) - {"reset_mask", "deals"}
        if unknown:
            raise ValueError(f"reset options: unknown {sorted(unknown)} (known: deals, "
                             "reset_mask)")
        fresh = np.ones(n, np.int64)
        if "reset_mask" in options:
            if not self._started:
                raise ValueError("reset_mask: the first reset deals every env")
            mask = np.asarray(options["reset_mask"], dtype=np.bool_)
            if mask.shape != (n,):
                raise ValueError(f"reset_mask: expected {n} booleans, got shape {mask.shape}")
            fresh[~mask] = -1
        if seed is not None or not self._started:
            seeds = self._seeds(seed)
            chosen = fresh >= 0
            rngs = self._rngs[chosen]
            seed_envs(rngs, seeds[chosen])
            self._rngs[chosen] = rngs  # (boolean indexing copied: write the generators back)
            seed_deals(int(seeds[0]) & 0xFFFFFFFF)
        if "deals" in options:
            self._load(options["deals"], fresh)
        self._started = True
        bad = self._begin(fresh, self._states, self._known, self._rngs, self._obs, self._drawn,
                          self._masks, self._last, self._n_last, self._seats, self._rows)
        self._pending[fresh >= 0] = False
        self._check(bad)
        return self._out(self._obs), self._info()

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        from bito.kernel.vector import vector_step, vector_step_threads

        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or acts.dtype.kind not in "iu":
            raise ValueError(f"actions: expected {self.num_envs} integers, got "
                             f"{acts.dtype} of shape {acts.shape}")
        acts = acts.astype(np.int64, copy=False)
        args = (*self._head, acts, *self._tail)
        if self.threads > 1 and self.num_envs >= 2 * self.threads:
            import numba

            numba.set_num_threads(self.threads)
            bad = vector_step_threads(4 * self.threads, *args)
        else:
            bad = vector_step(*args)
        self._check(bad)
        info = self._info()
        if self._illegal.any():
            info["illegal"] = self._illegal.copy()
            info["_illegal"] = self._illegal.copy()
        done = self._terminated & ~self._illegal
        if done.any():
            info["returns"] = self._returns.copy()
            info["_returns"] = done
        return (self._out(self._obs), self._out(self._rewards), self._out(self._terminated),
                self._out(self._truncated), info)

    def action_masks(self) -> Any:
        """The legal entries of every env's current decision, ``(num_envs, actions)`` int8
        (all zeros for a deal that just ended)."""
        return self._out(self._masks)

    # --- helpers -------------------------------------------------------------------------

    def _begin(self, fresh: Any, states: Any, known: Any, rngs: Any, obs: Any, drawn: Any,
               masks: Any, last: Any, n_last: Any, seats: Any, rows: Any) -> int:
        """:func:`bito.kernel.vector.vector_begin` on these buffers (the env's own, or copies
        of them: the tests rebuild rows from scratch) with the env's rules and tables."""
        from bito.kernel.vector import vector_begin

        t = self._t
        return int(vector_begin(
            states, self._width, known, self._template, self._pack, self._work,
            fresh, self.seat, self.self_play, self._kinds, rngs, self._worth, self._lim_stock,
            self._lim_empty, self._eps, obs, drawn, masks, last, n_last, seats, rows, t["off"],
            t["card_pos"], t["pack_size"], t["all_cards"], t["codes"], t["multi_masks"],
            t["multi_index"]))

    def _seeds(self, seed: int | Sequence[int] | None) -> Any:
        n = self.num_envs
        if seed is None:
            seed = secrets.randbits(62)
        if isinstance(seed, int | np.integer):
            return np.array([(int(seed) + i) & ((1 << 63) - 1) for i in range(n)], np.int64)
        seeds = list(seed)
        if len(seeds) != n or not all(isinstance(x, int | np.integer) for x in seeds):
            raise ValueError(f"seed: one int, or a list of {n} ints (one per env)")
        return np.array([int(x) & ((1 << 63) - 1) for x in seeds], np.int64)

    def _load(self, deals: Sequence[Any], fresh: Any) -> None:
        """Put reference positions into the envs marked in ``fresh`` (0: loaded)."""
        import bito.kernel as kernel
        from bito.games.durak.position_stock import BOOKS
        from bito.kernel.convert import from_state
        from bito.kernel.vector import PASSED

        chosen = [i for i in range(self.num_envs) if fresh[i] >= 0]
        if len(deals) != len(chosen):
            raise ValueError(f"deals: expected {len(chosen)} positions, got {len(deals)}")
        for i, state in zip(chosen, deals, strict=True):
            if (getattr(state, "rules", None) != self.rules or state.players != self.players
                    or not kernel.supports_state(state)):
                raise ValueError(f"deals[{chosen.index(i)}]: not a position of this "
                                 "environment's rules and seat count")
            row = from_state(state)
            w = self._width
            self._states[i * w:(i + 1) * w] = row[:w]  # (openings of this seat count fit)
            self._known[i] = 0
            self._known[i, :self.players] = [self._index.kernel_mask(k & h) for k, h in zip(
                state.known[:self.players], state.hands[:self.players], strict=True)]
            books = BOOKS.of(state)  # #31: the hand each seat passed on, his own knowledge
            if books is not None and books.passed:
                self._known[i, PASSED:PASSED + self.players] = [
                    self._index.kernel_mask(m) for m in books.passed[:self.players]]
            fresh[i] = 0

    def _check(self, bad: int) -> None:
        if bad:
            raise RuntimeError(f"{bad} legal kernel actions have no integer in the action "
                               "codec: a bug in bito.kernel.vector, please report it")

    def _out(self, arr: Any) -> Any:
        if self.copy:
            return arr.copy()
        view = arr.view()  # read-only: the next step builds on what these rows hold
        view.flags.writeable = False
        return view

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._out(self._masks), "_action_mask": self._all,
                "seat": self._out(self._seats), "_seat": self._all}

    def __repr__(self) -> str:
        return (f"DurakVectorEnv(num_envs={self.num_envs}, variant={self.variant!r}, "
                f"players={self.players}, opponents={self.opponent_names!r}, "
                f"self_play={self.self_play})")
