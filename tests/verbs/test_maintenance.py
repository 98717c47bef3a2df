"""When a commit runs git's housekeeping: every few hours, not on every commit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gardener import Workspace


def test_commits_check_gits_housekeeping_every_few_hours(
    ws: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    stamp = ws.root / ".git" / "gardener" / "maintained"
    stamp.unlink(missing_ok=True)
    runs = []
    for text in ("one", "two", "three"):
        if text == "three":  # hours later
            os.utime(stamp, (stamp.stat().st_atime, stamp.stat().st_mtime - 7 * 3600))
        trace.write_text("")
        ws.note(text, kind="fact", key=text)  # facts: a promote that files them commits
        runs.append("maintenance run --auto" in trace.read_text())
    assert runs == [True, False, True]
    # promote keeps the same clock: its commits come minutes after a note's
    trace.write_text("")
    assert ws.promote().commit
    assert "maintenance run --auto" not in trace.read_text()
    os.utime(stamp, (stamp.stat().st_atime, stamp.stat().st_mtime - 7 * 3600))
    ws.note("four", kind="fact", key="four")
    trace.write_text("")
    ws.promote()  # the note ran it: not due again
    assert "maintenance run --auto" not in trace.read_text()
    os.utime(stamp, (stamp.stat().st_atime, stamp.stat().st_mtime - 7 * 3600))
    ws.note("five", kind="fact", key="five")
    os.utime(stamp, (stamp.stat().st_atime, stamp.stat().st_mtime - 7 * 3600))
    trace.write_text("")
    assert ws.promote().commit  # hours after the last check: promote's commit runs it
    assert "maintenance run --auto" in trace.read_text()
