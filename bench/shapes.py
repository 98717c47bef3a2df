"""Promote on the shapes of input users have, not only the generator's sparse one.

- dense notes: 15 daily notes of 1,200 keyed facts each over ~17,000 distinct
  keys (an agent that logs a lot, or a workspace adopted with history), once
  committed by the adoption and once written straight into the notes after it
  (what agents and ``watch`` leave: the pass records them first);
- pattern-keyed facts: the same number of plain sentences over 40 relations,
  each keyed by its own rules.md pattern (``bench.relations``: the shape of
  MemoryAgentBench's FactConsolidation);
- a big MEMORY.md: one new day on the workspace the dense pass leaves (~17,000
  current entries), against one new day on the 1-day workspace.

Each is timed as the other promote figures are (``timing.probe_promote``: a
fresh interpreter, the median of up to 3 passes); the targets are issue 21's.
"""

from __future__ import annotations

import shutil
import statistics
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import relations, timing
from .generate import Spec, write_notes
from .table import Row, ms
from .workspaces import Built, add_next_day, build, copy

if TYPE_CHECKING:
    from .figures import Setup

NOTES = 15  # daily notes of the dense shape


def dense_spec(facts: int) -> Spec:
    """``facts`` keyed facts in ``NOTES`` notes, nearly every key distinct."""
    return Spec(
        days=NOTES,
        per_day=4,
        keyed=facts // NOTES,
        key_pool=facts * 17 // 18,
        days_off=0.0,
        backfill_every=0,
    )


def promote_shapes(setup: Setup) -> list[Row]:
    """The dense rows (committed, uncommitted) and the big-MEMORY.md row."""
    scratch, facts, timeout = setup.scratch, setup.facts, setup.timeout
    repeats = min(setup.repeats, 3)
    spec = dense_spec(facts)
    committed = build(spec, scratch / "dense-raw", promote=False)
    rows = [
        _one_pass(setup, committed, scratch / "dense", repeats,
                  f"promote {facts:,} keyed facts in {NOTES} dense notes, committed"),
        _one_pass(setup, _uncommitted(spec, scratch / "dense-new-raw"),
                  scratch / "dense-new", repeats,
                  f"promote {facts:,} keyed facts in {NOTES} dense notes, not committed yet"),
        _one_pass(setup, _relations(spec, scratch / "relations-raw", facts),
                  scratch / "relations", repeats,
                  f"promote {facts:,} facts keyed by {len(relations.RELATIONS)} "
                  "sentence patterns (one per relation)", target=3.0),
    ]  # fmt: skip
    rows.append(_big_memory(setup, committed, scratch, repeats, timeout))
    return rows


def _relations(spec: Spec, root: Path, facts: int) -> Built:
    """The pattern-keyed workspace (``bench.relations``), committed."""
    relations.build(root, facts, spec.end)
    return Built(root, spec, relations.NOTES, 0.0)


def _uncommitted(spec: Spec, root: Path) -> Built:
    """A workspace adopted empty whose notes are then written straight in."""
    from gardener import Workspace

    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    Workspace.init(root, now_override=spec.now)
    write_notes(spec, root)
    return Built(root, spec, NOTES, 0.0)


def _one_pass(
    setup: Setup, raw: Built, folder: Path, repeats: int, figure: str,
    target: float = 1.5,
) -> Row:  # fmt: skip
    seconds: list[float] = []
    rss: list[float] = []
    goal, timeout = f"<= {target:g} s", setup.timeout
    for _ in range(repeats):
        ws = copy(raw, folder)
        got = timing.probe_promote(ws.root, raw.spec.now, timeout)
        if got is None:
            return Row(figure, "-", f"> {timeout:.0f} s (stopped)", None, goal,
                       status="no")  # fmt: skip
        seconds.append(got["seconds"])
        rss.append(got["rss_mb"])
    if setup.profile:
        ws = copy(raw, folder)
        setup.profiles.append(
            (figure, timing.probe_phases(ws.root, raw.spec.now, timeout))
        )
    t = statistics.median(seconds)
    return Row(figure, "-", f"{ms(t)} ({statistics.median(rss):.0f} MB)", None,
               goal, t, target)  # fmt: skip


def _big_memory(
    setup: Setup, committed: Built, scratch: Path, repeats: int, timeout: float
) -> Row:
    """One new day on a ~17,000-entry MEMORY.md against one on the 1-day workspace."""
    from gardener import Workspace

    big_root = scratch / "dense-promoted"
    big = copy(committed, big_root)
    Workspace(big.root, now_override=big.spec.now).promote(force=True)
    big = replace(big, spec=replace(big.spec, label="dense"))
    day = setup.day

    def one(built: Built, name: str) -> float:
        ws = copy(built, scratch / name, warm=True)
        got = timing.probe_promote(ws.root, add_next_day(ws), timeout)
        return got["seconds"] if got else float("inf")

    small, large = timing.interleave(
        repeats, lambda: one(day, "shape-day-1d"), lambda: one(big, "shape-day-big")
    )
    entries = _current_entries(big.root)
    ratio = large / small
    figure = f"promote one new day, MEMORY.md of {entries:,} entries / 1 d"
    if setup.profile:
        ws = copy(big, scratch / "shape-day-big", warm=True)
        setup.profiles.append(
            (figure, timing.probe_phases(ws.root, add_next_day(ws), timeout))
        )
    return Row(
        figure,
        f"1 d: {ms(small)}",
        f"{entries:,} entries: {ms(large)}",
        ratio,
        "<= 1.3x",
        ratio,
        1.3,
    )


def _current_entries(root: Path) -> int:
    from gardener.formats.memoryfile import parse_memory

    text = (root / "MEMORY.md").read_text(encoding="utf-8")
    return sum(1 for fact in parse_memory(text).facts if not fact.superseded)
