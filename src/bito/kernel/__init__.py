"""The fast simulation kernel: the base games of VARIANTS.md §1 and the variants declared in
:mod:`bito.rules.kernel_rules`, compiled with numba.

The reference engine (:mod:`bito.games.durak`) stays the source of truth; this package plays
the same rules much faster for simulations, search rollouts and benchmarks, and is tested move
by move against it (``tests/test_kernel*.py``, ``bito bench --verify``).

* :func:`available` — is the compiled kernel usable here (numba installed, the ``fast`` extra)?
* :func:`supports` — does the kernel play these rules exactly? (The three base games with
  their §1 options and house rules #74-#79 on one 24-, 32-, 36- or 52-card deck, 2-8 players,
  and the variants that change what beats what (#13, #15, #17, #19, #20, #29's deuces), the
  transfer at any time (#10), the lead from the stock (#40), the second try (#39), the
  partnerships (#53-55), #29 Estonian's jokers, group throw-ins and #11's transfer (#30's
  mega card too), #96's transfer by showing a trump, the joker systems that change what
  beats what (#25, #26, #27, #81), #24's and #84's joker gifts, #28's wild cards, and since
  issue 35 most of the rest of the family (``tools/kernel_coverage.py`` lists it); the list,
  as data, is :data:`bito.rules.kernel_rules.KERNEL_OPTIONS`. A deck with jokers is numbered by
  :func:`bito.kernel.convert.card_index`.)
* :func:`supports_in_play` — #21's two decks (72 cards): never a whole game, but a position
  once at most 63 cards are in play (:func:`supports_state` asks; the cards not discarded are
  numbered by :func:`bito.kernel.convert.in_play_index`).
* :func:`supports_two_deck_start` — #21's positions before that: the search's greedy
  playouts start them on the kernel with the bottom of the stock left unnumbered, until the
  discard makes room (:mod:`bito.kernel.two_decks`).
* :func:`random_playout`, :func:`random_playouts` — play a reference position to the end with
  uniformly random legal actions and report the fool.
* :func:`play_random_games` — whole random games, the deal included (the benchmark's unit);
  ``specialise=True`` plays them on a compilation for the one rule set, its rule facts
  constants (:mod:`bito.kernel.frozen`).
* :class:`~bito.kernel.state.KernelState` — legal actions and apply, for search.
* :mod:`bito.kernel.vector` — many learning environments in one compiled loop (observations,
  legal masks, compiled opponents, the known cards views need), behind
  :class:`bito.env.vector.DurakVectorEnv`.

Every function falls back to the reference engine, transparently, when the kernel is not
available or does not support the rules: the results then follow the same distribution but not
the same random stream (the kernel draws its random numbers differently).
"""

from __future__ import annotations

import os
import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bito.rules import Rules
from bito.rules.kernel_rules import kernel_refuses

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState

_MAX_PLAYERS = 8
MAX_STEPS = 1_000_000
"""A playout longer than this is a kernel bug, reported as an error rather than a hang."""

__all__ = [
    "available", "play_random_games", "random_playout", "random_playouts", "supports",
    "supports_in_play", "supports_state", "supports_two_deck_start",
]


@lru_cache(maxsize=1)
def available() -> bool:
    """Whether the compiled kernel can run here: numba and numpy import, and the environment
    variable ``BITO_KERNEL`` is not ``off`` (a switch for comparing against the fallback)."""
    if os.environ.get("BITO_KERNEL", "").lower() in ("off", "0", "no"):
        return False
    try:
        import numba  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=512)
def supports(rules: Rules, players: int) -> bool:
    """True when the kernel plays exactly these rules with this many players (whether or not
    it is :func:`available`); callers fall back to the reference engine otherwise."""
    if not isinstance(rules, Rules):  # the kernel plays Durak rules, nothing else
        return False
    return _seats_fit(rules, players) and not kernel_refuses(rules)


def _seats_fit(rules: Rules, players: int) -> bool:
    if not rules.players_min <= players <= min(rules.max_players, _MAX_PLAYERS):
        return False
    # partnerships seat an even number, at least 4, without transfers
    return rules.team_layout == "none" or not (players < 4 or players % 2
                                               or rules.transfer_enabled)


@lru_cache(maxsize=64)
def supports_in_play(rules: Any, players: int) -> bool:
    """Rules the kernel plays but for their two decks (#21 Big fool): it takes over their
    positions once at most 63 cards are still in play (``convert.in_play_index``), never a
    whole game from the deal."""
    if not isinstance(rules, Rules) or kernel_refuses(rules) != ["deck.copies=2"]:
        return False
    return _seats_fit(rules, players)


def supports_state(state: Any) -> bool:
    """True when ``state`` is a reference position the kernel can take over: a state of any
    family may be asked, and only rules :func:`supports` accepts (which are Durak rules)
    pass."""
    rules = getattr(state, "rules", None)
    players = getattr(state, "players", 0)
    if not supports(rules, players):
        if not supports_in_play(rules, players):
            return False
        from bito.kernel.convert import in_play_index

        if in_play_index(state) is None:
            return False  # #21: more than 63 cards still in play
    # (#25's two trump suits and high joker and #27's wild jokers reach the kernel through
    # the deal's beat table and trump set, a bout closed by #28's cover through
    # ``layout.CLOSED``: every deal of the rules it plays fits)
    return True


def supports_two_deck_start(state: Any) -> bool:
    """True for a two-deck position (#21) with more than 63 cards in play whose rules the
    kernel otherwise plays: the greedy playouts may start it on the kernel with the bottom of
    the stock unnumbered (:mod:`bito.kernel.two_decks`, which still declines a stock too
    short to hide them)."""
    rules = getattr(state, "rules", None)
    players = getattr(state, "players", 0)
    if not supports_in_play(rules, players):
        return False
    from bito.kernel.convert import in_play_index

    return in_play_index(state) is None


def _use_kernel(state: DurakState) -> bool:
    return available() and supports_state(state)


def _kernel_seed(seed: int) -> int:
    """numba's generator takes a 32-bit seed: fold the others into one."""
    seed &= (1 << 64) - 1
    return (seed ^ (seed >> 32)) & 0xFFFFFFFF


def random_playout(state: DurakState, seed: int) -> int | None:
    """Play ``state`` to the end with uniformly random legal actions (it is left untouched)
    and return the fool's seat, None for a draw."""
    return random_playouts(state, 1, seed)[0]


def random_playouts(state: DurakState, n: int, seed: int) -> list[int | None]:
    """``n`` independent random playouts of ``state``; the fool of each (None for a draw)."""
    if state.is_over:
        assert state.outcome is not None
        return [state.outcome.loser] * n
    if not _use_kernel(state):
        from bito.games.durak.playout import random_playout as reference_playout

        rng = random.Random(seed)
        return [reference_playout(state, rng)[0].loser for _ in range(n)]
    import numpy as np

    from bito.kernel.batch import playouts_from
    from bito.kernel.convert import from_state

    losers = np.empty(n, np.int64)
    playouts_from(from_state(state), None, n, _kernel_seed(seed), losers, MAX_STEPS)
    return _losers(losers)


def _losers(losers: Any) -> list[int | None]:
    if (losers == -2).any():
        raise RuntimeError(f"a kernel playout ran past {MAX_STEPS} actions")
    return [None if x < 0 else int(x) for x in losers]


def play_random_games(rules: Rules, players: int, games: int, seed: int, *,
                      specialise: bool = False) -> tuple[list[int | None], int]:
    """``games`` whole random games (shuffle, deal, trump, first attacker, every move): the
    fool of each (None for a draw) and the total number of actions. Deals are drawn from the
    kernel's generator, so they differ from ``new_game``'s deals for the same seed.

    ``specialise``: play them on a compilation of the kernel for these rules, their facts as
    constants (:mod:`bito.kernel.frozen`): the same games, faster, for a one-time compilation
    of some seconds per rule set and seat count, kept on disk by numba. Worth it for a
    benchmark or a long simulation, not for a few games of many rule sets."""
    if games < 1:
        return [], 0
    if not (available() and supports(rules, players)):
        from bito.games.durak import new_game
        from bito.games.durak.playout import random_playout as reference_playout

        rng = random.Random(seed)
        out: list[int | None] = []
        actions = 0
        for g in range(games):
            outcome, steps = reference_playout(new_game(rules, players, seed=seed + g), rng)
            out.append(outcome.loser)
            actions += steps
        return out, actions
    import numpy as np

    from bito.kernel.batch import full_games
    from bito.kernel.convert import pack_of, rule_facts
    from bito.kernel.frozen import facts_of

    losers = np.empty(games, np.int64)
    template = rule_facts(rules, players)
    facts = facts_of(template) if specialise else None
    actions = full_games(template, facts, pack_of(rules), games, _kernel_seed(seed), losers,
                         MAX_STEPS)
    return _losers(losers), int(actions)
