"""Polarity of a sentence, in each supported language (issue 14, item 5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.planning.polarity import polar_parts, polarity

PAIRS = [  # (for, against): same subject and object, opposite polarity
    ("Sam loves coffee", "Sam hates coffee now"),
    ("Sam prefers Ronaldo", "Sam no longer prefers Ronaldo."),
    ("Mira started running", "Mira stopped running"),
    ("We use Postgres", "We do not use Postgres anymore"),
    ("Sam likes the night shift", "Sam doesn't like the night shift"),
    ("Sam mag Kaffee", "Sam mag Kaffee nicht mehr"),
    ("Sam trinkt Kaffee", "Sam trinkt keinen Kaffee mehr"),
    ("Sam aime le café", "Sam n'aime plus le café"),
    ("Sam adore le café", "Sam déteste le café"),
    ("Sam toma café", "Sam ya no toma café"),
    ("Sam ama el café", "Sam odia el café"),
    ("Сэм любит кофе", "Сэм больше не любит кофе"),
    ("Сэм любит кофе", "Сэм ненавидит кофе"),
    ("山姆喜欢咖啡", "山姆不再喜欢咖啡"),
    ("山姆喜欢咖啡", "山姆现在讨厌咖啡"),
    ("サムはコーヒーが好きです", "サムはもうコーヒーが好きではない"),
    ("サムはコーヒーが好き", "サムはコーヒーが嫌いです"),
    # a habit begun, then given up: the linking word is not part of the object
    ("Jonas hat angefangen zu joggen", "Jonas hat aufgehört zu joggen"),
    ("Camille a commencé à fumer", "Camille a arrêté de fumer"),
    ("Lucía empezó a fumar", "Lucía dejó de fumar"),
]


@pytest.mark.parametrize(("pro", "con"), PAIRS)
def test_opposites_share_subject_and_object(pro, con):
    a, b = polarity(pro), polarity(con)
    assert a is not None and b is not None
    assert a[:2] == b[:2]
    assert (a[2], b[2]) == (1, -1)


@pytest.mark.parametrize(
    "text",
    ["The staging host is box3", "deploy on fridays", "", "Sam", "Postgres 16"],
)
def test_a_sentence_for_or_against_nothing(text):
    assert polarity(text) is None


def test_time_words_are_not_part_of_the_subject():
    assert polarity("Sam now loves tea") == ("sam", "tea", 1)


def test_different_objects_are_no_opposites():
    a, b = polarity("Sam loves coffee"), polarity("Sam hates tea")
    assert a and b and a[:2] != b[:2]


@given(st.text(max_size=400))
def test_polarity_never_fails(text):
    found = polarity(text)
    assert found is None or found[2] in (1, -1)


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("Sam hates coffee now.", ("Sam", "coffee", -1)),
        ("**Mira** prefers vim keybindings in VS Code", ("Mira", "vim keybindings in VS Code", 1)),
        ("山姆不再喜欢咖啡", ("山姆", "咖啡", -1)),
    ],
)  # fmt: skip
def test_polar_parts_keep_the_words_as_written(text, parts):
    """The parts of a key ("Sam / coffee") keep case and script; time words
    and markup go."""
    assert polar_parts(text) == parts


@given(st.text(max_size=80))
def test_polar_parts_agree_with_polarity(text):
    parts, plain = polar_parts(text), polarity(text)
    assert (parts is None) == (plain is None)
    if parts is not None and plain is not None:
        assert parts[2] == plain[2]
