"""Patterns that can backtrack exponentially are found before they run
(``gardener.formats.backtrack``): rules.md's never_store and allow patterns
run on every line agents write."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.formats.backtrack import risky

RISKY = [
    r"(a+)+$",
    r"(\w+\s?)+$",
    r"(\d{1,3})+x",
    r"(a*)*b",
    r"(a|aa)+",
    r"((ab)*)+c",
    r"(?:\S+\s*)+$",
    r"^(\w+)*$",
    r"(x+x+)+y",
    r"(.*a){12}",  # bounded, but n to the 12th
    r"(\w+\s?){5}$",
    r"(?i)(?:[a-z]+[A-Z]?)+!",
]
SAFE = [
    r"\bProject Nightingale\b",
    r"(?:[\w-]+\.)+\w+",
    r"[\w.]+@(?:[\w-]+\.)+\w+",
    r"(?:\d{3}-)+\d{4}",
    r"(?:\d{1,3}\.){3}\d{1,3}",
    r"(?:ab)+",
    r"(?:cat|car)+",
    r"(?:yes|no)+",
    r"(?:a|ab)+c",
    r"AKIA[0-9A-Z]{16}",
    r"(?i)codename\s*[:=]\s*\w+",
    r"(?:[a-z]+ )+end",
    r"\b(?:sk|pk)_(?:live|test)_[0-9a-zA-Z]{24,}",
    r"(?:(?=x)\w)+",
    r"(?>a+)+b",  # atomic: no backtracking into it
    r"(?:a++)+b",  # possessive
]


@pytest.mark.parametrize("pattern", RISKY)
def test_a_repeat_inside_a_repeat_that_matches_alike_is_risky(pattern):
    assert risky(pattern)


@pytest.mark.parametrize("pattern", SAFE)
def test_patterns_people_write_for_secrets_are_not_risky(pattern):
    assert risky(pattern) is None


def test_a_pattern_that_does_not_parse_is_a_re_error():
    with pytest.raises(re.error):
        risky("(unclosed")


_PIECES = st.sampled_from(
    ["a", "b", r"\w", r"\s", r"\d", ".", "[a-c]", "[^x]", "+", "*", "?", "{1,3}",
     "{2}", "(", ")", "(?:", "|", "$", "^", r"\b", "x"]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_any_pattern_either_parses_and_gets_an_answer_or_is_a_re_error(pattern):
    try:
        re.compile(pattern)
    except re.error:
        with pytest.raises(re.error):
            risky(pattern)
        return
    found = risky(pattern)
    assert found is None or found == pattern[:57] + "..." or found == pattern
