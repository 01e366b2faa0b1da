"""Shared helpers for the rule, property, notation, record and perft tests.

Nothing here knows the answer a test checks: helpers only set up positions (from position
text), play actions given as text, and read the public state back. Expectations are derived
from the rule in each test.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from bito.cards import cards_of, mask_of, parse_card, rank_of, standard_deck, suit_of
from bito.errors import IllegalActionError
from bito.games.durak import Action, DurakState, MatchContext, new_game, parse_action
from bito.notation import parse_position, position_text

# Ray starts its workers at niceness 15 (docs/benchmarks.md); on a test machine whose cores
# are full they get CPU only when no test process wants it, and the test waiting on them holds
# its test worker idle for a minute. Here they run at the tests' own priority (the raylet
# reads this from the environment of the process that starts Ray).
os.environ.setdefault("RAY_worker_niceness", "0")

# Every run draws the same Hypothesis examples (derandomize): a CI run cannot fail on an example
# nobody has seen before, and any failure reproduces on every machine. To hunt for new
# examples, run ``pytest --hypothesis-profile=explore`` (random examples, more of them).
# No deadline on an example (Hypothesis's default is 200 ms): a loaded machine that leaves a
# test process without the CPU for a moment failed a property of microseconds with
# DeadlineExceeded, and no test here may hang on the machine's speed.
hypothesis_settings.register_profile("repeatable", derandomize=True, database=None,
                                     deadline=None)
hypothesis_settings.register_profile("explore", derandomize=False, max_examples=300,
                                     deadline=None)
hypothesis_settings.load_profile("repeatable")

#: Hypothesis's own default number of examples: a profile asking for k times as many scales
#: every test's own ``max_examples`` by k (see pytest_collection_modifyitems).
_BASE_EXAMPLES = 100


#: Set for the test workers while the tools' part of the kernel still compiles in the
#: background: the path of the lock file that the compiling processes hold until they end.
_WARMING = "BITO_KERNEL_WARMING"
#: Words in a test module's source that tell it may meet the tools' part of the kernel
#: (``bito.kernel.warm.TOOLS``: the benchmark, the vector environment, the verifier, the
#: random games loop); such a module waits for the background compilation before its first
#: test rather than compile the same code at the same time.
_TOOLS_WORDS = ('"bench"', "run_bench", "bito.kernel.verify", "DurakVectorEnv",
                "bito.env.vector", "random_playout", "play_random_games", "specialise")
#: The background compilation and its lock file, kept by the hook that started it.
_background_key = pytest.StashKey[tuple["subprocess.Popen[bytes]", str]]()
#: Set (to one True) once this worker has waited for the background compilation.
_tools_compiled: list[bool] = []


def pytest_configure(config: pytest.Config) -> None:
    """With several test workers, compile the kernel before they meet it, in a process a core
    (bito.kernel.warm): otherwise every worker meeting the kernel first compiles the same
    machine code at the same time, inside the budget of whichever test met it. What the
    players meet (the search bots' playouts and solver, which
    servers' bot workers load at once) is compiled before the tests start; what only the
    tools meet (the benchmark's loops, the vector environment, the verifier) compiles in the
    background meanwhile, while the first modules run, and a module that may meet it waits
    for it (pytest_runtest_setup). A single process compiles as it goes."""
    import contextlib
    import sys

    workers = getattr(config.option, "numprocesses", None)
    if os.environ.get("PYTEST_XDIST_WORKER") or not isinstance(workers, int) or workers < 2:
        return
    # as many compiling processes as cores, not workers: each process compiles the kernel's
    # shared functions for itself, so a third process on two cores only adds CPU-seconds
    jobs = max(1, min(workers, os.cpu_count() or 1))
    warm = [sys.executable, "-m", "bito.kernel.warm", "--jobs", str(jobs)]
    # (a failure here is met again, and reported, by the tests that use the kernel)
    with contextlib.suppress(subprocess.TimeoutExpired):
        subprocess.run([*warm, "--only", "play"], check=False, stdout=subprocess.DEVNULL,
                       timeout=1200)
    try:
        import fcntl
    except ImportError:  # no file locks here: compile the rest before the tests too
        with contextlib.suppress(subprocess.TimeoutExpired):
            subprocess.run([*warm, "--only", "tools"], check=False,
                           stdout=subprocess.DEVNULL, timeout=1200)
        return
    import tempfile

    handle, lock = tempfile.mkstemp(prefix="bito-kernel-warming-", suffix=".lock")
    fcntl.flock(handle, fcntl.LOCK_EX)
    # The lock belongs to the open file, which the background processes share: it is
    # released when the last of them ends, whatever way it ends.
    background = subprocess.Popen([*warm, "--only", "tools"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, pass_fds=(handle,),
                                  start_new_session=True)  # its own group, to stop it whole
    os.close(handle)
    os.environ[_WARMING] = lock  # the workers, started after this hook, inherit it
    config.stash[_background_key] = (background, lock)


def pytest_unconfigure(config: pytest.Config) -> None:
    """A background compilation still running when the tests are over (a short or an
    interrupted run) is stopped, with its worker processes: what it finished stays in the
    cache (numba writes each function's file whole), the next run compiles the rest."""
    started = config.stash.get(_background_key, None)
    if started is None:
        return
    import contextlib
    import signal

    background, lock = started
    if background.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(background.pid, signal.SIGTERM)
        try:
            background.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(background.pid, signal.SIGKILL)
            background.wait()
    with contextlib.suppress(OSError):
        os.unlink(lock)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """In a test worker, before the first test of a module that may meet the tools' part of
    the kernel, wait until its background compilation (pytest_configure) is over."""
    lock = os.environ.get(_WARMING)
    if not lock or _tools_compiled or not _meets_tools(str(item.path)):
        return
    import fcntl

    try:
        with open(lock, "rb") as file:
            fcntl.flock(file, fcntl.LOCK_SH)  # blocks while the compiling processes hold it
    except OSError:
        pass  # the run is ending, or the lock is gone: nothing to wait for
    _tools_compiled.append(True)


_scanned: dict[str, bool] = {}


def _meets_tools(path: str) -> bool:
    if path not in _scanned:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError:
            text = ""
        _scanned[path] = any(word in text for word in _TOOLS_WORDS)
    return _scanned[path]


#: Seconds each test module took in a whole run of the suite, as CI runs it (written by
#: ``tools/test_durations.py``): the order in which the test workers take the modules.
DURATIONS = Path(__file__).with_name("durations.json")
#: A module the file does not name (a new one) is reckoned at this many seconds a test (about
#: the suite's mean: two workers, some 1,000 s for 4,700 tests).
_SECONDS_A_TEST = 0.4


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _longest_modules_first(items)
    _scale_hypothesis_budgets(items)


def _longest_modules_first(items: list[pytest.Item]) -> None:
    """In a test worker, put the modules in the order of their last recorded duration,
    longest first (each module's tests keep their order). pytest-xdist hands whole modules to
    the workers in the order collected (``--dist loadscope --no-loadscope-reorder``): the
    longest first, so that the last ones handed out are short and the workers finish
    together. (Left to itself, xdist orders them by their number of tests, which put a module
    of one long test last, keeping one worker busy for a minute while the other waited.)
    Every worker computes the same order, as xdist requires."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    try:
        recorded: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    def module(item: pytest.Item) -> str:
        return str(getattr(item, "nodeid", "")).split("::", 1)[0]

    counts = Counter(module(item) for item in items)

    def seconds(item: pytest.Item) -> float:
        return recorded.get(module(item), counts[module(item)] * _SECONDS_A_TEST)

    items.sort(key=seconds, reverse=True)  # (stable: a module's tests stay in order)
    if os.environ.get(_WARMING):
        _tools_after_a_head_start(items, seconds)


#: While the tools' part of the kernel compiles in the background (pytest_configure), the
#: modules that wait for it are handed out only once this many recorded seconds of other
#: modules per worker are ahead of them (the compilation takes some 170 s of a core from a
#: cold cache): a worker that took one first would sit idle until it is done.
_TOOLS_HEAD_START = 250.0


def _tools_after_a_head_start(items: list[pytest.Item],
                              seconds: Callable[[pytest.Item], float]) -> None:
    """Move the modules that meet the tools' part of the kernel (_meets_tools) behind the
    first ``_TOOLS_HEAD_START`` seconds of the others, keeping both orders otherwise. The
    same on every worker, as xdist requires: it reads only the files and the durations."""
    def path(item: pytest.Item) -> str:
        return str(getattr(item, "path", ""))

    modules: list[list[pytest.Item]] = []
    for item in items:
        if modules and path(modules[-1][0]) == path(item):
            modules[-1].append(item)
        else:
            modules.append([item])
    waiting = [m for m in modules if path(m[0]) and _meets_tools(path(m[0]))]
    others = [m for m in modules if not (path(m[0]) and _meets_tools(path(m[0])))]
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "2"))
    ahead, head = 0.0, 0
    while head < len(others) and ahead < _TOOLS_HEAD_START * workers:
        ahead += seconds(others[head][0])
        head += 1
    ordered = others[:head] + waiting + others[head:]
    items[:] = [item for group in ordered for item in group]


def _scale_hypothesis_budgets(items: list[pytest.Item]) -> None:
    """Make the active Hypothesis profile scale each test's own ``max_examples``.

    A test's ``@settings(max_examples=25)`` sets its budget explicitly, which beats any
    profile, so ``--hypothesis-profile=explore`` alone would leave such tests at 25. Here the
    budget is multiplied by the profile's ratio to Hypothesis's default (explore: 300/100 = 3),
    so slow tests stay relatively small and every test explores more. Under the default
    profile the ratio is 1 and nothing changes, so the repeatable runs draw what they always
    drew."""
    active = hypothesis_settings.default.max_examples
    if active <= _BASE_EXAMPLES:
        return
    done: set[int] = set()
    for item in items:
        test = getattr(item, "function", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if not getattr(test, "is_hypothesis_test", False) or own is None or id(test) in done:
            continue
        done.add(id(test))
        if own.max_examples == active:  # no budget of its own: the profile's already
            continue
        scaled = max(1, own.max_examples * active // _BASE_EXAMPLES)
        test._hypothesis_internal_use_settings = hypothesis_settings(  # type: ignore[union-attr]
            parent=own, max_examples=scaled)

BASES = ("simple", "podkidnoy", "perevodnoy")

#: House-rule modifiers and single options that stack on every base game (VARIANTS §3.10).
MODIFIERS = (
    "",
    "+ace_not_trump_indicator",
    "+first_bout_cap_five",
    "+uncapped_after_stock",
    "+defender_draws_first",
    "+draw.order=attacker_then_strict_clockwise",
    "+throw_in.by=neighbours",
    "+end.draw_allowed=false",
    "+trump.source=any_card",
    "+trump.source=bottom_card",
    "+first_attacker.no_trump_fallback=lot",
    "+transfer.forbid_if_trump_on_table=true",
    "+lead.shape=single",
    "+lead.shape=same_rank_1or2",
    "+lead.shape=rozaliev",
)

MAX_ACTIONS = 20_000  # as bito.sim: end.idle_bouts bounds even the slowest rules


def P(text: str) -> DurakState:
    """A position from its one-line text."""
    return parse_position(text)


def C(text: str) -> int:
    """One card from its text (``"7h"``)."""
    return parse_card(text)


def cards(text: str) -> set[int]:
    """A set of cards written back to back (``"7h8h"``)."""
    return {parse_card(text[i:i + 2]) for i in range(0, len(text), 2)}


def legal(state: DurakState) -> set[str]:
    """The legal actions as text."""
    return {str(a) for a in state.legal_actions()}


def play(state: DurakState, *moves: str) -> DurakState:
    """Apply actions given as text, one after the other."""
    for m in moves:
        state = state.apply(parse_action(m))
    return state


def hand(state: DurakState, seat: int) -> set[int]:
    return set(cards_of(state.hands[seat]))


def table_cards(state: DurakState) -> list[int]:
    return list(state.attack) + [c for c in state.defence if c >= 0]


def deck_of(state: DurakState) -> set[int]:
    return set(state.rules.deck())


def zones(state: DurakState) -> list[list[int]]:
    """Every place a card can be: each hand, the stock, the table, the discard pile, and the
    cards set aside (#18's secret card)."""
    out = [cards_of(h) for h in state.hands]
    out.append(list(state.stock))
    out.append(table_cards(state))
    out.append(cards_of(state.discard))
    out.append(cards_of(state.aside))
    extra = EXTRAS.of(state)  # #49: a counter-attack's cards lie on a table of their own
    if extra is not None and extra.counter:
        out.append([c for c in (*extra.counter, *extra.counter_cover) if c >= 0])
    books = BOOKS.of(state)
    if books is not None:  # face-down cards of the stock group (#35 locked, #37 buy-in)
        out += [cards_of(m) for m in (*books.reserve, *books.locked)]
    return out


def assert_conserved(state: DurakState) -> None:
    """Hands + stock + table + discard + set-aside cards hold exactly the deck, each once."""
    every = [c for z in zones(state) for c in z]
    assert len(every) == len(set(every)), "a card is in two places"
    assert set(every) == deck_of(state), "cards created or lost"


def shuffled_pack(size: int, seed: int) -> list[int]:
    """The pack order a seed stands for (index 0 is the top card, dealt first).

    This is bito's documented seed convention (``setup.deal``): ``random.Random(seed)``
    shuffles the standard deck, and nothing else is drawn from it before the shuffle. Tests
    use it to derive who must receive which card from the dealing *rule*.
    """
    pack = list(standard_deck(size))
    random.Random(seed).shuffle(pack)
    return pack


def random_walk(state: DurakState, rng: random.Random,
                limit: int = MAX_ACTIONS) -> Iterator[tuple[DurakState, Action, DurakState]]:
    """Play random legal actions to the end; yield (before, action, after) for each."""
    for _ in range(limit):
        if state.is_over:
            return
        acts = state.legal_actions()
        action = acts[rng.randrange(len(acts))]
        after = state.apply(action)
        yield state, action, after
        state = after
    raise AssertionError(f"game did not end within {limit} actions")


def final_state(state: DurakState, rng: random.Random) -> DurakState:
    for _, _, after in random_walk(state, rng):
        state = after
    return state


def subsets_same_rank(hand_mask: int, most: int) -> set[tuple[int, ...]]:
    """Every non-empty set of cards of one rank from a hand, of at most ``most`` cards."""
    by_rank: dict[int, list[int]] = {}
    for c in cards_of(hand_mask):
        by_rank.setdefault(rank_of(c), []).append(c)
    out: set[tuple[int, ...]] = set()
    for group in by_rank.values():
        for k in range(1, min(len(group), most) + 1):
            out.update(tuple(sorted(sub)) for sub in combinations(group, k))
    return out


def lowest_trump_holder(state: DurakState) -> int | None:
    """The seat holding the lowest trump in the dealt hands (None if nobody holds one)."""
    best = None
    for seat, h in enumerate(state.hands):
        for c in cards_of(h):
            if suit_of(c) == state.trump_suit and (best is None or rank_of(c) < best[0]):
                best = (rank_of(c), seat)
    return None if best is None else best[1]


__all__ = [
    "BASES", "MAX_ACTIONS", "MODIFIERS", "C", "MatchContext", "P", "assert_conserved",
    "cards", "deck_of", "final_state", "hand", "legal", "lowest_trump_holder", "mask_of",
    "new_game", "play", "position_text", "random_walk", "shuffled_pack", "subsets_same_rank",
    "table_cards", "zones",
]


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20240601)


def fingerprint(state: DurakState) -> tuple:
    """Everything that makes up a position, cheaply (position_text is the readable form)."""
    return (tuple(state.hands), tuple(state.known), tuple(state.stock), state.discard,
            tuple(state.attack), tuple(state.defence), state.phase, state.to_act,
            state.attacker, state.leader, state.defender, state.taking, state.throwers,
            state.t_idx, state.passes, state.bout, tuple(state.out), state.outcome)


# --- Hypothesis strategies over games -------------------------------------------------------------

from hypothesis import strategies as st  # noqa: E402

from bito.games.durak.bout_extras import EXTRAS  # noqa: E402
from bito.games.durak.position_stock import BOOKS  # noqa: E402
from bito.games.durak.setup import MatchContext as _Ctx  # noqa: E402
from bito.rules import resolve  # noqa: E402

#: Mutually exclusive house rules / options, at most one of each group per game.
MODIFIER_GROUPS: tuple[tuple[str, ...], ...] = (
    ("", "+trump.source=any_card", "+trump.source=bottom_card", "+trump.source=last_card"),
    ("", "+ace_not_trump_indicator"),
    ("", "+first_bout_cap_five"),
    ("", "+uncapped_after_stock"),
    ("", "+defender_draws_first", "+draw.order=attacker_then_strict_clockwise",
     "+draw.order=attacker_first", "+draw.order=right_of_defender_first"),
    ("", "+throw_in.by=neighbours"),
    ("", "+end.draw_allowed=false"),
    ("", "+first_attacker.no_trump_fallback=lot"),
    ("", "+lead.shape=single", "+lead.shape=same_rank_1or2", "+lead.shape=rozaliev"),
    ("", "+next_game_leader=under_fool", "+next_game_leader=previous_winner",
     "+next_game_leader=left_of_dealer", "+next_game_leader=lowest_trump"),
)
TRANSFER_GROUPS: tuple[tuple[str, ...], ...] = (
    ("", "+transfer.forbid_if_trump_on_table=true"),
    ("", "+no_transfer_first_bout=first_game", "+no_transfer_first_bout=under_fool"),
    ("", "+throw_in.enabled=false"),
)


@st.composite
def game_specs(draw, bases: tuple[str, ...] = BASES, modifiers: bool = True,
               max_players: int = 6):
    """(variant spec, players, seed, match context) for a random game."""
    base = draw(st.sampled_from(bases))
    spec = base
    if modifiers:
        groups = MODIFIER_GROUPS + (TRANSFER_GROUPS if base == "perevodnoy" else ())
        for group in groups:
            spec += draw(st.sampled_from(group))
        size = draw(st.sampled_from((36, 36, 24, 32, 52)))
        if size != 36:
            spec += f"+deck.size={size}"
    rules = resolve(spec).rules
    players = draw(st.integers(2, min(max_players, rules.max_players)))
    seed = draw(st.integers(0, 2**32 - 1))
    match = _Ctx()
    if modifiers and draw(st.booleans()):
        fool = draw(st.none() | st.integers(0, players - 1))
        winner = draw(st.integers(0, players - 1))
        if winner == fool:
            winner = (winner + 1) % players
        match = _Ctx(game_number=draw(st.integers(1, 3)),
                     dealer=fool if fool is not None else draw(st.integers(0, players - 1)),
                     previous_fool=fool, previous_winner=winner)
    return spec, players, seed, match


def start(spec_tuple) -> DurakState:
    spec, players, seed, match = spec_tuple
    return new_game(spec, players=players, seed=seed, match=match)


def rule_of(state: DurakState, move: str) -> str:
    """The rule an illegal move breaks (the test fails if the move is legal)."""
    with pytest.raises(IllegalActionError) as info:
        state.apply(parse_action(move))
    return info.value.rule
