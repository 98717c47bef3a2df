"""The files tests' fixture: a bare workspace folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace folder: the only git thing this module needs is a .git folder."""
    (tmp_path / "ws" / ".git").mkdir(parents=True)
    return tmp_path / "ws"
