"""The rule table reads as data: every row of a label table (a language's
labels, verbs, pair and answer words, door-code words) and every vendor prefix
of ``rules.TABLE`` has a refused case in tests/neverstore/data/ (or built in
``corpus``), so adding one is a line in the table and a line in the data."""

from __future__ import annotations

import re

import pytest

from gardener.neverstore import codes, doors, frames, labels, near
from gardener.neverstore.redact import find
from gardener.neverstore.rules import TABLE
from gardener.neverstore.tables import head, words_of
from tests.neverstore.corpus import REFUSED, load

_CASES = [t for t, _ in REFUSED] + [t for t, _ in load("spans", "text", "value")]
_TABLES = {
    "PASSWORD_LABELS": labels.PASSWORD_LABELS,
    "PIN_LABELS": labels.PIN_LABELS,
    "SECRET_LABELS": labels.SECRET_LABELS,
    "VERBS": labels.VERBS,
    "ADVERBS": labels.ADVERBS,
    "RESTARTS": labels.RESTARTS,
    "PAIR_WORDS": frames.PAIR_WORDS,
    "ANSWER_WORDS": frames.ANSWER_WORDS,
    "CODE_WORDS": doors.CODE_WORDS,
    "SET_BEFORE": tuple((lang, verbs) for lang, verbs, _ in frames.SET_BEFORE),
    "CODE_LISTS": codes.CODE_LISTS,
    "WIFI_KEYS": near.WIFI_KEYS,
    "LOCK_WORDS": near.LOCK_WORDS,
    "CODE_VERBS": near.CODE_VERBS,
    "COPULAS": near.COPULAS,
}
_ROWS = [
    pytest.param(row, id=f"{name}-{row[0]}-{i}")
    for name, table in _TABLES.items()
    for i, row in enumerate(table)
]


@pytest.mark.parametrize("row", _ROWS)
def test_every_table_row_has_a_refused_case(row: tuple[str, ...]) -> None:
    pattern = re.compile(f"(?i:{row[1]})")
    cases = [t for t in _CASES if pattern.search(t)]
    assert cases, f"no case in tests/neverstore/data/refused.tsv for {row}"
    assert any(find(t) for t in cases)


_PREFIXED = sorted(
    {(r.need, r.rule) for r in TABLE if r.need and r.pattern.startswith("(?a)")}
)


@pytest.mark.parametrize(("prefix", "rule"), _PREFIXED)
def test_every_vendor_prefix_has_a_refused_case(prefix: str, rule: str) -> None:
    refused = [t for t, r in REFUSED if r == rule and prefix in t]
    assert refused, f"no refused case of {rule} holding {prefix!r}"


def test_routing_words_come_from_the_rows() -> None:
    assert head("passwords?") == "password"
    assert head(r"mot[ \t]+de[ \t]+passe") == "mot"
    assert words_of((("fi", "salasana"),)) == "salasana"
    assert words_of((("ja", "パスワード"),)) == " | パスワード"
    with pytest.raises(ValueError):
        words_of((("tr", r"[şs]ifre"),))


def test_a_label_in_a_new_language_is_one_row() -> None:
    """A row added to a copy of the table is a label: the pattern and its routing
    words both come from it."""
    rows = (*labels.PASSWORD_LABELS, ("fi", "salasana"))
    assert "salasana" in words_of(rows).split()
