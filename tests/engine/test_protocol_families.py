"""One protocol for every family: invariants, golden move counts, records and the command line
for the shedding, trick-taking and social games (#60, #85-#95).

Hypothesis plays random games and checks after every action: no card created or lost, no card
in two places, ``apply`` leaves the old state alone, every listed action applies and a few
unlisted ones are refused, and each seat's view is exact (moving hidden cards between the
other seats never changes it). Games end within their documented caps.

The perft files ``tests/golden/perft_<id>.txt`` are a REGRESSION GUARD written by running this
module (``python tests/engine/test_protocol_families.py``); the test recomputes them with its own
tree walk.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bito.cli import main
from bito.errors import IllegalActionError
from bito.games import family_of, family_rules_for, new_game
from bito.games.protocol import Move, parse_move, word
from bito.record import load_record
from bito.sim import play_game, run_sim
from bito.tui_families import record_text

GOLDEN = Path(__file__).parents[1] / "golden"

#: Every id with a quick spec (Mau-Mau matches shortened to two rounds).
SPECS = {
    "czech_fool": "czech_fool+shed.rounds=2", "czech_draw_one": "czech_draw_one+shed.rounds=2",
    "czech_32card": "czech_32card+shed.rounds=2",
    "czech_jack_wild": "czech_jack_wild+shed.rounds=2",
    "english_fool": "english_fool+shed.rounds=2", "pharaoh": "pharaoh+shed.rounds=2",
    "pentagon": "pentagon+shed.rounds=2", "crocodile": "crocodile+shed.rounds=2",
    "ontoys_adjacent_rank": "ontoys_adjacent_rank", "friese_fool": "friese_fool",
    "animal_sounds": "animal_sounds", "believe_not_believe_2": "believe_not_believe_2",
}
IDS = tuple(SPECS)
CAP = 60_000


def all_cards(s: Any) -> list[int]:
    """Every card of the current deal, wherever it lies (lists keep duplicates visible)."""
    cards: list[int] = []
    for h in s.hands:
        cards += _bits(h)
    for name in ("stock", "pile", "claim"):
        value = getattr(s, name, None)
        if isinstance(value, list):
            cards += value
        elif isinstance(value, int):
            cards += _bits(value)
    cards += [c for _, c in getattr(s, "trick", [])]
    cards += _bits(getattr(s, "gone", 0))
    return cards


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def check_view_exact(s: Any) -> None:
    """Each seat's view: its own hand only; moving a hidden card between two other hands
    changes nothing it sees."""
    n = s.players
    for seat in range(n):
        view = s.view(seat)
        assert view.hand == s.hands[seat]
        assert (view.legal != ()) == (seat == s.to_act and not s.is_over)
        others = [j for j in range(n) if j != seat and s.hands[j]]
        known = getattr(s, "known", [0] * n)
        if len(others) < 2:
            continue
        a, b = others[0], others[1]
        public = known[a] | known[b]
        ca = next((c for c in _bits(s.hands[a]) if not public >> c & 1), None)
        cb = next((c for c in _bits(s.hands[b]) if not public >> c & 1), None)
        if ca is None or cb is None:
            continue
        t = s.copy()
        t.hands = list(s.hands)
        t.hands[a] = (t.hands[a] & ~(1 << ca)) | (1 << cb)
        t.hands[b] = (t.hands[b] & ~(1 << cb)) | (1 << ca)
        if hasattr(t, "_legal"):
            t._legal = None
        if s.to_act in (a, b):
            continue  # the seat to act's own legal list would differ, not the viewer's
        assert t.view(seat) == view


def wrong_actions(s: Any) -> list[Move]:
    """Actions that are surely not legal: another seat's card, and unlisted words."""
    legal = s.legal_actions()
    out = [word(w) for w in ("draw", "pass", "sound", "laugh", "doubt", "claim")
           if word(w) not in legal]
    for j in range(s.players):
        if j != s.to_act and s.hands[j]:
            c = _bits(s.hands[j])[0]
            if family_of(s.rules.variant) == "tricks":
                from bito.games.tricks.fool import play_card

                if c < 128:  # a regular card of another hand
                    out.append(play_card(c))
            else:
                out.append(parse_move_of(c))
            break
    return [m for m in out if m not in legal]


def parse_move_of(c: int) -> Move:
    from bito.cards import card_str

    return parse_move(card_str(c))


@settings(max_examples=24, deadline=None)
@given(game=st.sampled_from(IDS), seed=st.integers(0, 2**31), players=st.integers(0, 10))
def test_invariants_along_random_games(game: str, seed: int, players: int) -> None:
    import random

    rules = family_rules_for(SPECS[game])
    n = rules.players_min + players % (rules.max_players - rules.players_min + 1)
    s = new_game(SPECS[game], n, seed=seed)
    rng = random.Random(seed)
    total = len(all_cards(s))
    steps = 0
    while not s.is_over:
        cards = all_cards(s)
        assert len(cards) == len(set(cards)) == total, "a card was created, lost or doubled"
        if steps % 7 == 0:
            check_view_exact(s)
            for bad in wrong_actions(s):
                with pytest.raises(IllegalActionError):
                    s.apply(bad)
        legal = s.legal_actions()
        assert legal
        before = str(s)
        s2 = s.apply(legal[rng.randrange(len(legal))])
        assert str(s) == before, "apply changed the old state"
        s = s2
        steps += 1
        assert steps < CAP
    assert s.outcome is not None and len(s.outcome.order) == n


@pytest.mark.parametrize("game", ("podkidnoy", *IDS))
def test_every_family_has_the_protocol_surface(game: str) -> None:
    """Durak and the new families answer to the same GameState protocol, and
    ``bito.games.new_game`` deals each from its spec."""
    from bito.games import GameState, parse_action_for

    spec = SPECS.get(game, game)
    rules = family_rules_for(spec) if game in SPECS else None
    n = rules.players_min if rules is not None else 2
    s = new_game(spec, n, seed=1)
    assert isinstance(s, GameState)
    assert 0 <= s.to_act < n and not s.is_over and s.outcome is None
    first = s.legal_actions()[0]
    assert parse_action_for(spec, str(first)) == first
    assert str(s) and s.view(s.to_act).legal


@pytest.mark.parametrize("game", IDS)
def test_same_seed_same_game(game: str) -> None:
    from bito.bots import make_bot

    rules = family_rules_for(SPECS[game])
    n = rules.players_min
    runs = []
    for _ in range(2):
        s = new_game(SPECS[game], n, seed=99)
        result = play_game(s, [make_bot("random", 5 + k) for k in range(n)])
        runs.append(([str(a) for a in result.actions], result.outcome.to_json()))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("game", IDS)
def test_records_replay_to_the_same_end(game: str) -> None:
    """A full record (header, one action per line, outcome) loads and replays exactly."""
    from bito.bots import make_bot

    rules = family_rules_for(SPECS[game])
    n = rules.players_min
    s = new_game(SPECS[game], n, seed=7)
    result = play_game(s, [make_bot("heuristic", k) for k in range(n)])
    names = [f"p{k}" for k in range(n)]
    text = record_text(SPECS[game], result.final_state, 7, names,
                       list(zip(result.seats, result.actions, strict=True)))
    record = load_record(text)
    states = record.replay()
    assert str(states[-1]) == str(result.final_state)
    assert record.outcome == result.outcome.to_json()
    assert len(record.frames()) == len(result.actions) + 1


@pytest.mark.parametrize("game", IDS)
def test_sim_runs_every_game_with_both_bots(game: str) -> None:
    rules = family_rules_for(SPECS[game])
    for n in sorted({rules.players_min, rules.max_players}):
        bots = ["random", "heuristic"] * n
        stats = run_sim(SPECS[game], n, 4, bots[:n], seed=3)
        assert stats.errors == 0, stats.errors_by_kind
        assert stats.completed == 4


def test_heuristic_beats_random_in_every_family() -> None:
    """The heuristic is a sensible player: over many seat-rotated games it avoids being the
    fool clearly more often than the random bot (Mau-Mau, Fool!, Cheat)."""
    for spec, n in (("czech_fool+shed.rounds=2", 2), ("friese_fool", 4),
                    ("believe_not_believe_2", 2)):
        stats = run_sim(spec, n, 40, (["heuristic", "random"] * n)[:n], seed=5)
        rate = stats.non_losses_by_bot
        assert rate["heuristic"] > rate["random"] + 0.2, (spec, rate)


# --- perft -----------------------------------------------------------------------------------

PERFT = {game: [(2 if family_rules_for(SPECS[game]).players_min <= 2 else 4, 1),
                (3 if family_rules_for(SPECS[game]).players_min <= 3 else 5, 2)]
         for game in IDS}
DEPTH = 4
DEPTHS = {"believe_not_believe_2": 3}


def perft(state: Any, depth: int) -> int:
    """Leaves exactly ``depth`` actions below ``state``."""
    if depth == 0:
        return 1
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


def golden_path(game: str) -> Path:
    return GOLDEN / f"perft_{game}.txt"


@pytest.mark.parametrize("game", IDS)
def test_perft_matches_golden(game: str) -> None:
    lines = [ln for ln in golden_path(game).read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert "REGRESSION GUARD" in golden_path(game).read_text()
    assert len(lines) >= 2
    for line in lines:
        start, _, numbers = line.partition(" ; ")
        _, players, seed = start.split()
        state = new_game(SPECS[game], int(players), seed=int(seed))
        expected = [int(x) for x in numbers.split()]
        assert [perft(state, d) for d in range(1, len(expected) + 1)] == expected, line


def test_perft_by_hand() -> None:
    """Counted from the rules (#94, S3:25-30): seat 0 holds 8c and 3s on 7d with Jc on the
    stock. Depth 1: only 8c (a rank up). Depth 2: seat 0 keeps the turn; 3s does not fit 8c,
    so he draws: 1. Depth 3: Jc fits nothing on 8c, so the turn passed to seat 1, who holds
    Kc (ace-or-king step): 1."""
    from bito.cards import mask_of, split_cards

    s = new_game("ontoys_adjacent_rank", 2, seed=0).copy()
    s.hands = [mask_of(split_cards("8c 3s")), mask_of(split_cards("Kc 2h"))]
    s.pile, s.stock, s.to_act, s.out, s.pending_out = split_cards("7d"), split_cards("Jc"), \
        0, [], -1
    assert [perft(s, d) for d in (1, 2, 3)] == [1, 1, 1]


# --- command line ------------------------------------------------------------------------------


def run_cli(args: list[str], stdin: str = "", monkeypatch: Any = None) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        code = main(args)
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue() + err.getvalue()


def test_variants_lists_each_game_with_its_family() -> None:
    code, text = run_cli(["variants"])
    assert code == 0
    families = {"czech_fool": "shedding", "ontoys_adjacent_rank": "shedding",
                "friese_fool": "tricks", "animal_sounds": "social",
                "believe_not_believe_2": "social"}
    for game in IDS:
        line = next(ln for ln in text.splitlines() if f" {game} " in ln)
        assert families.get(game, "shedding") in line
    code, text = run_cli(["variants", "pharaoh"])
    assert code == 0 and "shed.hand_size = 4" in text


def test_sim_command_reports_no_errors() -> None:
    code, text = run_cli(["sim", "--variant", "pharaoh+shed.rounds=2", "--players", "3",
                          "--games", "3", "--bots", "random,heuristic,random", "--json",
                          "--no-progress"])
    assert code == 0 and json.loads(text)["errors"] == 0


@pytest.mark.parametrize("game, players, shows", [
    ("czech_fool+shed.rounds=1", 2, "Pile: top"),
    ("english_fool+shed.rounds=1", 3, "penalty points"),
    ("friese_fool+fool.end_tens=1", 4, "Fool disc"),
    ("ontoys_adjacent_rank", 2, "Pile: top"),
    ("animal_sounds", 3, "(the "),
    ("believe_not_believe_2", 3, "claiming"),
])
def test_play_command_with_typed_moves(game: str, players: int, shows: str,
                                       tmp_path: Path) -> None:
    """``bito play``: the human types move numbers; the screen shows what the game needs; the
    saved record replays."""
    save = tmp_path / "game.jsonl"
    code, text = run_cli(["play", "--variant", game, "--players", str(players), "--seed", "4",
                          "--bots", "heuristic", "--save", str(save)], stdin="1\n" * 3000)
    assert code == 0, text
    assert shows in text and "Your move" in text
    record = load_record(save.read_text())
    assert record.outcome is not None
    code, text = run_cli(["replay", str(save), "--to-end"])
    assert code == 0 and re.search(r"^Result: .*\b(wins|You win|a draw)\b", text, re.M), text


def test_bad_spec_names_the_option() -> None:
    code, text = run_cli(["sim", "--variant", "czech_fool+shed.nonsense=1", "--players", "2",
                          "--games", "1"])
    assert code != 0 and "shed.nonsense" in text
    code, text = run_cli(["sim", "--variant", "friese_fool", "--players", "2", "--games", "1"])
    assert code != 0 and "4 to 8" in text


def write_golden() -> None:
    for game in IDS:
        lines = [f"# perft of {game} ({SPECS[game]}): leaves at depths 1..N",
                 "# REGRESSION GUARD written by python tests/engine/test_protocol_families.py; the "
                 "counts are engine output, checked only for change"]
        for players, seed in PERFT[game]:
            state = new_game(SPECS[game], players, seed=seed)
            depth = DEPTHS.get(game, DEPTH)
            counts = " ".join(str(perft(state, d)) for d in range(1, depth + 1))
            lines.append(f"seed {players} {seed} ; {counts}")
        golden_path(game).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    write_golden()
    print("wrote", len(IDS), "golden files")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_mau_mau_pile_turn_over_keeps_every_card(seed: int) -> None:
    """#86, S1:23: with six players the stock runs out often; each time the pile under the top
    card becomes the stock, and no card is gained or lost."""
    import random

    s = new_game("czech_fool+shed.rounds=1", 6, seed=seed)
    rng = random.Random(seed)
    turned = 0
    while not s.is_over:
        legal = s.legal_actions()
        nxt = s.apply(legal[rng.randrange(len(legal))])
        if not nxt.is_over and nxt.round == s.round and len(nxt.pile) < len(s.pile):
            turned += 1  # the new stock holds only cards that were in the pile
            assert set(nxt.stock) - set(s.stock) <= set(s.pile)
        if not nxt.is_over:
            assert sorted(all_cards(nxt)) == sorted(all_cards(s)) or nxt.round != s.round
        s = nxt
    assert s.outcome is not None
    event(f"pile turned over: {turned > 0}")
