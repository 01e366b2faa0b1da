"""Differential testing: the kernel against the reference engine, move by move.

Two checks, one strict and one fast:

* :func:`compare_game` plays a random game on the reference engine and steps the kernel along
  with it, comparing after every action the full snapshot of both positions
  (:mod:`bito.kernel.convert`) and the two sets of legal actions. The test suite runs it.
* :func:`verify_game` records a reference game as a trace (at each step: the legal actions,
  the one chosen, and a fingerprint of the position: phase, seat to act, discard, stock size,
  every hand) and has compiled code replay it on the kernel, comparing each step's legal-action
  set and fingerprint and the outcome. ``bito bench --verify`` runs it on many games.

Games use random option sets of the base games (:func:`random_rules`), random seat counts and
random match contexts, so that every option the kernel plays and the first-bout rules of later
deals are hit; the catalogue variants of :data:`NAMED` are played as they are defined.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from bito.games.durak import MatchContext, new_game
from bito.games.durak.state import DurakState
from bito.kernel import layout as L
from bito.kernel import supports, supports_in_play, supports_state
from bito.kernel.convert import (
    CardIndex,
    action_code,
    action_of,
    converted,
    from_state,
    in_play_index,
    kernel_snapshot,
    reference_snapshot,
)
from bito.kernel.core import (
    legal_actions,
    legal_actions_of,
    ptr_of,
    step,
    step_of,
)
from bito.kernel.two_decks import renumber, stock_needed, two_deck_start
from bito.rules import Rules, rules_for
from bito.rules.kernel_rules import KERNEL_OPTIONS

BASES = ("simple", "podkidnoy", "perevodnoy")
NAMED = ("japanese", "podkidnoy+no_trump", "perevodnoy+no_trump", "podkidnoy+royal",
         "perevodnoy+royal", "podkidnoy+suitless", "podkidnoy+ace_only_by_trump",
         "transfer_2", "podkidnoy+armenian", "perevodnoy+armenian", "podkidnoy+second_try",
         "perevodnoy+second_try", "pair_fool", "double_fool", "team_fool", "estonian",
         "transfer_3", "capital", "big_fool", "perevodnoy+show_trump_transfer",
         "podkidnoy+double_joker", "podkidnoy+single_joker", "podkidnoy+novosibirsk_two_joker",
         "podkidnoy+double_joker_color_only", "podkidnoy+wild_58", "perevodnoy_refusal",
         "transfer_no_throw", "japanese_revealed_trump", "podkidnoy+albanian",
         "podkidnoy+no_stock", "podkidnoy+piled_up", "podkidnoy+draw_when_empty",
         "podkidnoy+arithmetic_progression", "podkidnoy+lead_strongest",
         "perevodnoy+lead_strongest", "podkidnoy+no_skip_after_take",
         "japanese_diamond_indicator", "podkidnoy+exchange", "podkidnoy+joker_gift",
         "perevodnoy+joker_gift", "podkidnoy+joker_gift_block_combo", "podkidnoy+points_fool",
         "podkidnoy+figure_count", "podkidnoy+epaulettes", "podkidnoy+buy_in",
         "podkidnoy+treshka", "perevodnoy+treshka", "podkidnoy+armenian_unlimited",
         "podkidnoy+secret_trump", "perevodnoy+secret_trump", "simple_classic_5card",
         "perevodnoy+no_transfer_first_bout", "podkidnoy+trump_swap", "perevodnoy+trump_swap",
         "akulina", "simple_partial_defense", "with_pairs", "pairs_only", "from_groups",
         "big_fool_twin_block")
"""Catalogue variants beyond the base games that the kernel plays (issue 20 item 4: what beats
what, the transfer window, the lead from the stock, the second try, partnerships; #21's two
decks from the move at most 63 cards are in play, :func:`taken_over`; issue 35: #96, the
joker systems and gifts, #28's wild cards, the lead rules, the deals, the stock group's
rules and books, #9, #18, #83, #97; #3, #4-6's lead patterns and #5's passed lead, #22's
twin block), verified as the catalogue defines them, with random seat counts, deals and
match contexts; the base games' random option sets reach the same
options (but partnerships) in other mixes."""
VERIFIED = BASES + NAMED
"""What ``bito bench --verify`` plays, in this order (the bases first, so their seeds and
games stay those of earlier runs)."""


def random_rules(base: str, rng: random.Random) -> Rules:
    """The base game with each option the kernel plays set at random: half the time to its
    base value, else to any of the values :data:`~bito.rules.kernel_rules.KERNEL_OPTIONS`
    lists for the verifier to draw (every §1 option and house rule #74-#79, VARIANTS.md
    §1.1-1.9, each with all its values)."""
    rules = rules_for(base)
    changes = {o.key: rng.choice(o.draws) for o in KERNEL_OPTIONS if o.draws
               and rng.random() < 0.5}
    return rules.with_options(**changes) if changes else rules


def random_deal(base: str, rng: random.Random) -> DurakState:
    """A reference deal of ``base`` with random options, seat count, seed and match context
    (a later deal of a match half the time, so that #78 and ``next_game_leader`` play). A
    variant of :data:`NAMED` keeps its catalogue options."""
    if base in NAMED:
        rules = rules_for(base)
        players = rng.choice([p for p in range(rules.players_min, min(6, rules.max_players) + 1)
                              if supports(rules, p) or supports_in_play(rules, p)])
    else:
        rules = random_rules(base, rng)
        players = rng.randint(2, min(6, rules.max_players))
    match = MatchContext()
    if rng.random() < 0.5:
        fool = rng.randrange(players)
        match = MatchContext(game_number=rng.randint(1, 3), dealer=fool, previous_fool=fool,
                             previous_winner=(fool + 1) % players)
    return new_game(rules, players, seed=rng.getrandbits(62), match=match)


def taken_over(state: DurakState, rng: random.Random) -> DurakState:
    """``state`` itself, or for two decks (#21) the first position of a random reference
    game from it that the kernel takes over (at most 63 cards in play, ``supports_state``;
    an ended game if none comes)."""
    while not (state.is_over or supports_state(state)):
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    return state


# --- the strict check -------------------------------------------------------------------------


def disagreement(move: int, want: dict[str, Any], got: dict[str, Any], ref: DurakState,
                 k: Any, index: Any, masks: Any, metas: Any) -> str | None:
    """What the two engines disagree on at one step, in words, or None: the positions
    (``want`` the reference's snapshot, ``got`` the kernel's), then, in a running game, the
    legal actions (the kernel's listed into ``masks``/``metas``). One check for every
    comparison of this module, so each reports a disagreement alike."""
    if want != got:
        diff = {key: (want[key], got.get(key)) for key in want if want[key] != got.get(key)}
        return f"move {move}: positions differ (reference, kernel): {diff}"
    if ref.is_over:
        return None
    legal = ref.legal_actions()
    n = legal_actions_of(k, masks, metas)
    mine = [action_of(masks[i], metas[i], index) for i in range(n)]
    if len(set(mine)) != n or set(mine) != set(legal):
        extra = sorted(str(a) for a in set(mine) - set(legal))
        missing = sorted(str(a) for a in set(legal) - set(mine))
        return (f"move {move}: legal actions differ: kernel adds {extra}, lacks {missing}"
                f" (kernel lists {n}, {len(set(mine))} distinct)")
    return None


def compare_game(state: DurakState, rng: random.Random) -> str | None:
    """Play ``state`` to the end with random actions on both engines; the first disagreement
    in words, or None."""
    state = taken_over(state, rng)
    if not supports_state(state):
        return None  # #21: the game ended with more than 63 cards in play, nothing to compare
    k, index = converted(state)
    masks = np.empty(L.MAX_ACTIONS, np.int64)
    metas = np.empty(L.MAX_ACTIONS, np.int64)
    ref = state
    for move in range(100_000):
        want, got = reference_snapshot(ref, index), kernel_snapshot(k, index)
        problem = disagreement(move, want, got, ref, k, index, masks, metas)
        if problem is not None:
            return problem
        if ref.is_over:
            return None
        legal = ref.legal_actions()
        action = legal[rng.randrange(len(legal))]
        ref = ref.apply(action)
        step_of(k, *action_code(action, index))
    return "game did not end"


def compare_two_deck_start(state: DurakState, rng: random.Random) -> tuple[str | None, bool]:
    """:func:`compare_game` for a two-deck position with more than 63 cards in play, as the
    greedy playouts start it (:mod:`bito.kernel.two_decks`: the stock's bottom cards left
    unnumbered, the cards in play numbered afresh once the discard makes room). Random actions
    on both engines; before the renumbering the reference's snapshot is compared without the
    hidden cards (its stock's bottom, their count in the openings' stock sizes), after it
    whole; at the renumbering the kernel array must hold what ``converted`` makes of the
    reference position (every fact but the trump rows of the kernel's own deal). The first
    disagreement in words (or None), and whether the renumbering was reached (False: the game
    ended first, or the kernel's stock ran down to ``two_decks.stock_needed``, where a playout
    is given back; or the position does not start)."""
    start = two_deck_start(state)
    if start is None:
        return None, False
    k = start.array.copy()
    order = start.order.copy()
    n = len(start.numbering.codes)
    hidden = start.hidden
    u = hidden.size
    t = start.tables
    index = CardIndex(start.numbering.codes, False)
    masks = np.empty(L.MAX_ACTIONS, np.int64)
    metas = np.empty(L.MAX_ACTIONS, np.int64)
    ref = state
    renumbered = False
    for move in range(100_000):
        if not renumbered and int(k[L.DISCARD]).bit_count() >= u:
            n = renumber(k, order, n, hidden, start.trump_position, t.cover, t.match, t.facts)
            renumbered = True
            own = in_play_index(ref)
            if own is None or list(own.codes) != [t.codes[p] for p in order[:n]]:
                return f"move {move}: the renumbering is not in_play_index's", True
            index = own
            want_array = converted(ref)[0]
            # (past a list's length the kernel leaves what earlier bouts wrote: not compared)
            width = ref.players + 3
            for lo, hi in ((0, L.HANDS + ref.players), (L.OUT, L.OUT + len(ref.out)),
                           (L.THROWERS, L.THROWERS + int(k[L.N_THROWERS])),
                           (L.ATTACK, L.ATTACK + int(k[L.N_ATTACK])),
                           (L.DEFENCE, L.DEFENCE + int(k[L.N_ATTACK])),
                           (L.STOCK, L.STOCK + int(k[L.N_STOCK])), (L.BEATS, L.HEAD),
                           (L.RANK_OF, L.SEEN), (L.SEEN, L.SEEN + int(k[L.N_SEEN]) * width)):
                bad = np.nonzero(want_array[lo:hi] != k[lo:hi])[0]
                if bad.size:
                    return (f"move {move}: the renumbered array differs from the take-over's "
                            f"at {[int(lo + i) for i in bad[:8]]}"), True
        if not renumbered and not ref.is_over and k[L.N_STOCK] <= stock_needed(k):
            return None, False  # given back: a playout would finish in Python from here
        want, got = reference_snapshot(ref, index), kernel_snapshot(k, index)
        if not renumbered:
            want["stock"] = want["stock"][u:]
            p = ref.players
            want["seen"] = [(*key[:p + 2], key[p + 2] - u) for key in want["seen"]]
        problem = disagreement(move, want, got, ref, k, index, masks, metas)
        if problem is not None:
            return problem, renumbered
        if ref.is_over:
            return None, renumbered
        legal = ref.legal_actions()
        action = legal[rng.randrange(len(legal))]
        ref = ref.apply(action)
        step_of(k, *action_code(action, index))
    return "game did not end", renumbered


# --- the fast check ---------------------------------------------------------------------------

_WIDTH = 4 + L.MAX_PLAYERS  # fingerprint: phase, to_act, discard, stock size, hands


def _trace(state: DurakState, rng: random.Random
           ) -> tuple[list[int], list[int], list[int], list[int], int, int]:
    """A random reference game from ``state`` as flat lists: legal-action counts, their codes,
    the chosen codes, fingerprints; then the fool (-1 for a draw) and whether it was a draw."""
    s = state.copy()
    index = converted(state)[1]
    km = index.kernel_mask
    legal = s.legal_list  # (the kernel plays no rule with hooks: the phase generators' lists)
    pad = [0] * (L.MAX_PLAYERS - s.players)
    counts: list[int] = []
    codes: list[int] = []
    chosen: list[int] = []
    prints: list[int] = []
    rand = rng.random
    while s.outcome is None:
        acts = legal()
        prints += (s.phase, s.to_act, km(s.discard), len(s.stock), *map(km, s.hands), *pad)
        counts.append(len(acts))
        for a in acts:
            codes += action_code(a, index)
        a = acts[int(rand() * len(acts))]
        chosen += action_code(a, index)
        s.step_unchecked(a)
    o = s.outcome
    return counts, codes, chosen, prints, -1 if o.loser is None else o.loser, int(o.draw)


# Cached on disk like the rest of the kernel: numba keys a cached function on this file alone,
# but importing core first runs bito.kernel.freshness, which drops every cached function when
# any kernel source (this file and core.py included) changed since the cache was written. So
# the replay compiles once per install, not once in every process that verifies.
@njit(cache=True)
def _sorted_pairs(masks, metas, n):  # type: ignore[no-untyped-def]
    """The (mask, meta) pairs in a canonical order (by mask, then meta)."""
    keys = np.empty(n, np.int64)
    for i in range(n):
        keys[i] = masks[i] ^ (metas[i] * 0x9E3779B97F4A7C1)
    order = np.argsort(keys)
    out = np.empty((n, 2), np.int64)
    for i in range(n):
        out[i, 0] = masks[order[i]]
        out[i, 1] = metas[order[i]]
    return out


@njit(cache=True)
def _replay(start, counts, codes, chosen, prints, loser, draw):  # type: ignore[no-untyped-def]
    """Replay a trace on the kernel: -1 if every step agrees, else the first step that does
    not (``len(counts)`` when only the outcome differs)."""
    s = start.copy()
    p = ptr_of(s)
    masks = np.empty(8192, np.int64)
    metas = np.empty(8192, np.int64)
    mp = ptr_of(masks)
    tp = ptr_of(metas)
    n = s[L.PLAYERS]
    off = 0
    for t in range(counts.size):
        base = t * _WIDTH
        if (s[L.PHASE] != prints[base] or s[L.TO_ACT] != prints[base + 1]
                or s[L.DISCARD] != prints[base + 2] or s[L.N_STOCK] != prints[base + 3]):
            return t
        for i in range(n):
            if s[L.HANDS + i] != prints[base + 4 + i]:
                return t
        k = legal_actions(p, mp, tp)
        if k != counts[t]:
            return t
        mine = _sorted_pairs(masks, metas, k)
        theirs = _sorted_pairs(codes[2 * off:2 * (off + k):2], codes[2 * off + 1:2 * (off + k):2],
                               k)
        for i in range(k):
            if mine[i, 0] != theirs[i, 0] or mine[i, 1] != theirs[i, 1]:
                return t
        off += k
        step(p, chosen[2 * t], chosen[2 * t + 1])
    if s[L.RESULT] == 0 or s[L.LOSER] != loser or (s[L.RESULT] == 2) != (draw == 1):
        return counts.size
    return -1


def verify_game(state: DurakState, rng: random.Random) -> int:
    """Play a random reference game from ``state`` and replay it on the kernel: the number of
    actions checked, or raise :class:`Disagreement` at the first step that differs."""
    state = taken_over(state, rng)
    if not supports_state(state):
        return 0  # #21: the game ended with more than 63 cards in play, nothing to replay
    counts, codes, chosen, prints, loser, draw = _trace(state, rng)
    start = from_state(state)
    bad = _replay(start, np.array(counts, np.int64), np.array(codes, np.int64),
                  np.array(chosen, np.int64), np.array(prints, np.int64), loser, draw)
    if bad >= 0:
        raise Disagreement(state, bad)
    return len(counts)


class Disagreement(AssertionError):
    """The kernel and the reference engine differ; names the deal and the step."""

    def __init__(self, state: DurakState, step_index: int, what: str = "") -> None:
        d = state.deal
        where = what or f"kernel and reference disagree at action {step_index}"
        super().__init__(f"{where} of a {d.players}-player game, seed {d.seed}, match "
                         f"{d.match}, options {d.rules.changed_options()}")
        self.state = state
        self.step_index = step_index


@dataclass
class VerifyReport:
    """What ``bito bench --verify`` found for one base game."""

    variant: str
    games: int = 0
    actions: int = 0
    disagreements: int = 0
    option_sets: set[tuple[tuple[str, Any], ...]] = field(default_factory=set)
    first_failure: str = ""
    started: int = 0
    """Two-deck games (#21) also compared from the deal by :func:`compare_two_deck_start`."""

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "games": self.games, "actions": self.actions,
                "disagreements": self.disagreements, "option_sets": len(self.option_sets),
                "first_failure": self.first_failure, "two_deck_starts": self.started}


TWO_DECK_STARTS_PER_CHUNK = 2
"""Games of a two-deck chunk also played from the deal by the strict
:func:`compare_two_deck_start` (a second or two each in Python)."""


def verify_chunk(job: tuple[str, int, int]) -> VerifyReport:
    """``games`` random games of one base game from ``seed`` (a picklable unit of work)."""
    base, games, seed = job
    rng = random.Random(seed)
    report = VerifyReport(base)
    for _ in range(games):
        state = random_deal(base, rng)
        report.option_sets.add(tuple(sorted(state.rules.changed_options().items())))
        report.games += 1
        if state.rules.deck_copies > 1 and report.started < TWO_DECK_STARTS_PER_CHUNK:
            # #21 from the deal, as the search's playouts start it (strict, so only a few)
            failure, _ = compare_two_deck_start(state, rng)
            report.started += 1
            if failure is not None:
                report.disagreements += 1
                report.first_failure = report.first_failure or (
                    f"two-deck start, seed {state.deal.seed}: {failure}")
        try:
            report.actions += verify_game(state, rng)
        except Disagreement as e:
            report.disagreements += 1
            report.first_failure = report.first_failure or str(e)
    return report
