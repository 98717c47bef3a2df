"""When two values are the same: a reversed value is a new one; the quick
"surely apart" bound never contradicts the fuzzy ratio."""

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


SIMILAR_PAIRS = [
    ("tabs rather than spaces", "spaces rather than tabs"),
    ("one pr per feature branch", "one pr per feature branches"),
    ("deploys go out on tuesdays", "deploys go out on thursdays"),
    ("the staging host is in frankfurt", "prefers dark mode everywhere"),
    ("aaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaab"),
]


def test_surely_apart_never_contradicts_the_fuzzy_ratio(monkeypatch):
    import sys

    from rapidfuzz import fuzz

    from gardener.planning.sameness import NEAR_DUPLICATE, surely_apart

    # as in a pass that has not imported rapidfuzz: the shared-letters bound too
    monkeypatch.delitem(sys.modules, "rapidfuzz.fuzz")
    apart = [surely_apart(a, b) for a, b in SIMILAR_PAIRS]
    assert apart[3] and not apart[1]
    for (a, b), surely in zip(SIMILAR_PAIRS, apart, strict=True):
        if surely:
            assert fuzz.ratio(a, b) < NEAR_DUPLICATE
