"""The sweep (``bito sweep``: every variant survives every move): its CI sample, and the
sweep's own checks shown to catch what they are meant to catch; every refusal the sample
meets in a Durak-family game is typed (issue 32 item 3).

The CI sample plays every fixed case (every registered game at every seat count, every house
rule on every base it names) at least once, plus random option stacks, with every check on,
and must find no violation.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

import pytest

import bito.sweep as sweep_module
from bito.errors import IllegalActionError, Reason
from bito.games import family_for, new_game
from bito.games.durak.reasons import Refused, TransferBar
from bito.sweep import (
    Case,
    GameResult,
    Summary,
    all_cases,
    card_zones,
    case_for_game,
    check_conserved,
    games_for_every_case,
    main,
    play_game,
    run,
)


@dataclass(frozen=True)
class Sample:
    """The CI sample's summary, and every refusal built while it played a Durak-family game
    (its fixed cases and the random stacks of the Durak options alike)."""

    summary: Summary
    durak_refusals: list[IllegalActionError]


@pytest.fixture(scope="module")
def sample() -> Sample:
    """The CI sample, with each :class:`IllegalActionError` caught as it is built: the sweep
    plays random moves and tries bad ones of every kind at sampled positions, so it meets the
    refusals of every rule of every case (the typed-reasons check below reads them)."""
    made: list[IllegalActionError] = []
    durak = [False]
    build = IllegalActionError.__init__
    play = sweep_module.play_game

    def spy(self: IllegalActionError, *args: object, **kwargs: object) -> None:
        build(self, *args, **kwargs)  # type: ignore[arg-type]
        if durak[0]:
            made.append(self)

    def playing(seed: int, index: int, sample_every: int = 20,
                cases: Sequence[Case] | None = None) -> GameResult:
        case, _deal = case_for_game(seed, index, cases)
        durak[0] = family_for(case.spec).name == sweep_module.OPTIONS_FAMILY
        return play(seed, index, sample_every, cases)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(IllegalActionError, "__init__", spy)
        patch.setattr(sweep_module, "play_game", playing)
        summary = run(games=games_for_every_case(), seed=0, sample_every=20)
    return Sample(summary, made)


def test_ci_sample_touches_every_case(sample: Sample) -> None:
    """The sample plays every registered game and house rule at every seat count."""
    keys = {c.key for c in all_cases()}
    touched = {case_for_game(0, i)[0].key for i in range(games_for_every_case())}
    assert keys <= touched
    assert sample.summary.games == games_for_every_case()


def test_ci_sample_has_no_violation(sample: Sample) -> None:
    """Cards conserved, one seat to act, legal actions until the end, an end by a rule, apply
    pure, views blind to others' hidden cards, illegal moves refused with IllegalActionError,
    records round-trip: no violation in any case."""
    found = sample.summary.violations
    assert not found, "\n".join(json.dumps(v.to_json())[:600] for v in found[:10])


def test_every_refusal_in_the_durak_family_is_typed(sample: Sample) -> None:
    """Issue 32 item 3: every refusal the sample met in a Durak-family game (the core's rules,
    transfers, the rules' own moves; the explainer's and the hooks' answers to ``Refusal``)
    carries an enum member (:class:`~bito.errors.Reason`), from which its rule name and words
    derive, never a string alone."""
    made = sample.durak_refusals
    untyped = Counter(e.rule for e in made if e.reason is None)
    assert not untyped, f"refusals with no typed reason: {dict(untyped)}"
    # the sample met refusals of the core's rules, of transfers and of the rules' own moves
    kinds = {type(e.reason) for e in made}
    assert {Refused, TransferBar} <= kinds
    assert len(kinds) >= 5, kinds
    for error in made:
        reason = error.reason
        assert isinstance(reason, Reason)
        assert error.rule == reason.rule  # the record's name is the reason's, never apart
        assert str(error) == f"{reason.rule}: {error.detail}"


def test_every_family_and_seat_range_is_a_case() -> None:
    """Every family that deals one game is swept; the tournament (#64) is not one game."""
    specs = {c.spec for c in all_cases()}
    for spec in ("podkidnoy", "friese_fool", "czech_fool", "animal_sounds", "chinese",
                 "podkidnoy+joker_gift", "japanese+royal", "perevodnoy+no_transfer_first_bout"):
        assert spec in specs
    assert "tournament" not in specs
    seats = {c.players for c in all_cases() if c.spec == "podkidnoy"}
    assert seats == set(range(2, 7))  # 36 cards, 6-card hands: 2 to 6 players (§1.1)


def test_conservation_catches_a_lost_and_a_doubled_card() -> None:
    """A card taken out of a hand, or copied into a second hand, is reported."""
    state = new_game("podkidnoy", players=2, seed=3)
    assert check_conserved(state) is None
    lost = state.copy()
    low = lost.hands[0] & -lost.hands[0]
    lost.hands[0] ^= low
    assert "lost" in (check_conserved(lost) or "")
    doubled = state.copy()
    doubled.hands[1] |= low
    assert "twice" in (check_conserved(doubled) or "")


def test_conservation_of_the_other_families_is_against_the_dealt_pack() -> None:
    """The other families deal a fresh pack per round: the reference is the dealt multiset."""
    from bito.sweep import _multiset

    state = new_game("czech_fool", players=3, seed=1)
    reference = _multiset(card_zones(state))
    assert check_conserved(state, reference) is None
    lost = state.copy()
    lost.hands[0] &= lost.hands[0] - 1
    assert "lost" in (check_conserved(lost, reference) or "")


def test_same_seed_same_run_whatever_the_jobs() -> None:
    """A run is fixed by its seed: games, actions and violations do not depend on --jobs."""
    one = run(games=40, seed=7, jobs=1, chunk=10)
    two = run(games=40, seed=7, jobs=2, chunk=10)
    assert (one.games, one.actions, one.refused) == (two.games, two.actions, two.refused)
    assert [v.to_json() for v in one.violations] == [v.to_json() for v in two.violations]


def test_a_violation_carries_its_reproducer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A violation's spec, players, deal seed and action list replay to the position it
    reports. The violation is made on purpose: an engine that offers no move from the 15th
    call on (a freeze like the joker gift's, #24)."""
    from bito.games.durak import DurakState, parse_action
    from bito.notation import position_text
    from bito.sweep import Case

    real = DurakState.legal_actions
    calls = [0]

    def freezing(self: DurakState) -> list:
        calls[0] += 1
        return [] if calls[0] >= 15 else real(self)

    monkeypatch.setattr(DurakState, "legal_actions", freezing)
    result = play_game(3, 0, sample_every=10**9, cases=[Case("podkidnoy", 3)])
    monkeypatch.setattr(DurakState, "legal_actions", real)
    assert [v.kind for v in result.violations] == ["no_legal_actions"]
    v = result.violations[0]
    assert v.step == len(v.actions) > 0
    state = new_game(v.spec, players=v.players, seed=v.seed)
    for text in v.actions[:v.step]:
        state = state.apply(parse_action(text))
    assert position_text(state) == v.position


def test_command_prints_one_summary_line_and_exit_status() -> None:
    """`bito sweep --json`: one JSON line per violation, then the summary; 0 when clean."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["--games", "4", "--only", "podkidnoy@2", "--json"])
    lines = out.getvalue().splitlines()
    summary = json.loads(lines[-1])
    assert set(summary) == {"games", "actions", "violations", "refused", "cases", "seconds",
                            "command"}
    assert summary["games"] == 4 and code == (1 if summary["violations"] else 0)
    assert summary["command"].startswith("bito sweep --games 4")


def test_command_refuses_bad_options_before_playing() -> None:
    """A bad option is one line on stderr naming it, exit 2."""
    err = io.StringIO()
    with redirect_stderr(err), redirect_stdout(io.StringIO()):
        assert main(["--games", "0"]) == 2
        assert main(["--only", "no_such_game*"]) == 2
    assert "--games" in err.getvalue() and "--only" in err.getvalue()


def _kinds_with(monkeypatch: pytest.MonkeyPatch, name: str, fake: object) -> set[str]:
    """The kinds of violation the sweep reports on one 3-seat podkidnoy game, every step
    sampled, with one method of the Durak state replaced by a broken one."""
    from bito.games.durak import DurakState
    from bito.sweep import Case

    monkeypatch.setattr(DurakState, name, fake)
    result = play_game(11, 0, sample_every=1, cases=[Case("podkidnoy", 3)])
    return {v.kind for v in result.violations}


def test_the_sweep_sees_a_view_that_leaks_hidden_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view that shows every hand changes when others' hidden cards are swapped."""
    from bito.games.durak import DurakState

    real = DurakState.view

    def leaky(self: DurakState, seat: int) -> object:
        return (real(self, seat), tuple(self.hands))

    assert "view_leak" in _kinds_with(monkeypatch, "view", leaky)


def test_the_sweep_sees_an_apply_that_changes_its_input(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """apply must be pure: one that also moves the input's turn counter is reported."""
    from bito.games.durak import DurakState

    real = DurakState.apply

    def impure(self: DurakState, action: object) -> DurakState:
        after = real(self, action)  # type: ignore[arg-type]
        self.bout += 1
        return after

    assert "apply_mutates_input" in _kinds_with(monkeypatch, "apply", impure)


def test_the_sweep_sees_an_illegal_move_that_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """An illegal move must raise IllegalActionError: an explainer's KeyError is reported
    (the joker names of issue 16 item 4 were such a crash)."""
    def broken(self: object, action: object) -> Exception:
        raise KeyError("rank name")

    assert "illegal_move_crash" in _kinds_with(monkeypatch, "explain_illegal", broken)


def test_a_game_that_runs_too_long_is_reported_not_waited_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A legal game that runs past ``GAME_SECONDS`` of wall clock is a finding of its own
    (``slow_game``), with its reproducer, and the run goes on: the 67a4b7a run stalled for
    ten minutes on such games without a word. The clock is made to jump past the limit."""
    import bito.sweep as sweep_module
    from bito.sweep import Case

    ticks = iter(range(0, 10**7, sweep_module.GAME_SECONDS + 1))  # each look: past the limit
    monkeypatch.setattr(sweep_module.time, "monotonic", lambda: next(ticks))
    result = play_game(3, 0, sample_every=10**9, cases=[Case("podkidnoy", 3)])
    kinds = [v.kind for v in result.violations]
    assert kinds == ["slow_game"]
    v = result.violations[0]
    assert v.step == 0 and str(sweep_module.GAME_SECONDS) in v.detail
