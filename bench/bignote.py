"""The big-note shape: one daily note of 50 MB (5 MB with ``--quick``).

An agent that logs everything into one day's note, or a log pasted into one.
The note is adopted by ``init`` and its entries entered in the ledger as
processed (what an earlier pass leaves); then one line is appended to it and
the pass that follows is timed, as is the first recall after it (the index
as an earlier recall left it), against the same append and pass on the
1-day workspace. Issue 20's target: the append
and pass cost under a second more than on a small note, and peak memory stays
under 200 MB.
"""

from __future__ import annotations

import statistics
import subprocess
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import timing
from .generate import Spec, write_notes
from .table import Row, ms
from .workspaces import Built, copy, git, mark_processed

if TYPE_CHECKING:
    from .figures import Setup

LINE = "- 19:30 decision: **database**: DuckDB\n"  # before the pass's clock
AGED = 2.1  # seconds between the copy and the append (see _append_and_promote)
ENTRY_BYTES = 75  # what an entry of the generator's notes takes, newline included


def build_big(root: Path, megabytes: float) -> Built:
    """A workspace whose one note holds ``megabytes`` MB of entries, all processed."""
    from gardener import Workspace

    per_day = int(megabytes * 1_000_000 / ENTRY_BYTES)
    spec = Spec(days=1, per_day=per_day, days_off=0.0, backfill_every=0)
    if root.exists():
        subprocess.run(["rm", "-rf", str(root)], check=True)
    root.mkdir(parents=True)
    # init first, the note after it, committed by git alone: init's own pass
    # would file it (the 63 s this row is about), and setup is not measured
    Workspace.init(root, now_override=spec.now)
    notes = write_notes(spec, root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "bench: the big note")
    mark_processed(root, notes)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "bench: the big note's entries processed")
    git(root, "gc", "--quiet")
    # the caches a pass over the note leaves (its tail: gardener.store.notetail),
    # and the recall index a recall leaves (its rows and where its read of the
    # note stopped), as in a workspace whose last pass and recall read it;
    # copies keep them. In processes of their own: this one stays small (a
    # child's ru_maxrss starts at it)
    for verb in (["promote", "--dry-run"], ["recall", "database"]):
        subprocess.run(
            [*timing.gardener(), "-w", str(root), *verb],
            env=timing.env(spec.now), check=True, capture_output=True,
        )  # fmt: skip
    size = sum(p.stat().st_size for p in notes)
    return Built(root, replace(spec, label=f"{size / 1e6:.0f} MB"), 1, 0.0)


def _append_and_promote(
    setup: Setup, built: Built, target: Path, figure: str
) -> dict[str, float]:
    ws = copy(built, target)
    # a copy's files are all just changed (ctime): older than 2 s, the stamps
    # of the ledger files vouch for them (gardener.store.tailstore), as in a
    # workspace whose last pass was a while before the agent's append
    time.sleep(AGED)
    note = sorted((ws.root / "memory").glob("*.md"))[-1]
    with note.open("a", encoding="utf-8") as out:
        out.write(LINE)
    if setup.profile:  # on a copy of the same state, before the timed pass
        again = copy(ws, target.with_name(target.name + "-profile"))
        setup.profiles.append((figure, timing.probe_phases(again.root, ws.spec.now)))
    got = timing.probe_promote(ws.root, ws.spec.now, setup.timeout)
    if got is None:
        return {"seconds": float("inf"), "rss_mb": float("nan"), "recall": float("inf")}
    cmd = [*timing.gardener(), "-w", str(ws.root), "recall", "DuckDB"]
    got["recall"] = timing.run(cmd, ws.spec.now)
    return got


def big_note(setup: Setup) -> list[Row]:
    """Append then promote (and the first recall) on the big note vs the 1-day one."""
    megabytes = 50.0 if setup.facts >= 18_000 else 5.0
    big = build_big(setup.scratch / "big-note-raw", megabytes)
    size = big.spec.label
    small: list[dict[str, float]] = []
    large: list[dict[str, float]] = []
    figure = f"append a line, then promote: {size} note / 1 d"
    for n in range(min(setup.repeats, 3)):
        # the profile, when asked, of the big pass only: the small one is tiny
        small.append(
            _append_and_promote(
                replace(setup, profile=False),
                setup.day,
                setup.scratch / "big-small",
                figure,
            )
        )
        large.append(
            _append_and_promote(
                setup if n == 0 else replace(setup, profile=False),
                big,
                setup.scratch / "big-note",
                figure,
            )
        )
        if large[-1]["seconds"] > setup.timeout / 3:
            break  # one slow pass says enough

    def med(runs: list[dict[str, float]], name: str) -> float:
        return statistics.median(r[name] for r in runs)

    s, b = med(small, "seconds"), med(large, "seconds")
    rs, rb = med(small, "recall"), med(large, "recall")
    rss = med(large, "rss_mb")
    return [
        Row(figure, f"1 d: {ms(s)}",
            f"{size}: {ms(b)} (+{ms(b - s)})", b / s, "< 1 s more", b - s, 1.0),
        Row(f"first recall after that append: {size} note / 1 d", f"1 d: {ms(rs)}",
            f"{size}: {ms(rb)} (+{ms(rb - rs)})", rb / rs, "< 1 s more", rb - rs, 1.0),
        Row(f"peak RSS of that promote, {size} note", "-", f"{rss:.0f} MB", None,
            "<= 200 MB", rss, 200.0),
    ]  # fmt: skip
