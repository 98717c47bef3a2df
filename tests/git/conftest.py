"""The git tests' fixture: a new repository, no identity configured."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gardener.git.repo import Repo


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with Repo.init(tmp_path / "ws") as r:
        yield r
