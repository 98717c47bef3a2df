"""Golden cases: daily notes (and an optional MEMORY.md) in, the expected MEMORY.md out.

Each folder under tests/golden/ holds ``notes/*.md``, an optional ``memory.md``
(the MEMORY.md before the pass) and ``expected.md``. Set UPDATE_GOLDEN=1 to
rewrite ``expected.md`` after checking the difference by eye.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gardener import Workspace

CASES = sorted(
    p for p in (Path(__file__).parents[1] / "golden").iterdir() if p.is_dir()
)
NOW = "2026-06-01T12:00"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path, tmp_path: Path):
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    if (case / "memory.md").exists():
        shutil.copyfile(case / "memory.md", root / "MEMORY.md")
    for note in sorted((case / "notes").glob("*.md")):
        shutil.copyfile(note, root / "memory" / note.name)
    before = {p.name: p.read_bytes() for p in (root / "memory").iterdir()}
    ws, _ = Workspace.init(root, now_override=NOW)
    ws.promote()
    again = ws.promote()
    assert again.commit is None, "a second pass must change nothing"
    actual = (root / "MEMORY.md").read_text(encoding="utf-8")
    expected_path = case / "expected.md"
    if os.environ.get("UPDATE_GOLDEN") or not expected_path.exists():
        expected_path.write_text(actual, encoding="utf-8")
    assert actual == expected_path.read_text(encoding="utf-8")
    assert {p.name: p.read_bytes() for p in (root / "memory").iterdir()} == before
    if (case / "memory.md").exists():
        head = (
            (case / "memory.md")
            .read_text(encoding="utf-8")
            .split("<!-- gardener:begin")[0]
        )
        assert actual.startswith(head)
