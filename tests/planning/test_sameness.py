"""When two values are the same: a reversed value is a new one."""

from __future__ import annotations

import pytest

from gardener import Workspace
from tests.helpers import values, write


@pytest.mark.now("2026-03-01T18:00")
def test_a_reversed_value_is_not_a_duplicate(ws: Workspace):
    write(ws, "2026-02-01.md", "- pref: **indentation**: tabs rather than spaces\n")
    write(ws, "2026-02-20.md", "- pref: **indentation**: spaces rather than tabs\n")
    ws.promote()
    assert values(ws, "indentation") == ["spaces rather than tabs"]
