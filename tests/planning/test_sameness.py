"""When two values are the same: a reversed value is a new one."""

from __future__ import annotations

from pathlib import Path

import pytest

from gardener import Workspace
from tests.helpers import values, write


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    """A new workspace whose clock reads 2026-03-01 18:00."""
    workspace, _ = Workspace.init(tmp_path / "ws", now_override="2026-03-01T18:00")
    return workspace


def test_a_reversed_value_is_not_a_duplicate(ws: Workspace):
    write(ws, "2026-02-01.md", "- pref: **indentation**: tabs rather than spaces\n")
    write(ws, "2026-02-20.md", "- pref: **indentation**: spaces rather than tabs\n")
    ws.promote()
    assert values(ws, "indentation") == ["spaces rather than tabs"]
