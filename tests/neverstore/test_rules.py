"""The rule table on the corpus: secret shapes are refused, ordinary notes are not.

The cases are data (``data/*.tsv``, see its README.md) plus a few built in
``corpus``; one parametrized test reads each shape.
"""

from __future__ import annotations

import base64

import pytest

from gardener.neverstore.redact import find, redact
from tests.neverstore.corpus import BENIGN, BUILT_SPANS, REFUSED, load


def test_suites_are_big_enough() -> None:
    assert len(REFUSED) >= 120
    assert len(BENIGN) >= 120


@pytest.mark.parametrize(("text", "rule"), REFUSED)
def test_refused(text: str, rule: str) -> None:
    found = find(text)
    assert [f.rule for f in found] == [rule], found
    clean, found = redact(text)
    assert f"[REDACTED:{rule}]" in clean
    for f in found:
        assert text[f.start : f.end] not in clean
    assert redact(clean) == (clean, [])


@pytest.mark.parametrize("text", BENIGN)
def test_benign(text: str) -> None:
    found = find(text)
    assert found == [], [(f.rule, text[f.start : f.end]) for f in found]


@pytest.mark.parametrize(
    ("text", "value"), load("spans", "text", "value") + BUILT_SPANS
)
def test_span_covers_the_value_not_the_label(text: str, value: str) -> None:
    (f,) = find(text)
    assert text[f.start : f.end] == value


@pytest.mark.parametrize(("text", "clean"), load("redacted", "text", "clean"))
def test_redacted_exactly(text: str, clean: str) -> None:
    assert redact(text)[0] == clean


@pytest.mark.parametrize(("text", "secret"), load("hidden", "text", "secret"))
def test_secret_is_hidden(text: str, secret: str) -> None:
    clean, found = redact(text)
    assert found and secret not in clean


@pytest.mark.parametrize(("text", "kept"), load("kept", "text", "kept"))
def test_redaction_drops_no_word_of_a_sentence_after_a_label(
    text: str, kept: str
) -> None:
    assert kept in redact(text)[0]


@pytest.mark.parametrize(("text", "refused"), load("verdicts", "text", "refused"))
def test_verdict(text: str, refused: str) -> None:
    assert refused in ("yes", "no")
    assert bool(find(text)) is (refused == "yes")


def test_specific_rule_wins_over_label() -> None:
    text = "token: " + "ghp_" + "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"
    assert [f.rule for f in find(text)] == ["github-token"]


def test_base64_of_benign_text_is_not_a_base64_secret() -> None:
    run = base64.b64encode(b"meeting notes, nothing to see").decode()
    assert all(f.rule != "base64-secret" for f in find(run))


def test_hyphenated_pass_in_prose_is_no_label() -> None:
    """Regression (a real agent's note): "all-pass = 0.676" was read as a password."""
    assert find("Wilson CI at n=8 all-pass = 0.676 < ESTABLISHED.") == []
    assert [f.rule for f in find("DB_PASS=Hunter2fake99")] == ["password"]
