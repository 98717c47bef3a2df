"""A value keeps an abbreviation's stop and loses a sentence's (issue 14, item 5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.planning.classify import match_pattern
from gardener.planning.values import strip_stop
from gardener.store.settings import default_config


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("SQLite.", "SQLite"),
        ("SQLite", "SQLite"),
        ("SQLite. ", "SQLite"),
        ("v1.2.", "v1.2"),
        ("server B.", "server B"),
        ("Vim.", "Vim"),
        ("no.", "no"),
        ("and so on...", "and so on"),
        ("Apple Inc.", "Apple Inc."),
        ("Acme Ltd.", "Acme Ltd."),
        ("Globex Corp.", "Globex Corp."),
        ("Warner Bros.", "Warner Bros."),
        ("Martin Luther King Jr.", "Martin Luther King Jr."),
        ("12 Main St.", "12 Main St."),
        ("Washington, D.C.", "Washington, D.C."),
        ("the U.S.", "the U.S."),
        ("9 a.m.", "9 a.m."),
        ("Hauptstr.", "Hauptstr"),  # a compound: not the word itself
        ("Goethe Str.", "Goethe Str."),
        ("и т.д.", "и т.д."),
    ],
)
def test_strip_stop(value, kept):
    assert strip_stop(value) == kept


@given(st.text(max_size=30))
def test_strip_stop_is_idempotent_and_only_shortens(value):
    once = strip_stop(value)
    assert strip_stop(once) == once
    assert value.startswith(once)


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("Sam works at Apple Inc.", ("Sam / employer", "Apple Inc.")),
        ("Sam works at Apple.", ("Sam / employer", "Apple")),
        ("Dana works for Acme Corp", ("Dana / employer", "Acme Corp")),
        ("Sam works at Globex Ltd.!", ("Sam / employer", "Globex Ltd.")),
    ],
)
def test_a_pattern_value_keeps_an_abbreviation_stop(sentence, found):
    assert match_pattern(sentence, default_config()) == found
