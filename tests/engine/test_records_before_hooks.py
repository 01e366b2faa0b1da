"""Records made before the variant hooks (issue 17) replay to the same final states.

``tests/golden/records_before_hooks.jsonl`` holds one random game of each variant whose rules
became a hook (#31's choices, #39-51's extras, #56, #57, #58, #59) and of a few that did not,
recorded by the engine at commit 67a4b7a, before the hooks, with the final position it
reached. Replaying each record on today's engine must be legal move by move and end in the
same position, written out in full.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bito.games.durak.position_text import position_text
from bito.record import load_record

GOLDEN = Path(__file__).parent.parent / "golden" / "records_before_hooks.jsonl"
ROWS = [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


def test_the_file_covers_every_hooked_variant() -> None:
    specs = " ".join(row["spec"] for row in ROWS)
    for name in ("believe_not_believe", "blind_face_out", "exchange.mode=choose",
                 "tossing_dummy", "playing_dummy", "self_throw", "counter_throw"):
        assert name in specs


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['spec']}@{r['players']}" for r in ROWS])
def test_an_old_record_replays_to_its_old_final_position(row: dict) -> None:
    record = load_record(row["record"])
    states = record.replay()
    assert len(states) == len(record.actions) + 1
    assert states[-1].is_over
    assert position_text(states[-1]) == row["final"]
