"""Scores, ratings and their confidence intervals.

* **Score**: a bot's mean result per game (1 not the fool, ½ a two-player draw, 0 the fool). Its
  95 % interval treats each duplicate set (a deal played in every rotation) as one independent
  observation, which is what duplicate deals are: the games inside a set share the cards.
* **Elo** (two players): a Bradley-Terry fit of every pairing's score by maximum likelihood
  (draws count ½), plus one virtual draw per pairing so that a clean sweep stays finite, on
  the usual Elo scale (400 points = 10 to 1), anchored at ``random`` = 0 when it plays, else
  at the first bot. Intervals come from a bootstrap over duplicate sets.
* **OpenSkill** (three players or more): a Plackett-Luce rating of every game, the fool ranked
  last and the others tied; the interval is mu ± 1.96 sigma.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bito.arena.games import GameRecord

Z95 = 1.959964
PRIOR_DRAWS = 1.0
"""Virtual drawn games added to each pairing of the Elo fit (as BayesElo's prior does)."""


@dataclass(frozen=True)
class Interval:
    low: float
    high: float

    def to_json(self) -> list[float]:
        return [round(self.low, 4), round(self.high, 4)]


def mean_interval(values: Sequence[float]) -> tuple[float, Interval]:
    """Mean and normal-approximation 95 % interval (clamped to [0, 1])."""
    n = len(values)
    if n == 0:
        return math.nan, Interval(math.nan, math.nan)
    m = sum(values) / n
    if n == 1:
        return m, Interval(0.0, 1.0)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return m, Interval(max(0.0, m - half), min(1.0, m + half))


def set_scores(records: Sequence[GameRecord]) -> dict[tuple[int, int], list[float]]:
    """Per (table, deal) duplicate set, the mean score of each bot index over the rotations."""
    sums: dict[tuple[int, int], list[float]] = {}
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for r in records:
        if r.error is not None:
            continue
        key = (r.job.table_index, r.job.deal)
        acc = sums.setdefault(key, [0.0] * len(r.scores))
        for k, s in enumerate(r.scores):
            acc[k] += s
        counts[key] += 1
    return {key: [s / counts[key] for s in acc] for key, acc in sums.items()}


def bot_scores(records: Sequence[GameRecord], bots: Sequence[str]
               ) -> dict[str, tuple[float, Interval, int]]:
    """Each bot name's mean score, its 95 % interval (over duplicate sets) and games played."""
    per_set: dict[str, list[float]] = defaultdict(list)
    games: dict[str, int] = defaultdict(int)
    tables = {r.job.table_index: r.job.table for r in records}
    for (t, _d), scores in set_scores(records).items():
        # A name seated several times at one table counts once per set, as its mean there.
        by_name: dict[str, list[float]] = defaultdict(list)
        for k, s in enumerate(scores):
            by_name[tables[t][k]].append(s)
        for name, ss in by_name.items():
            per_set[name].append(sum(ss) / len(ss))
    for r in records:
        if r.error is None:
            for name in r.job.table:
                games[name] += 1
    out = {}
    for name in bots:
        m, iv = mean_interval(per_set.get(name, []))
        out[name] = (m, iv, games.get(name, 0))
    return out


def _fit_elo(wins: dict[tuple[int, int], float], games: dict[tuple[int, int], float],
             n: int, anchor: int) -> list[float]:
    """Bradley-Terry strengths by the minorise-maximise iteration, returned as Elo."""
    gamma = [1.0] * n
    for _ in range(500):
        new = gamma[:]
        delta = 0.0
        for i in range(n):
            w = sum(wins.get((i, j), 0.0) for j in range(n) if j != i)
            den = sum(games.get((min(i, j), max(i, j)), 0.0) / (gamma[i] + gamma[j])
                      for j in range(n) if j != i)
            if den > 0:
                # A bot that never scores (or always does) has no finite rating: keep it
                # within a wide but finite range.
                new[i] = min(max(w / den, 1e-6), 1e6) if w > 0 else 1e-6
            delta = max(delta, abs(math.log(new[i]) - math.log(gamma[i])))
        gamma = new
        if delta < 1e-7:
            break
    base = math.log10(gamma[anchor])
    return [400.0 * (math.log10(g) - base) for g in gamma]


def elo_ratings(records: Sequence[GameRecord], bots: Sequence[str], anchor: str,
                bootstrap: int = 200, seed: int = 0) -> dict[str, tuple[float, Interval]]:
    """Two-player Elo per bot with a 95 % bootstrap interval (resampling duplicate sets)."""
    index = {b: i for i, b in enumerate(bots)}
    sets = _pair_sets(records, index)
    a = index[anchor]

    def fit(chosen: list[tuple[int, int, float, float]]) -> list[float]:
        wins: dict[tuple[int, int], float] = defaultdict(float)
        games: dict[tuple[int, int], float] = defaultdict(float)
        for i, j, si, g in chosen:
            wins[(i, j)] += si
            wins[(j, i)] += g - si
            games[(min(i, j), max(i, j))] += g
        for i, j in {(min(i, j), max(i, j)) for i, j, _, _ in chosen}:
            # A prior of one drawn game per pairing keeps a clean sweep's rating finite.
            wins[(i, j)] += PRIOR_DRAWS / 2
            wins[(j, i)] += PRIOR_DRAWS / 2
            games[(i, j)] += PRIOR_DRAWS
        return _fit_elo(wins, games, len(bots), a)

    point = fit(sets)
    rng = random.Random(seed)
    samples: list[list[float]] = []
    for _ in range(bootstrap if sets else 0):
        samples.append(fit([sets[rng.randrange(len(sets))] for _ in sets]))
    out = {}
    for b, i in index.items():
        col = sorted(s[i] for s in samples)
        if col:
            iv = Interval(col[int(0.025 * (len(col) - 1))], col[int(0.975 * (len(col) - 1))])
        else:
            iv = Interval(math.nan, math.nan)
        out[b] = (point[i], iv)
    return out


def _pair_sets(records: Sequence[GameRecord], index: dict[str, int]
               ) -> list[tuple[int, int, float, float]]:
    """Per duplicate set of a two-player table: (bot i, bot j, i's points, games)."""
    acc: dict[tuple[int, int], list[float]] = {}
    names: dict[tuple[int, int], tuple[str, ...]] = {}
    for r in records:
        if r.error is not None:
            continue
        key = (r.job.table_index, r.job.deal)
        row = acc.setdefault(key, [0.0, 0.0])
        row[0] += r.scores[0]
        row[1] += 1
        names[key] = r.job.table
    return [(index[names[k][0]], index[names[k][1]], v[0], v[1]) for k, v in acc.items()
            if names[k][0] != names[k][1]]


def openskill_ratings(records: Sequence[GameRecord], bots: Sequence[str]
                      ) -> dict[str, tuple[float, Interval]]:
    """OpenSkill (Plackett-Luce) mu per bot with mu ± 1.96 sigma, for tables of 3+ players:
    each game ranks the fool last and the other seats tied. A name seated several times is
    rated in each seat and keeps the mean of those seats' updates."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as e:
        raise ImportError("ratings for three or more players need openskill: "
                          "pip install 'bito[arena]'") from e
    model = PlackettLuce()
    players = {b: model.rating(name=b) for b in bots}
    for r in records:
        if r.error is not None or len(set(r.job.table)) < 2:
            continue
        table = r.job.table
        ranks = [2.0 if k == r.loser_bot else 1.0 for k in range(len(table))]
        new = model.rate([[players[name]] for name in table], ranks=ranks)
        # A name in several seats gets the mean of its seats' updates.
        for name in set(table):
            seats = [new[k][0] for k in range(len(table)) if table[k] == name]
            mu = sum(s.mu for s in seats) / len(seats)
            sigma = sum(s.sigma for s in seats) / len(seats)
            players[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {b: (p.mu, Interval(p.mu - Z95 * p.sigma, p.mu + Z95 * p.sigma))
            for b, p in players.items()}
