"""Prose as agents write it, in seven languages: each workspace of
tests/fixtures/prose/ (see tests/prose.py for the checks) is initialised,
promoted, then pruned 35 days later, and every expected outcome is one test.
Items marked ``xfail`` in their expect.toml are what the classifier does not
reach yet."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.prose import CHECKS, XFAIL, Builder, Case, check, workspace_cases

CASES = workspace_cases()


def _params() -> Iterator[Any]:
    for case in CASES:
        for kind in CHECKS:
            for n, item in enumerate(case.items(kind)):
                word = str(item.get("a") or item.get("label") or item.get("note"))
                label = word if word.isascii() else ""
                yield pytest.param(
                    case,
                    kind,
                    item,
                    id=f"{case.name}-{kind}-{n}-{label}".rstrip("-"),
                    marks=[XFAIL] if item.get("xfail") else [],
                )


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> Builder:
    """A case's outcome, built once per module (a workspace of real git)."""
    return Builder(tmp_path_factory)


@pytest.mark.parametrize(("case", "kind", "item"), list(_params()))
def test_outcome(case: Case, kind: str, item: dict[str, Any], outcome: Builder) -> None:
    check(case, outcome(case), kind, item)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_promote_is_stable(case: Case, outcome: Builder) -> None:
    """A second pass changes nothing, and promote never rewrites a note."""
    out = outcome(case)
    assert out.second_commit is None
    assert out.notes_changed == []
