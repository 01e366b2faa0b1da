"""Game review: each decision of a finished game beside the move the analysis level prefers.

``bito review RECORD`` walks a game from its deal (or from any position: :func:`review_moves`).
At every decision of a reviewed seat that offers a choice (a move forced by the rules is
skipped), it hands the analysis level (:func:`bito.bots.levels.make_level`) **that seat's
view at the time** — ``state.view(seat)`` and the views before it, never the hidden cards —
and reads its estimate of every legal move: the chance of not being the fool. The gap between
the best estimate and the played move's is the *loss*, in points of that chance, and a
category says how much it matters (docs/review.md):

==========  ==============================================================================
category    the played move ...
==========  ==============================================================================
best        is the analysis level's choice, or within :data:`BEST_WITHIN` (half a point)
good        loses less than :data:`GOOD_BELOW` (1 point)
inaccuracy  loses less than :data:`INACCURACY_BELOW` (2 points)
mistake     loses less than :data:`MISTAKE_BELOW` (10 points)
blunder     loses more
==========  ==============================================================================

The scale is the search's own: a Durak search does not trust a gap of two points or less
between moves (:data:`bito.bots.prudence.TIE_MARGIN`), and the positions of the blunder suite
(``bito/bots/blunders.txt``: trumps spent for nothing, needless takes, trump leads), which a
strong player calls clear errors, cost from two to seven points. Two refinements come from
what the search knows beyond its estimates:

* **Proven endings.** Once the stock is empty in a two-player Durak game, a seat that watched
  knows every card, and the exact solver (:mod:`bito.bots.solver`) decides the ending. The
  review gives the proven result instead of an estimate: a move that turns a won ending into
  a draw or a loss, or a drawn one into a loss, is a blunder ("a won ending thrown away"); a
  move that keeps the best proven result is best. Where every move loses against best play,
  the estimates against a fallible opponent rank the moves, at worst an inaccuracy.
* **Moves the sample cannot tell apart.** Among moves whose chances are within sampling noise
  of the best, the search plays the one that gives up least (:mod:`bito.bots.prudence`: the
  low trump before the ace, a cheap cover before taking). A played move in that tie that
  gives up a trump, a higher trump or the tempo (a needless take, a cover before a hopeless
  take) is a *mistake*; one that gives up only a higher plain card, or keeps a card the best
  move sheds, an *inaccuracy*; one that gives up nothing more is best or good. The playouts
  are blind to what such cards are worth later in the deal; a strong player is not.

The review runs on playout budgets and never on a clock, so a record reviewed twice with the
same seed gives the same review on any machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bito.errors import BitoError
from bito.i18n import N_, _, ngettext

CATEGORIES: Final = ("best", "good", "inaccuracy", "mistake", "blunder")

BEST_WITHIN: Final = 0.005
"""A played move scoring within this of the best estimate counts as best."""
GOOD_BELOW: Final = 0.01
"""Losses below this (in the chance of not being the fool, 0 to 1) are good."""
INACCURACY_BELOW: Final = 0.02
"""Losses below this are inaccuracies."""
MISTAKE_BELOW: Final = 0.10
"""Losses below this are mistakes; larger ones are blunders."""

WEIGHTS: Final = {"best": 1.0, "good": 0.9, "inaccuracy": 0.6, "mistake": 0.3, "blunder": 0.0}
"""What a decision of each category adds to the accuracy (the mean over the seat's reviewed
decisions, as a percentage)."""

DEFAULT_PLAYOUTS: Final = 20_000
"""Playouts per decision by default, the analysis level's own budget (docs/review.md has the
cost and the stability it buys)."""

DEFAULT_SOLVER_NODES: Final = 2_000_000
"""The endgame solver's node cap per decision; a bigger ending is estimated by sampling."""


class ReviewError(BitoError, ValueError):
    """A review that cannot be made as asked (a seat out of range, a censored record)."""


@dataclass(frozen=True)
class MoveReview:
    """One reviewed decision."""

    number: int  # the action's number in the record (1 = the first move)
    seat: int
    played: Any
    best: Any
    played_chance: float  # the chance of not being the fool after the played move
    best_chance: float
    category: str
    why: str  # which reason (:data:`WHY`)
    choices: int  # legal moves
    proven: tuple[int, int] | None = None  # (played, best) exact values: +1 win, 0 draw, -1 loss
    gives_up: str = ""  # what the played move gives up beyond the best (:data:`GIVES_UP`)

    @property
    def loss(self) -> float:
        return max(0.0, self.best_chance - self.played_chance)

    def to_json(self) -> dict[str, Any]:
        return {"n": self.number, "seat": self.seat, "played": str(self.played),
                "best": str(self.best), "played_chance": round(self.played_chance, 4),
                "best_chance": round(self.best_chance, 4), "loss": round(self.loss, 4),
                "category": self.category, "reason": reason_text(self, english=True),
                "why": self.why, "gives_up": self.gives_up,
                "choices": self.choices,
                "proven": list(self.proven) if self.proven is not None else None}


@dataclass
class SeatSummary:
    """A seat's review in numbers."""

    seat: int
    name: str
    counts: dict[str, int]
    accuracy: float | None  # percent; None when no decision was reviewed
    turning_point: MoveReview | None  # the costliest mistake or blunder
    fool: bool | None  # whether the seat ended the fool (None: the game did not finish)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "counts": self.counts,
                "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
                "turning_point": self.turning_point.number if self.turning_point else None,
                "fool": self.fool}


@dataclass
class GameReview:
    """The review of one game (or of the moves after a starting position)."""

    variant: str
    players: int
    names: list[str]
    seats: list[int]
    moves: list[MoveReview] = field(default_factory=list)
    summaries: list[SeatSummary] = field(default_factory=list)
    forced: int = 0  # decisions skipped: one legal move
    unsearched: int = 0  # decisions the analysis level plays by a rule, not a search
    playouts: int = DEFAULT_PLAYOUTS
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "players": self.players, "names": self.names,
                "seats": self.seats, "playouts": self.playouts, "seed": self.seed,
                "forced": self.forced, "unsearched": self.unsearched,
                "thresholds": {"best_within": BEST_WITHIN, "good_below": GOOD_BELOW,
                               "inaccuracy_below": INACCURACY_BELOW,
                               "mistake_below": MISTAKE_BELOW},
                "moves": [m.to_json() for m in self.moves],
                "summaries": [s.to_json() for s in self.summaries]}


def category_of(loss: float) -> str:
    """The category of a loss in the chance of not being the fool (module docstring)."""
    if loss <= BEST_WITHIN:
        return "best"
    if loss < GOOD_BELOW:
        return "good"
    if loss < INACCURACY_BELOW:
        return "inaccuracy"
    if loss < MISTAKE_BELOW:
        return "mistake"
    return "blunder"


def _pretty(action: Any) -> str:
    pretty = getattr(action, "pretty", None)
    return str(pretty()) if pretty is not None else str(action)


def _pct(chance: float) -> str:
    return f"{100 * chance:.0f}%"


SERIOUS: Final = ("keeps a trump", "keeps the higher trump", "no need to take")
"""What a move the sample ties with the best gives up that makes it a mistake (the words of
:func:`bito.bots.prudence.keeps_text`); anything less is an inaccuracy."""

WHY: Final = ("choice", "as_good", "noise", "gives_up", "worse", "proven_keep", "proven_lost",
              "proven_thrown")
"""The reasons a decision is given (:func:`reason_text` says each in words)."""

GIVES_UP: Final = {
    "no need to take": N_("there is no need to take"),
    "the bout ends in a take anyway, so covering first would only show a card":
        N_("the bout ends in a take anyway, so covering first only shows a card"),
    "keeps the card": N_("it keeps the card"),
    "keeps a trump": N_("it keeps a trump"),
    "sheds more cards at once": N_("it sheds more cards at once"),
    "keeps the higher trump": N_("it keeps the higher trump"),
    "keeps the higher card": N_("it keeps the higher card"),
}
"""What a move gives up beyond the best, in the words of :func:`bito.bots.prudence.keeps_text`
(the key) and the review's (the value, translated when shown)."""


class SeatReviewer:
    """The analysis level sitting in one seat: it sees that seat's views in order (the same
    memory a bot playing the seat would have) and judges the seat's decisions."""

    def __init__(self, seat: int, seed: int, playouts: int, solver_nodes: int) -> None:
        from bito.bots.levels import LevelBot, make_level

        bot = make_level("analysis", seed, think_ms=0, playouts=playouts)
        assert isinstance(bot, LevelBot)
        bot.solver_nodes = solver_nodes
        self.bot = bot
        self.seat = seat
        self.solver_nodes = solver_nodes

    def watch(self, view: Any, mover: int, action: Any) -> None:
        """Another seat's move, with this seat's view just before it."""
        self.bot.observe(view, mover, action)

    def remember(self, view: Any) -> None:
        """A view of this seat where it had nothing to decide."""
        self.bot.remember(view)

    def estimates(self, view: Any) -> list[Any] | None:
        """Every legal move's estimate, best first, or None where the analysis level plays
        this decision by a rule (no search: a blind play, a call judged by the covers, the
        decisions some games keep for their rule of thumb)."""
        from bito.bots.base import view_family
        from bito.bots.levels import OWN_SEARCHES, durak_searchable
        from bito.games.durak.blind import FaceOut
        from bito.games.durak.view import extension_of

        bot = self.bot
        if view_family(view) in OWN_SEARCHES:
            blind = extension_of(view, FaceOut) is not None
            if blind or not durak_searchable(view):
                return None
            found = list(bot.analyse(view))
        else:
            family = bot._family_bot()
            if not family.supports(view):
                return None
            from bito.bots.families import game_policy

            family.sampler.observe(view)
            policy = game_policy(view)
            if policy is not None and (policy.chance is not None or policy.model is not None
                                       or (policy.rule_decides is not None
                                           and policy.rule_decides(view))):
                return None
            try:
                found = list(family.analyse(view))
            except Exception:  # a world the sampler cannot deal: not estimated
                return None
        if found and found[0].proven is not None:
            return found  # a proven ending (the solver stops at the first winning move)
        if len(found) < 2 or any(math.isnan(e.score) for e in found):
            return None
        return found

    def judge(self, view: Any, played: Any, number: int) -> MoveReview | None:
        """The review of ``played`` in ``view`` (None: not estimated, see :meth:`estimates`)."""
        found = self.estimates(view)
        if found is None:
            return None
        mine = next((e for e in found if str(e.action) == str(played)), None)
        chosen = found[0]
        if chosen.proven is not None:
            return self._judge_proven(view, played, number, found, mine)
        if mine is None:
            return None
        top = max(found, key=lambda e: e.score)
        loss = max(0.0, top.score - mine.score)
        best = chosen.action
        gives_up = ""
        if str(played) == str(best):
            category, why = "best", "choice"
        elif mine.tied:
            category, why, gives_up = self._tied(view, best, played, loss)
        else:
            category = category_of(loss)
            why = "as_good" if category == "best" else "worse"
        return MoveReview(number, self.seat, played, best, mine.score, top.score, category,
                          why, len(view.legal), gives_up=gives_up)

    def _tied(self, view: Any, best: Any, played: Any, loss: float) -> tuple[str, str, str]:
        """A move the sample cannot tell from the best one: its category by what it gives up
        beyond the analysis level's choice (the module docstring)."""
        from bito.bots.prudence import keeps_text, move_cost

        if _order_only(best, played) or move_cost(view, played) <= move_cost(view, best) + 1e-9:
            if loss <= BEST_WITHIN:
                return "best", "as_good", ""
            return "good", "noise", ""
        words = keeps_text(best, played, view)
        category = "mistake" if words in SERIOUS or words.startswith("the bout ends") else (
            "inaccuracy")
        return category, "gives_up", words

    def _judge_proven(self, view: Any, played: Any, number: int, found: list[Any],
                      mine: Any) -> MoveReview | None:
        """A two-player ending the solver decided: proven values, not estimates."""
        best = found[0]
        value = mine.proven if mine is not None else None
        if value is None:
            value = self._proven_value(view, played)
        if value is None or best.proven is None:
            return None
        proven = (value, best.proven)
        choices = len(view.legal)
        if value < best.proven:
            return MoveReview(number, self.seat, played, best.action, PROVEN_CHANCE[value],
                              PROVEN_CHANCE[best.proven], "blunder", "proven_thrown",
                              choices, proven)
        if best.proven == -1 and mine is not None and not math.isnan(mine.score):
            # Every move loses against best play: the sample says which leaves a fallible
            # opponent the most chances to go wrong.
            top = max(found, key=lambda e: e.score)
            loss = max(0.0, top.score - mine.score)
            category = "best" if str(played) == str(best.action) else category_of(loss)
            if CATEGORIES.index(category) > CATEGORIES.index("inaccuracy"):
                category = "inaccuracy"  # no move changes the proven result
            return MoveReview(number, self.seat, played, best.action, mine.score, top.score,
                              category, "proven_lost", choices, proven)
        return MoveReview(number, self.seat, played, best.action, PROVEN_CHANCE[value],
                          PROVEN_CHANCE[best.proven], "best", "proven_keep", choices, proven)

    def _proven_value(self, view: Any, played: Any) -> int | None:
        """The exact value of the played move where the search stopped at the first win."""
        from bito.bots.determinize import template
        from bito.bots.solver import Solver, SolverBudgetExceeded

        try:
            t = template(view, self.bot.tracker)
            world = t.build(list(t.pool))
            child = world.copy()
            child.step_unchecked(played)
            return Solver(max_nodes=self.solver_nodes).value(child, view.seat)
        except (SolverBudgetExceeded, ValueError):
            return None


def _order_only(best: Any, played: Any) -> bool:
    """Whether two tied moves are covers of different attack cards: the defender who covers
    the bout covers both, so the order tells nothing about what he gives up."""
    from bito.games.durak import DEFEND

    return (getattr(best, "kind", None) == DEFEND == getattr(played, "kind", None)
            and getattr(best, "target", None) != getattr(played, "target", None))


PROVEN_CHANCE: Final = {1: 1.0, 0: 0.5, -1: 0.0}
"""A proven result as a chance of not being the fool (a draw counts half, as the search's)."""

Progress = Callable[[int, int], None]


def review_moves(start: Any, actions: Sequence[tuple[int, Any]], seats: Sequence[int], *,
                 names: Sequence[str] | None = None, variant: str = "",
                 playouts: int = DEFAULT_PLAYOUTS, seed: int = 0,
                 solver_nodes: int = DEFAULT_SOLVER_NODES,
                 progress: Progress | None = None) -> GameReview:
    """Review the decisions of ``seats`` in the game that starts at ``start`` (a full state:
    a deal, or any position) and goes on with ``actions`` (``(seat, action)`` pairs, as a
    record holds them). Each decision is judged from the deciding seat's view alone."""
    from bito.games.family import seen_by
    from bito.games.protocol import decider

    if playouts < 1:
        raise ReviewError(_("{option} must be at least {n}").format(option="playouts", n=1))
    players = start.players
    names = list(names) if names else [f"seat {i}" for i in range(players)]
    review = GameReview(variant=variant, players=players, names=names, seats=list(seats),
                        playouts=playouts, seed=seed)
    reviewers = {s: SeatReviewer(s, seed * 1009 + s, playouts, solver_nodes) for s in seats}
    state = start
    total = len(actions)
    for i, (seat, action) in enumerate(actions):
        mover = decider(state)
        acting = state.to_act
        if seat != acting:
            raise ReviewError(f"move {i + 1}: seat {seat} moves but seat {acting} is to act")
        for s, r in reviewers.items():
            view = state.view(acting) if s == mover else state.view(s)
            if s != mover:
                r.watch(view, acting, seen_by(state, action, s))
            elif len(view.legal) < 2:
                review.forced += 1
                r.remember(view)
            else:
                judged = r.judge(view, action, i + 1)
                if judged is None:
                    review.unsearched += 1
                else:
                    review.moves.append(judged)
        state = state.apply(action)
        if progress is not None:
            progress(i + 1, total)
    outcome = state.outcome if state.is_over else None
    for s in seats:
        mine = [m for m in review.moves if m.seat == s]
        counts = {c: sum(1 for m in mine if m.category == c) for c in CATEGORIES}
        accuracy = (100 * sum(WEIGHTS[m.category] for m in mine) / len(mine)) if mine else None
        serious = [m for m in mine if CATEGORIES.index(m.category) >= CATEGORIES.index("mistake")]
        turning = max(serious, key=lambda m: (m.loss, CATEGORIES.index(m.category)),
                      default=None)
        fool = None if outcome is None else outcome.loser == s
        review.summaries.append(SeatSummary(s, names[s], counts, accuracy, turning, fool))
    return review


def people_of(header: dict[str, Any]) -> list[int]:
    """The seats a record says people sat in (its ``people`` field), else every seat."""
    players = int(header["players"])
    people = header.get("people")
    if isinstance(people, list) and people and all(
            isinstance(p, int) and not isinstance(p, bool) and 0 <= p < players for p in people):
        return sorted(set(people))
    return list(range(players))


def review_record(record: Any, seats: Sequence[int] | None = None, *,
                  playouts: int = DEFAULT_PLAYOUTS, seed: int = 0,
                  solver_nodes: int = DEFAULT_SOLVER_NODES,
                  progress: Progress | None = None) -> GameReview:
    """Review a full record (:class:`bito.record.GameRecord`): ``seats`` (default: the people's
    seats, or every seat when the record does not say)."""
    header = record.header
    if record.censored_for is not None:
        raise ReviewError(_("censored_for: a censored record hides the other hands the "
                            "game's replay needs; review the full record"))
    players = int(header["players"])
    chosen = list(seats) if seats else people_of(header)
    for s in chosen:
        if not 0 <= s < players:
            raise ReviewError(_("--seat must be 0 to {last}, not {seat}").format(
                last=players - 1, seat=s))
    record.replay()  # every action checked before any search (a RecordError names the line)
    return review_moves(record.start_state(), record.actions, chosen,
                        names=header.get("names"), variant=str(header["variant"]),
                        playouts=playouts, seed=seed, solver_nodes=solver_nodes,
                        progress=progress)


# --- in words -------------------------------------------------------------------------------

CATEGORY_WORDS: Final = {"best": N_("best"), "good": N_("good"), "inaccuracy": N_("inaccuracy"),
                         "mistake": N_("mistake"), "blunder": N_("blunder")}

MARKS: Final = {"best": "!", "good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The chess marks beside a move: ``!`` best, ``?!`` inaccuracy, ``?`` mistake, ``??``
blunder."""


REASONS: Final = {
    "choice": N_("the analysis level's choice ({chance} not the fool)"),
    "as_good": N_("as good as {best} ({chance} not the fool)"),
    "noise": N_("{best} scores {points:.1f} points more, within the sample's noise"),
    "gives_up": N_("{best} does as well in the sample, and {why}"),
    "proven_keep_won": N_("keeps the won ending (proven)"),
    "proven_keep_drawn": N_("keeps the drawn ending (proven)"),
    "proven_lost": N_("the ending is lost against best play whatever is played (proven); "
                      "{chance} against a fallible opponent"),
    "only_draws": N_("only draws"),
    "loses": N_("loses"),
    "won_thrown": N_("a won ending thrown away: {best} wins by force, {played} {then}"),
    "drawn_thrown": N_("a drawn ending thrown away: {best} draws by force, {played} loses"),
    "worse": N_("{best}: {best_chance} not the fool; {played}: {played_chance}"),
}
"""The reasons, in English; :func:`reason_text` fills them in."""


def move_words(action: Any, english: bool = False) -> str:
    """A move as the terminal says it (``cover 6♦ with 8♦``), in the chosen language."""
    from bito.tui_words import engine_words

    return _pretty(action) if english else engine_words(_pretty(action))


def reason_text(m: MoveReview, english: bool = False) -> str:
    """The one line of reason for a decision, in the chosen language (in English for the
    JSON document, whose texts are the same in every language)."""
    def say(key: str) -> str:
        return REASONS[key] if english else _(REASONS[key])

    best, played = move_words(m.best, english), move_words(m.played, english)
    if m.why == "choice":
        return say("choice").format(chance=_pct(m.played_chance))
    if m.why == "as_good":
        return say("as_good").format(best=best, chance=_pct(m.played_chance))
    if m.why == "noise":
        return say("noise").format(best=best, points=100 * m.loss)
    if m.why == "gives_up":
        gives = GIVES_UP.get(m.gives_up)
        why = m.gives_up if gives is None else gives if english else _(gives)
        return say("gives_up").format(best=best, why=why)
    if m.why == "proven_keep":
        return say("proven_keep_won" if m.proven and m.proven[1] == 1 else "proven_keep_drawn")
    if m.why == "proven_lost":
        return say("proven_lost").format(chance=_pct(m.played_chance))
    if m.why == "proven_thrown" and m.proven is not None:
        if m.proven[1] == 1:
            then = say("only_draws" if m.proven[0] == 0 else "loses")
            return say("won_thrown").format(best=best, played=played, then=then)
        return say("drawn_thrown").format(best=best, played=played)
    return say("worse").format(best=best, best_chance=_pct(m.best_chance), played=played,
                               played_chance=_pct(m.played_chance))


def move_line(m: MoveReview, names: Sequence[str]) -> str:
    """``  11. You: cover 6♦ with 8♠ ?  mistake, -6.8: ...``"""
    name = names[m.seat] if 0 <= m.seat < len(names) else f"seat {m.seat}"
    mark = MARKS[m.category]
    head = f"{m.number:>4}. {_(name)}: {move_words(m.played)}{' ' + mark if mark else ''}"
    loss = f", -{100 * m.loss:.1f}" if m.loss >= 0.0005 and m.category != "best" else ""
    return f"{head} — {_(CATEGORY_WORDS[m.category])}{loss}: {reason_text(m)}"


def summary_lines(review: GameReview) -> list[str]:
    """The summary per seat: accuracy, counts per category, the turning point."""
    lines = []
    for s in review.summaries:
        name = _(s.name)
        if s.accuracy is None:
            lines.append(_("{name} (seat {seat}): no decision with a choice was reviewed").format(
                name=name, seat=s.seat))
            continue
        counts = ", ".join(f"{_(CATEGORY_WORDS[c])} {s.counts[c]}" for c in CATEGORIES)
        result = ("" if s.fool is None else
                  " — " + (_("the fool") if s.fool else _("not the fool")))
        lines.append(_("{name} (seat {seat}): accuracy {accuracy:.0f}%; {counts}{result}").format(
            name=name, seat=s.seat, accuracy=s.accuracy, counts=counts, result=result))
        t = s.turning_point
        if t is None:
            lines.append("  " + _("no mistake or blunder: no turning point"))
        else:
            lines.append("  " + _("turning point: move {n}, {played} instead of {best} "
                                  "({before} → {after} not the fool)").format(
                n=t.number, played=move_words(t.played), best=move_words(t.best),
                before=_pct(t.best_chance), after=_pct(t.played_chance)))
    return lines


def review_text(review: GameReview, title: str = "") -> str:
    """The whole review for the terminal: a head line, one line per decision, the summary."""
    names = ", ".join(_(review.names[s]) for s in review.seats)
    lines = []
    if title:
        lines.append(title)
    lines.append(_("Review of {names}: {playouts} playouts per decision, review seed "
                   "{seed}").format(names=names, playouts=f"{review.playouts:,}",
                                     seed=review.seed))
    lines += [move_line(m, review.names) for m in review.moves]
    skipped = []
    if review.forced:
        skipped.append(ngettext("{n} forced move skipped", "{n} forced moves skipped",
                                review.forced).format(n=review.forced))
    if review.unsearched:
        skipped.append(ngettext("{n} decision the analysis level plays by rule, not reviewed",
                                "{n} decisions the analysis level plays by rule, not reviewed",
                                review.unsearched).format(n=review.unsearched))
    if skipped:
        lines.append("(" + "; ".join(skipped) + ")")
    lines.append("")
    lines.append(_("Summary"))
    lines += ["  " + line for line in summary_lines(review)]
    return "\n".join(lines)


# --- the command ----------------------------------------------------------------------------


def add_review_parser(sub: Any, fmt: Any) -> None:
    """``bito review``'s options (called by :func:`bito.cli.build_parser`)."""
    rev = sub.add_parser(
        "review", help=_("mark every decision of a finished game, as a chess engine does"),
        formatter_class=fmt,
        description=_("Review a saved game: each decision of the chosen seat beside the "
                      "analysis level's best move, from that seat's view at the time, marked "
                      "best, good, inaccuracy, mistake or blunder, with a summary per seat "
                      "(docs/review.md)."),
        epilog=_("examples:") + "\n  bito review game.jsonl\n  bito review game.jsonl "
               "--seat 1\n  bito review game.jsonl --json --playouts 5000")
    rev.add_argument("file", metavar="RECORD",
                     help=_("a full game record (bito play --save, or downloaded)"))
    rev.add_argument("--seat", type=int, action="append", metavar="N",
                     help=_("the seat to review (repeatable; default: every person's seat, or "
                            "every seat when the record does not say)"))
    rev.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS, metavar="N",
                     help=_("playouts per decision (default {n}; no clock, so the same record "
                            "gives the same review)").format(n=DEFAULT_PLAYOUTS))
    rev.add_argument("--solver-nodes", type=int, default=DEFAULT_SOLVER_NODES, metavar="N",
                     help=_("the endgame solver's node cap per decision (default {n})").format(
                         n=DEFAULT_SOLVER_NODES))
    rev.add_argument("--seed", type=int, default=0, help=_("the review's seed (default 0)"))
    rev.add_argument("--json", action="store_true", help=_("print one JSON object"))
    rev.add_argument("--no-progress", action="store_true",
                     help=_("no progress bar on stderr"))
    rev.set_defaults(func=command)


def _read(path: Any) -> Any:
    """The record at ``path``, or a :class:`ReviewError` naming what is wrong with it."""
    from bito.errors import RecordError
    from bito.record import MAX_RECORD, load_record

    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_RECORD + 1)
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ReviewError(_("{path}: not UTF-8 text (byte {n})").format(path=path, n=e.start)
                          ) from None
    except OSError as e:
        raise ReviewError(_("cannot read {path}: {why}").format(
            path=path, why=e.strerror or type(e).__name__)) from None
    try:
        return load_record(text)
    except RecordError as e:
        raise ReviewError(_("{path}: malformed record: {why}").format(path=path, why=e)
                          ) from None


def command(args: Any) -> int:
    """``bito review RECORD``: the review, as text or JSON, on stdout."""
    import json
    import sys

    from bito.errors import RecordError

    if args.playouts < 1:
        raise ReviewError(_("{option} must be at least {n}").format(option="--playouts", n=1))
    if args.solver_nodes < 0:
        raise ReviewError(_("{option} must be at least {n}").format(option="--solver-nodes",
                                                                     n=0))
    record = _read(args.file)
    players = int(record.header["players"])
    for seat in args.seat or ():
        if not 0 <= seat < players:
            raise ReviewError(_("--seat must be 0 to {last}, not {seat}").format(
                last=players - 1, seat=seat))
    bar = None
    if not args.no_progress:
        from bito.progress import ProgressBar

        bar = ProgressBar(1, sys.stderr, label=N_("moves"))
    try:
        review = review_record(record, args.seat, playouts=args.playouts, seed=args.seed,
                               solver_nodes=args.solver_nodes, progress=bar)
    except RecordError as e:
        raise ReviewError(_("{path}: the record does not replay: {why}").format(
            path=args.file, why=e)) from None
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print(json.dumps(review.to_json(), ensure_ascii=False))
    else:
        from pathlib import Path

        h = record.header
        title = _("{file}: {variant}, {players} players").format(
            file=Path(args.file).name, variant=h["variant"], players=players)
        print(review_text(review, title))
    return 0
