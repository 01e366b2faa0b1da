"""Running an arena: tables, duplicate deals on an executor, and the summary.

``round-robin`` seats every pairing of the bots (two players) or every choice of ``players`` of
them (more players; a list exactly one table long is that table). ``gauntlet`` seats the first
bot against each of the others. ``sprt`` plays bot B (the second) against bot A (the first) in
batches of duplicate pairs until the SPRT decides.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bito.arena.games import GameJob, GameRecord, jobs_for, play_job
from bito.arena.ratings import (
    Interval,
    bot_scores,
    elo_ratings,
    mean_interval,
    openskill_ratings,
    set_scores,
)
from bito.arena.sprt import SprtResult, sprt
from bito.executors import Executor, make_executor
from bito.i18n import _, ngettext

MODES = ("round-robin", "gauntlet", "sprt")
Progress = Callable[[int, int], None]


@dataclass
class ArenaResult:
    variant: str
    players: int
    bots: list[str]
    mode: str
    pairs: int
    seed: int
    think_ms: float | None
    tables: list[tuple[str, ...]]
    playouts: int | None = None
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    sprt: SprtResult | None = None

    @property
    def rating_system(self) -> str:
        return "elo" if self.players == 2 else "openskill"

    def anchor(self) -> str:
        return "random" if "random" in self.bots else self.bots[0]

    def ratings(self) -> dict[str, tuple[float, Interval]]:
        names = list(dict.fromkeys(self.bots))
        if self.players == 2:
            if len(names) < 2:
                return {}
            return elo_ratings(self.records, names, self.anchor(), seed=self.seed)
        return openskill_ratings(self.records, names)

    def matchups(self) -> list[dict[str, Any]]:
        """Per table: each seat's mean score over duplicate sets, with its interval, and the
        sets' own scores (``deal_scores``, one list per deal in deal order, a score per bot
        index), so chunks of a long run can be pooled deal by deal
        (``tools/arena_merge.py --pooled``)."""
        by_table: dict[int, list[list[float]]] = {}
        for (t, _d), scores in sorted(set_scores(self.records).items()):
            by_table.setdefault(t, []).append(scores)
        out = []
        for t, table in enumerate(self.tables):
            rows = by_table.get(t, [])
            seats = []
            for k, name in enumerate(table):
                m, iv = mean_interval([r[k] for r in rows])
                seats.append({"bot": name, "score": _r(m), "interval": iv.to_json()})
            out.append({"table": list(table), "pairs": len(rows), "seats": seats,
                        "deal_scores": [[_r(v) for v in r] for r in rows]})
        return out

    def to_json(self) -> dict[str, Any]:
        scores = bot_scores(self.records, list(dict.fromkeys(self.bots)))
        ratings = self.ratings()
        fools: dict[str, int] = {}
        seat_games: dict[str, int] = {}
        errors = draws = 0
        for r in self.records:
            if r.error is not None:
                errors += 1
                continue
            draws += r.draw
            for k, name in enumerate(r.job.table):
                seat_games[name] = seat_games.get(name, 0) + 1
                fools[name] = fools.get(name, 0) + (r.loser_bot == k)
        bots = []
        for name, (m, iv, games) in scores.items():
            entry: dict[str, Any] = {"name": name, "score": _r(m), "interval": iv.to_json(),
                                     "games": games}
            if seat_games.get(name):
                entry["fool_rate"] = _r(fools[name] / seat_games[name])
            if name in ratings:
                entry["rating"] = round(ratings[name][0], 1)
                entry["rating_interval"] = [round(ratings[name][1].low, 1),
                                            round(ratings[name][1].high, 1)]
            bots.append(entry)
        out: dict[str, Any] = {
            "variant": self.variant, "players": self.players, "pairs": self.pairs,
            "mode": self.mode, "seed": self.seed, "think_ms": self.think_ms,
            "playouts": self.playouts,
            "rating_system": self.rating_system,
            "anchor": self.anchor() if self.players == 2 else None,
            "bots": bots, "matchups": self.matchups(), "games": len(self.records),
            "errors": errors, "draws": draws, "seconds": round(self.seconds, 2),
        }
        if self.sprt is not None:
            out["sprt"] = self.sprt.to_json()
        if errors:
            kinds: dict[str, int] = {}
            for r in self.records:
                if r.error is not None:
                    kind = r.error.split(":", 1)[0]
                    kinds[kind] = kinds.get(kind, 0) + 1
            out["errors_by_kind"] = kinds
        return out

    def table_text(self) -> str:
        """The results table for the terminal."""
        data = self.to_json()
        unit = _("Elo") if self.players == 2 else "OpenSkill mu"
        head = (_("bot"), _("score"), _("95% interval"), _("fool rate"), _("interval"))
        w = (max(14, len(head[0]) + 2), max(8, len(head[1]) + 2), max(17, len(head[2]) + 2),
             max(10, len(head[3]) + 2))
        counts = (ngettext("{n} duplicate deal per table", "{n} duplicate deals per table",
                           self.pairs).format(n=self.pairs),
                  ngettext("{n} game", "{n} games", int(data["games"])).format(n=data["games"]),
                  ngettext("{n} draw", "{n} draws", int(data["draws"])).format(n=data["draws"]),
                  ngettext("{n} error", "{n} errors", int(data["errors"])).format(
                      n=data["errors"]))
        lines = [_("{variant}, {players} players, {deals}, {games} ({draws}, {errors}), "
                   "{seconds} s").format(variant=self.variant, players=self.players,
                                         deals=counts[0], games=counts[1], draws=counts[2],
                                         errors=counts[3], seconds=data["seconds"]),
                 f"{head[0]:<{w[0]}}{head[1]:>{w[1]}}  {head[2]:<{w[2]}}{head[3]:>{w[3]}}  "
                 f"{unit:>8}  {head[4]}"]
        for b in sorted(data["bots"], key=lambda e: -(e.get("rating") or 0.0)):
            lo, hi = b["interval"]
            rating = f"{b['rating']:>8.1f}" if "rating" in b else f"{'-':>8}"
            riv = (f"[{b['rating_interval'][0]:.0f}, {b['rating_interval'][1]:.0f}]"
                   if "rating_interval" in b else "")
            interval = f"[{lo:.3f}, {hi:.3f}]"
            lines.append(f"{b['name']:<{w[0]}}{b['score']:>{w[1]}.3f}  {interval:<{w[2]}}"
                         f"{b.get('fool_rate', 0.0):>{w[3]}.3f}  {rating}  {riv}")
        if len(self.tables) > 1:
            lines.append("")
            for m in data["matchups"]:
                seats = ", ".join(f"{s['bot']} {s['score']:.3f} [{s['interval'][0]:.3f}, "
                                  f"{s['interval'][1]:.3f}]" for s in m["seats"])
                lines.append(f"  {_(' vs ').join(m['table'])}: {seats} " + ngettext(
                    "({n} deal)", "({n} deals)", int(m["pairs"])).format(n=m["pairs"]))
        if self.sprt is not None:
            s = self.sprt
            lines.append("")
            verdict = {"H1": _("{b} is stronger than {a}"),
                       "H0": _("{b} is not stronger than {a}"),
                       "continue": _("undecided (pair limit reached)")}[s.verdict].format(
                a=self.bots[0], b=self.bots[1])
            lines.append(_("SPRT: LLR {llr} in ({lower}, {upper}) after {pairs} pairs, score "
                           "{score}: {verdict}").format(
                llr=f"{s.llr:.2f}", lower=f"{s.lower:.2f}", upper=f"{s.upper:.2f}",
                pairs=s.pairs, score=f"{s.score:.3f}", verdict=verdict))
        return "\n".join(lines)


def _r(x: float) -> float:
    return round(x, 4)


def tables_for(bots: Sequence[str], players: int, mode: str) -> list[tuple[str, ...]]:
    """The tables an arena plays (see the module docstring)."""
    if mode not in MODES:
        raise ValueError(f"unknown arena mode {mode!r}; choose from {', '.join(MODES)}")
    if len(bots) < 2:
        raise ValueError("an arena needs at least two bots")
    if players == 2:
        if mode == "sprt":
            if len(bots) != 2:
                raise ValueError("--sprt compares exactly two bots: A,B")
            return [(bots[0], bots[1])]
        if mode == "gauntlet":
            return [(bots[0], b) for b in bots[1:]]
        return [(a, b) for a, b in itertools.combinations(bots, 2)]
    if mode != "round-robin":
        raise ValueError(f"{mode} is for two players; with {players} use round-robin")
    if len(bots) == players:
        return [tuple(bots)]
    if len(bots) < players:
        raise ValueError(f"{players} seats need {players} bots (repeat a name to seat it "
                         f"twice), got {len(bots)}")
    return list(itertools.combinations(bots, players))


def run_arena(variant: str, players: int, bots: Sequence[str], pairs: int, seed: int = 0,
              mode: str = "round-robin", think_ms: float | None = None,
              executor: Executor | None = None, progress: Progress | None = None,
              elo0: float = 0.0, elo1: float = 35.0,
              playouts: int | None = None) -> ArenaResult:
    """Play the arena and return its results (``pairs``: duplicate deals per table; in SPRT
    mode the most pairs it may play)."""
    tables = tables_for(bots, players, mode)
    if mode == "sprt" and not elo1 > elo0:  # before the games, not after the first batch
        raise ValueError(f"SPRT needs elo1 > elo0 (got {elo0} and {elo1})")
    result = ArenaResult(variant, players, list(bots), mode, pairs, seed, think_ms, tables,
                         playouts=playouts)
    own = executor is None
    ex = executor or make_executor("local")
    started = time.perf_counter()
    try:
        if mode == "sprt":
            _run_sprt(result, ex, progress, elo0, elo1)
        else:
            jobs = jobs_for(variant, players, tables, range(pairs), seed, think_ms, playouts)
            _play(result, ex, jobs, progress, len(jobs))
    finally:
        if own:
            ex.close()
    result.seconds = time.perf_counter() - started
    return result


def _play(result: ArenaResult, ex: Executor, jobs: list[GameJob], progress: Progress | None,
          total: int) -> None:
    for rec in ex.map(play_job, jobs):
        result.records.append(rec)
        if progress is not None:
            progress(len(result.records), total)


def _run_sprt(result: ArenaResult, ex: Executor, progress: Progress | None, elo0: float,
              elo1: float) -> None:
    batch = max(4, 2 * ex.workers)
    done = 0
    total = result.pairs * result.players
    while done < result.pairs:
        deals = range(done, min(result.pairs, done + batch))
        jobs = jobs_for(result.variant, result.players, result.tables, deals, result.seed,
                        result.think_ms, result.playouts)
        _play(result, ex, jobs, progress, total)
        done = deals.stop
        pair_scores = [s[1] for _, s in sorted(set_scores(result.records).items())]
        result.sprt = sprt(pair_scores, elo0, elo1)
        if result.sprt.verdict != "continue":
            break
    result.pairs = done
