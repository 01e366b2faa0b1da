"""Invariants of the Variants II lead group (issue 4: #2-6, #9-12, #46, #47, #52), by random
play.

Over every spec of the group (games by id, house rules on every base they accept, and the
alternatives the catalogue names as options): no card is created or lost, every legal action
is accepted by ``apply`` and the game ends; every reached state prints to a position that
parses back to the same state; a seat's view never holds another seat's hidden card. The
golden perft files are recomputed in tests/perft/test_leads_and_transfers_perft.py.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.games.durak import new_game
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
