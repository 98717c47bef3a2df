"""What a labelled value may be: read after its label, no placeholder, a passphrase."""

from __future__ import annotations

import pytest

from gardener.neverstore.values import (
    counted,
    describes,
    passlike,
    phrase_at,
    plausible,
    value_at,
)


def test_a_value_is_read_bare_up_to_punctuation_or_inside_quotes() -> None:
    assert value_at("password: hunter2, ok", 10) == (10, 17, False)
    assert value_at('password: "s3cret pw" ok', 10) == (11, 20, True)
    assert value_at("password: ", 10) is None


@pytest.mark.parametrize(
    ("value", "family", "ok"),
    [
        ("hunter2", "password", True),
        ("see", "password", False),  # a word that says where it is
        ("${DB_PASSWORD}", "password", False),  # a reference
        ("****", "password", False),  # a mask
        ("4096", "secret", False),  # one class of characters
        ("12,345", "secret", False),  # a count
        ("0917", "pin", True),
        ("12", "pin", False),  # too short for a PIN
    ],
)
def test_a_placeholder_or_a_word_is_no_value(value: str, family: str, ok: bool) -> None:
    assert plausible(value, family, True, False) is ok


@pytest.mark.parametrize(
    ("value", "ok"),
    [("hunter2", True), ("sha256", False), ("JIRA-1234", False), ("bcrypt2", False)],
)
def test_the_shape_after_a_weak_label(value: str, ok: bool) -> None:
    assert passlike(value) is ok


def test_a_passphrase_runs_to_the_end_of_its_clause() -> None:
    text = "password: correct horse battery staple. Deploy"
    assert phrase_at(text, 10) == (10, 38)
    assert phrase_at("password: hunter2 for the nas", 10) is None


def test_counts_and_descriptions_are_no_values() -> None:
    assert counted("42") and counted("95%") and not counted("83729104")
    assert describes("expires every 90 days", 0)
    assert not describes("hunter2 for the nas", 0)
