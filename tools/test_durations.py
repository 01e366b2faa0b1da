"""Write tests/durations.json: how long each test module took in a whole run of the suite.

The test workers take modules longest first (tests/conftest.py), so that the last module a
worker starts is a short one and both workers finish together; without this, pytest-xdist
hands out modules by their number of tests, and a module of one long test (a cluster under
faults, the README's install) started last keeps one worker busy while the other waits.

Feed it what a whole run of the suite left behind, as CI runs it (``.ci/run``):

    python3 run.py pytest --durations=0 --junitxml=run.xml > run.log
    python tools/test_durations.py run.xml            # or: run.log (the --durations lines)

The figures need only be roughly right: they order the modules, nothing more. A module the
file does not name (a new one) is taken for a short one.
"""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "durations.json"
#: A line of pytest's ``--durations`` report: ``12.34s call     tests/x.py::test_y``.
LINE = re.compile(r"^\s*([0-9.]+)s (?:setup|call|teardown)\s+(\S+?\.py)::")


def _module_of(classname: str) -> str | None:
    """``tests.server.test_x.TestY`` -> ``tests/server/test_x.py`` (the longest existing)."""
    parts = classname.split(".")
    for end in range(len(parts), 0, -1):
        path = "/".join(parts[:end]) + ".py"
        if (ROOT / path).is_file():
            return path
    return None


def from_junit(path: Path, into: dict[str, float]) -> None:
    for case in ET.parse(path).getroot().iter("testcase"):
        module = case.get("file") or _module_of(case.get("classname", ""))
        if module:
            into[module] += float(case.get("time") or 0)


def from_log(path: Path, into: dict[str, float]) -> None:
    for line in path.read_text(errors="replace").splitlines():
        found = LINE.match(line)
        if found:
            into[found.group(2)] += float(found.group(1))


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    seconds: dict[str, float] = defaultdict(float)
    for name in argv:
        path = Path(name)
        (from_junit if path.suffix == ".xml" else from_log)(path, seconds)
    if not seconds:
        print("test_durations: no test durations found in " + ", ".join(argv), file=sys.stderr)
        return 2
    table = {m: round(s, 1) for m, s in sorted(seconds.items()) if (ROOT / m).is_file()}
    OUT.write_text(json.dumps(table, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(table)} modules, {sum(table.values()):.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
