"""SPRT: is bot B stronger than bot A? Decide with as few duplicate pairs as the data allow.

The test compares H0 "B is ``elo0`` Elo better than A" with H1 "B is ``elo1`` better" (default
0 against 35) on the mean score of each duplicate pair, with the normal approximation that
chess testing frameworks use for game pairs: after N pairs with mean x and variance v,

    LLR = N (s1 - s0) (2 x - s0 - s1) / (2 v),   s = 1 / (1 + 10^(-elo / 400)).

It stops when the LLR leaves (log(beta / (1 - alpha)), log((1 - beta) / alpha)): above means
H1 (B is better), below means H0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

MIN_PAIRS = 10
"""No verdict before this many pairs: the variance of a handful of pairs is no guide."""


def expected_score(elo: float) -> float:
    return float(1.0 / (1.0 + 10.0 ** (-elo / 400.0)))


@dataclass(frozen=True)
class SprtResult:
    llr: float
    lower: float
    upper: float
    pairs: int
    score: float
    verdict: str  # "H1" (B better), "H0" (not better), "continue"

    def to_json(self) -> dict[str, object]:
        return {"llr": round(self.llr, 4), "bounds": [round(self.lower, 4),
                                                       round(self.upper, 4)],
                "pairs": self.pairs, "score": round(self.score, 4), "verdict": self.verdict}


def sprt(pair_scores: Sequence[float], elo0: float = 0.0, elo1: float = 35.0,
         alpha: float = 0.05, beta: float = 0.05) -> SprtResult:
    """The SPRT state after these pair scores (B's mean score per duplicate pair)."""
    if not elo1 > elo0:
        raise ValueError(f"SPRT needs elo1 > elo0 (got {elo0} and {elo1})")
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    n = len(pair_scores)
    if n < MIN_PAIRS:
        return SprtResult(0.0, lower, upper, n,
                          sum(pair_scores) / n if n else math.nan, "continue")
    x = sum(pair_scores) / n
    var = sum((p - x) ** 2 for p in pair_scores) / n
    var = max(var, 1e-3)  # all pairs alike (say B won every one): keep the step finite
    s0, s1 = expected_score(elo0), expected_score(elo1)
    llr = n * (s1 - s0) * (2 * x - s0 - s1) / (2 * var)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return SprtResult(llr, lower, upper, n, x, verdict)
