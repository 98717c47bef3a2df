"""``python -m bench.purged``: what purged texts cost ``gardener note``.

Times a whole ``gardener note`` process (median of ``--repeats`` runs) in a
one-day workspace holding 0, 1 and 10 purged texts, two ways: on a clone
that has never met them (each checked through its committed scrypt record,
``gardener.planning.purge.Sealed``) and on a machine that has (its fast
keyed hashes in ``.gardener/purged.local``); and the purge check alone
(``gardener.store.purged.is_refused`` on the note's line) in this process,
which a busy machine disturbs less. The records are written as a purge
writes them, without running the purges. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gardener import Workspace
from gardener.store import purged

_NOTE = (
    "decision: we moved the staging database to SQLite after the load test on "
    "Friday, see the ops channel (source: ops review)"
)


def _workspace(root: Path, count: int, met: bool) -> Path:
    ws, _ = Workspace.init(root, now_override="2026-03-02T09:00")
    ws.note("the first entry of the day")
    lines = [purged._PURGED_HEADER]
    for i in range(count):
        text = f"Person Number{i} Lastname"
        lines.append(purged.sealed_line(text, f"bench{i:02d}"))
        if met:
            purged.learn(
                root,
                [
                    (
                        purged._sealed(lines[-1].rstrip("\n").split("\t")),
                        purged.normalize(text),
                    )
                ],
            )  # type: ignore[list-item]
    if count:
        (root / purged.PURGED).write_text("".join(lines))
        subprocess.run(["git", "-C", str(root), "add", purged.PURGED], check=True)
        subprocess.run(
            ["git", "-C", str(root), "-c", "user.name=b", "-c", "user.email=b@b",
             "commit", "-qm", "bench: purged texts", "--no-verify"],
            check=True,
        )  # fmt: skip
    return root


def _time_note(root: Path, repeats: int) -> float:
    """Median wall time (ms) of ``gardener note`` in ``root``."""
    times = []
    env = dict(os.environ, GARDENER_NOW="2026-03-02T10:00")
    for i in range(repeats + 1):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "gardener", "-w", str(root), "note", f"{_NOTE} {i}"],
            check=True, capture_output=True, env=env,
        )  # fmt: skip
        if i:  # the first run warms the settings cache
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


# a near miss of every purged text: each costs a scrypt hash per record
_WORST = "- 10:00 met " + ", ".join(f"Person Number{i} Lastnamx" for i in range(10))


def _time_check(root: Path, repeats: int, line: str) -> float:
    """Median time (ms) of the purge check ``note`` makes, in this process."""
    times = []
    for _ in range(repeats * 5):
        start = time.perf_counter()
        purged.is_refused(root, line)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    print(
        "| purged texts | `note`, never met | `note`, met | check, never met "
        "| check, never met, near misses | check, met | check, met, near misses |"
    )
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for count in (0, 1, 10):
            notes, checks = [], []
            for met in (False, True):
                root = _workspace(Path(tmp) / f"ws{count}{met}", count, met)
                notes.append(f"{_time_note(root, args.repeats):.1f} ms")
                checks.append(
                    f"{_time_check(root, args.repeats, f'- 10:00 {_NOTE}'):.2f} ms"
                )
                checks.append(f"{_time_check(root, args.repeats, _WORST):.1f} ms")
            print(f"| {count} | {notes[0]} | {notes[1]} | {' | '.join(checks)} |")


if __name__ == "__main__":
    main()
