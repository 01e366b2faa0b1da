"""The headless runner on real games: seats rotate, errors are counted, runs are reproducible."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest

import bito.bots
from bito.bots import RandomBot
from bito.games.durak import Action, DurakView, new_game
from bito.rules import rules_for
from bito.sim import GameTooLongError, SimStats, play_game, run_sim, seat_of

REQUIRED_KEYS = {"variant", "players", "games", "errors", "draws", "losses_by_bot",
                 "non_losses_by_bot", "mean_actions", "games_per_second"}


class SeatSpy(RandomBot):
    """A random player that remembers, per instance, which seat it was asked to play."""

    name = "spy"
    built: ClassVar[list[SeatSpy]] = []

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seats: set[int] = set()
        SeatSpy.built.append(self)

    def choose(self, view: DurakView) -> Action:
        self.seats.add(view.seat)
        return super().choose(view)


class Flaky(RandomBot):
    """Raises on its first move in about half the games (decided by its seed)."""

    name = "flaky"
    raised = 0

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.broken = self.rng.random() < 0.5

    def choose(self, view: DurakView) -> Action:
        if self.broken:
            Flaky.raised += 1
            self.broken = False
            raise RuntimeError("deliberately broken")
        return super().choose(view)


class Stubborn(RandomBot):
    """Plays an illegal move (a pass when it must defend or lead)."""

    name = "stubborn"

    def choose(self, view: DurakView) -> Action:
        from bito.games.durak import PASS_ACTION

        return PASS_ACTION


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register the test bots for one test only (the registry is global)."""
    SeatSpy.built = []
    Flaky.raised = 0
    for cls in (SeatSpy, Flaky, Stubborn):
        monkeypatch.setitem(bito.bots._FACTORIES, cls.name, cls)
    yield


@pytest.mark.usefixtures("test_bots")
def test_seats_rotate_every_game() -> None:
    players, games = 3, 7
    stats = run_sim("podkidnoy", players, games, ["spy", "spy", "spy"], seed=4)
    assert stats.errors == 0
    assert len(SeatSpy.built) == players * (games + 1)  # +1: the name check before the run
    built = SeatSpy.built[players:]
    for g in range(games):
        for k in range(players):
            seats = built[g * players + k].seats
            assert seats <= {(k + g) % players}  # the documented rotation, spelled out
    assert sum(1 for bot in built if bot.seats) > len(built) // 2
    assert [seat_of(0, g, players) for g in range(4)] == [0, 1, 2, 0]


def test_seat_rotation_balances_losses_by_seat() -> None:
    stats = run_sim("podkidnoy", 2, 60, ["heuristic", "random"], seed=9)
    # The heuristic loses rarely, so random's losses follow it round the table.
    assert stats.losses_by_seat[0] > 15 and stats.losses_by_seat[1] > 15


@pytest.mark.usefixtures("test_bots")
def test_errors_are_counted_and_the_run_goes_on() -> None:
    games = 40
    stats = run_sim("podkidnoy", 2, games, ["flaky", "random"], seed=5)
    assert 0 < Flaky.raised < games
    assert stats.errors == Flaky.raised
    assert stats.errors_by_kind == {"RuntimeError": Flaky.raised}
    assert sum(stats.losses_by_bot.values()) + stats.draws == games - stats.errors
    assert stats.to_json()["errors"] == Flaky.raised


@pytest.mark.usefixtures("test_bots")
def test_illegal_moves_count_as_errors() -> None:
    stats = run_sim("simple", 2, 5, ["stubborn", "random"], seed=1)
    assert stats.errors == 5
    assert stats.errors_by_kind == {"IllegalActionError": 5}
    assert stats.mean_actions == 0.0


def test_a_run_is_deterministic_for_a_seed() -> None:
    def figures(seed: int) -> dict[str, object]:
        out = run_sim("perevodnoy", 3, 30, ["heuristic", "random", "heuristic"], seed=seed)
        data = out.to_json()
        for timing in ("games_per_second", "seconds"):
            data.pop(timing)
        return data

    assert figures(8) == figures(8)
    assert figures(8) != figures(9)


def test_play_game_is_deterministic_and_records_seats() -> None:
    def game() -> tuple[tuple[Action, ...], tuple[int, ...]]:
        r = play_game(new_game("podkidnoy", 3, seed=12), [RandomBot(s) for s in range(3)])
        return r.actions, r.seats

    (actions, seats), again = game(), game()
    assert (actions, seats) == again
    state = new_game("podkidnoy", 3, seed=12)
    for seat, action in zip(seats, actions, strict=True):
        assert state.to_act == seat
        state = state.apply(action)
    assert state.is_over


def test_play_game_stops_runaway_games() -> None:
    with pytest.raises(GameTooLongError):
        play_game(new_game("podkidnoy", 2, seed=1), [RandomBot(1), RandomBot(2)], max_actions=5)


def test_play_game_needs_one_bot_per_seat() -> None:
    with pytest.raises(ValueError):
        play_game(new_game("podkidnoy", 3, seed=1), [RandomBot(1), RandomBot(2)])


def test_stats_count_every_seat_of_a_repeated_name() -> None:
    games = 30
    stats = run_sim("podkidnoy", 3, games, ["random", "random", "heuristic"], seed=2)
    done = games - stats.errors
    assert stats.seat_games_by_bot == {"random": 2 * done, "heuristic": done}
    assert sum(stats.losses_by_bot.values()) + stats.draws == done
    rate = stats.non_losses_by_bot["random"]
    assert rate == pytest.approx(1 - stats.losses_by_bot["random"] / (2 * done))


def test_to_json_has_the_documented_keys() -> None:
    calls: list[tuple[int, int]] = []
    stats = run_sim(rules_for("simple"), 2, 4, ["random", "random"], seed=1,
                    progress=lambda done, total: calls.append((done, total)))
    data = stats.to_json()
    assert data.keys() >= REQUIRED_KEYS
    assert data["games"] == 4 and data["players"] == 2
    assert data["variant"].startswith("custom:")
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert isinstance(stats, SimStats) and stats.mean_actions > 0


def test_unknown_bots_and_wrong_counts_fail_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run_sim("podkidnoy", 2, 3, ["random", "nobody"])
    with pytest.raises(ValueError):
        run_sim("podkidnoy", 3, 3, ["random", "random"])


def test_seed_none_picks_and_reports_a_seed() -> None:
    stats = run_sim("podkidnoy", 2, 2, ["random", "random"], seed=None)
    assert isinstance(stats.seed, int)
    again = run_sim("podkidnoy", 2, 2, ["random", "random"], seed=stats.seed)
    assert again.to_json()["losses_by_bot"] == stats.to_json()["losses_by_bot"]
