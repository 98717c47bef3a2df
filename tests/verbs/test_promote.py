"""The promote verb: a pass that converges after a kill, and warns of a note it cannot read."""

from __future__ import annotations

import pytest

from gardener import Workspace
from gardener.files.atomic import atomic_write
from gardener.planning.promote import plan_promotion
from tests.helpers import values, write


@pytest.mark.now("2026-03-01T18:00")
def test_rerun_after_a_kill_between_memory_and_ledger_writes_converges(ws: Workspace):
    write(
        ws,
        "2026-01-13.md",
        "- fact: **staging host**: box2\n- fact: **merge policy**: fixes only (expires: 2026-02-01)\n",
    )
    write(ws, "2026-01-19.md", "- correction: **staging host**: box7\n")
    plan = plan_promotion(
        ws.read_notes()[0], ws.read_memory(), ws.config, ws.now(), ws.read_ledger()
    )
    atomic_write(
        ws.memory_path, plan.text
    )  # killed here: MEMORY.md written, ledger not
    ws.promote()
    assert (ws.root / "MEMORY.md").read_text() == plan.text
    assert values(ws, "staging host") == ["box7"]


@pytest.mark.now("2026-03-01T18:00")
def test_promote_warns_of_a_note_it_cannot_read(ws: Workspace, run_cli):
    """One byte that is not UTF-8 left a day's entries out of promote, which
    said "no change" and exited 0; only `check` told."""
    ws.note("decision: **database**: SQLite")
    with open(ws.root / "memory" / "2026-03-01.md", "ab") as out:
        out.write(b"\xe9\n")
    (warning,) = ws.promote().warnings
    assert warning.startswith("memory/2026-03-01.md:") and "not promoted" in warning
    out = run_cli("-w", str(ws.root), "promote", now="2026-03-01T18:00")
    assert "warning: memory/2026-03-01.md" in out.output
