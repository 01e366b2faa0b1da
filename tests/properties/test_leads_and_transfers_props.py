"""Invariants and perft goldens of the Variants II lead group (issue 4: #2-6, #9-12, #46, #47,
#52), by random play.

Over every spec of the group (games by id, house rules on every base they accept, and the
alternatives the catalogue names as options): no card is created or lost, every legal action
is accepted by ``apply`` and the game ends; every reached state prints to a position that
parses back to the same state; a seat's view never holds another seat's hidden card. The
golden perft files ``tests/golden/perft_v2_<id>.txt`` (written by ``tools/make_perft.py``)
are recomputed line by line.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.games.durak import DurakState, new_game
from bito.notation import parse_position, position_text
from bito.rules import resolve
from bito.rules.registry import all_variants
from conftest import assert_conserved, fingerprint, random_walk

GROUP = frozenset((2, 3, 4, 5, 6, 9, 10, 11, 12, 46, 47, 52))
#: The catalogue's alternatives for these ids, as options (VARIANTS §3.1, §3.5).
OPTIONS = ("from_groups+lead.patterns=single,pair,pair_plus_one,trips,quads",
           "transfer_2+transfer.match=all_uncovered",
           "transfer_3+transfer.neutralised=discard",
           "transfer_no_throw+transfer.must_include_all_of_rank=true",
           "podkidnoy+treshka=three_of_a_rank+lead.pass_if_no_legal=true",
           "estonian+transfer.neutralised=discard",
           "perevodnoy_refusal+transfer.window=any_time",
           "pairs_only+lead_strongest+no_skip_after_take")
GOLDEN = Path(__file__).parents[1] / "golden"


def group_specs() -> list[str]:
    out: list[str] = []
    for v in all_variants():
        if v.number in GROUP:
            out += [v.id] if v.kind == "game" else [f"{b}+{v.id}" for b in v.applies_to]
    return out + list(OPTIONS)


SPECS = group_specs()


def test_every_id_of_the_group_is_registered_and_sampled() -> None:
    """Issue 4: each id is a registered variant; the sample covers all twelve."""
    ids = {v.id for v in all_variants() if v.number in GROUP}
    assert len(ids) == 12
    for vid in ids:
        assert any(vid in spec for spec in SPECS), vid


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, int]:
    spec = draw(st.sampled_from(SPECS))
    rules = resolve(spec).rules
    players = draw(st.integers(rules.players_min, min(6, rules.max_players)))
    return spec, players, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.randoms(use_true_random=False))
def test_random_play_conserves_cards_accepts_legal_moves_and_ends(
        game: tuple[str, int, int], rng: random.Random) -> None:
    """Cards conserved at every step, every legal action accepted (random_walk applies what
    legal_actions offers; apply raises on anything else), nobody left without a move, and
    the game ends with a consistent outcome."""
    spec, players, seed = game
    state = new_game(spec, players=players, seed=seed)
    last = state
    for step, (before, _, after) in enumerate(random_walk(state, rng, limit=20_000)):
        if not before.is_over:
            assert before.legal_actions(), (spec, step)
        if step % 10 == 0:
            assert_conserved(after)
        last = after
    assert_conserved(last)
    assert last.is_over
    assert last.outcome.draw == (last.outcome.loser is None)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.randoms(use_true_random=False))
def test_positions_round_trip_and_views_hide_cards(game: tuple[str, int, int],
                                                   rng: random.Random) -> None:
    """Every third reached state: the position text parses back to the same state with the
    same legal actions; each view holds its own hand, and of other hands only cards known
    to everyone (a lead pass or a partial take reveals nothing more)."""
    spec, players, seed = game
    state = new_game(spec, players=players, seed=seed)
    for step, (_, _, after) in enumerate(random_walk(state, rng, limit=20_000)):
        if step % 3 and not after.is_over:
            continue
        if after.is_over and after.outcome.reason:
            continue  # a deal drawn early (end.repetition) has no position text of its own
        text = position_text(after)
        back = parse_position(text)
        assert position_text(back) == text
        assert fingerprint(back) == fingerprint(after)
        assert [str(a) for a in back.legal_actions()] == [str(a) for a in after.legal_actions()]
        for seat in range(players):
            view = after.view(seat)
            assert view.hand == after.hands[seat]
            for other in range(players):
                if other != seat:
                    assert not view.known[other] & ~after.known[other]


# --- perft goldens -----------------------------------------------------------------------------


def golden_files() -> list[Path]:
    return sorted(GOLDEN.glob("perft_v2_lead_*.txt"))


def read_golden(path: Path) -> tuple[str, list[tuple[str, DurakState, list[int]]]]:
    spec = ""
    out = []
    for raw in path.read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        if raw.startswith("spec "):
            spec = raw.removeprefix("spec ").strip()
            continue
        start, _, numbers = raw.rpartition(" ; ")
        kind, _, rest = start.partition(" ")
        if kind == "seed":
            players, seed = map(int, rest.split())
            state = new_game(spec, players=players, seed=seed)
        else:
            state = parse_position(rest)
        out.append((start, state, [int(n) for n in numbers.split()]))
    return spec, out


def perft(state: DurakState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


def test_a_golden_file_per_id() -> None:
    """Issue 4 "a perft-style golden file per variant": one per id of the group."""
    ids = {p.stem.removeprefix("perft_v2_lead_") for p in golden_files()}
    assert ids == {v.id for v in all_variants() if v.number in GROUP}


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_golden_perft(path: Path) -> None:
    """Regression guard: the leaf counts recorded when the rules were written."""
    _, lines = read_golden(path)
    assert lines
    for start, state, counts in lines:
        assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts, start


def test_hand_counted_perft_of_a_lead_pass() -> None:
    """#5 A1 counted by hand: P0 holds no pair, P1 holds 8c8h and P2's hand is full. Depth 1:
    only ``pass``. Depth 2: P1 leads his one pair at P2. Depth 3: P2 covers 8c with 9c or Qc
    ... and the 8h with nothing (hearts trump, he holds no heart), so he may only cover 8c
    (two ways) or take: 3 leaves."""
    s = parse_position("pairs_only players=3 trump=6h stock=6hAcAd hands=7c8d9s/8c8hJs/9cQcKs "
                       "attacker=0")
    assert [perft(s, d) for d in (1, 2, 3)] == [1, 1, 3]
