"""The sentences issue 14 lists as failing, each in a small workspace of its
own (tests/fixtures/prose/cases.toml; the checks: tests/prose.py), promoted
through ``Workspace`` on real git. A case marked ``xfail`` there is what the
classifier does not reach yet."""

from __future__ import annotations

import pytest

from tests.prose import XFAIL, Builder, Case, check_all, sentence_cases

CASES = sentence_cases()


@pytest.fixture(scope="module")
def outcome(tmp_path_factory: pytest.TempPathFactory) -> Builder:
    return Builder(tmp_path_factory)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=c.name, marks=[XFAIL] if c.expect.get("xfail") else [])
        for c in CASES
    ],
)
def test_sentence(case: Case, outcome: Builder) -> None:
    check_all(case, outcome(case))
