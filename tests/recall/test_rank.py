"""Recall: BM25 then recency, exact keys, and as-of at the boundaries (pure)."""

from __future__ import annotations

from datetime import datetime

import pytest

from gardener.model.facts import Fact
from gardener.recall.hits import pick
from gardener.recall.index import open_index
from gardener.recall.rank import (
    Doc,
    as_of,
    entry_hit,
    fact_docs,
    lookup,
    rank,
    valid_at,
)
from gardener.recall.terms import match_expression
from tests.helpers import note


def fact(value: str, since: str, until: str | None = None, **attrs: str) -> Fact:
    extra = {"since": since, **({"until": until} if until else {}), **attrs}
    return Fact(
        value=value,
        key="Tier 2 renewal / list price",
        id=f"m{value[1]}",
        section="Superseded" if until else "Facts",
        attrs=extra,
        struck=bool(until),
    )


TIMELINE = [
    fact("$4,200", "2026-01-12", "2026-03-03T09:30"),
    fact("$3,600", "2026-03-03T09:30"),
]


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        ("2026-01-11", []),
        ("2026-01-12", ["$4,200"]),  # since is inclusive
        ("2026-02-09", ["$4,200"]),
        (
            "2026-03-03",
            ["$3,600", "$4,200"],
        ),  # a bare date is the whole day: both held that day
        ("2026-03-03T09:29", ["$4,200"]),
        ("2026-03-03T09:30", ["$3,600"]),  # until is exclusive
        ("2026-12-31", ["$3,600"]),
    ],
)
def test_as_of_boundaries(when, expected):
    assert [h.value for h in as_of(when, TIMELINE)] == expected


def test_a_day_with_a_change_says_which_value_held_at_its_end():
    # both were labelled [current] for a day the value changed on (a new user)
    hits = as_of("2026-03-03", TIMELINE)
    assert [(h.value, h.status) for h in hits] == [
        ("$3,600", "current"),
        ("$4,200", "superseded"),
    ]
    assert [h.status for h in as_of("2026-03-03T09:29", TIMELINE)] == ["current"]
    ended = fact("$4,200", "2026-01-12", "2026-03-03T09:30", reason="ended")
    assert [h.status for h in as_of("2026-03-03", [ended])] == ["ended"]
    # a value that held through the whole day (until the next midnight) is current
    through = fact("$4,200", "2026-01-12", "2026-03-04")
    assert [h.status for h in as_of("2026-03-03", [through])] == ["current"]


def test_corrected_values_never_answer_as_of():
    wrong = fact("$9,999", "2026-01-12", "2026-01-20", reason="corrected")
    assert not valid_at(wrong, datetime(2026, 1, 15), datetime(2026, 1, 15))
    assert [h.value for h in as_of("2026-01-15", [wrong, *TIMELINE])] == ["$4,200"]


def test_expires_bounds_validity():
    temp = Fact(
        value="on",
        key="banner",
        id="mb",
        section="Facts",
        attrs={"since": "2026-05-12", "expires": "2026-05-20"},
    )
    assert [h.value for h in as_of("2026-05-19", [temp])] == ["on"]
    assert as_of("2026-05-20", [temp]) == []
    assert lookup("BANNER", [temp], datetime(2026, 5, 19)) != []
    assert lookup("banner", [temp], datetime(2026, 5, 20)) == []


def test_as_of_rejects_a_bad_date():
    with pytest.raises(ValueError):
        as_of("last tuesday", TIMELINE)


def recall(query, facts, entries, today):
    """What a plain recall answers from these facts and note entries (an index in memory)."""
    with open_index(None, "test") as index:
        index._add("MEMORY.md", "-", fact_docs(facts, "MEMORY.md"))
        notes = [Doc(entry_hit(e), day=e.day.isoformat()) for e in entries]
        index._add("memory/notes.md", "-", notes)
        found = index.search(match_expression(query), memory_file="MEMORY.md")
        return pick(found, today, index.pending("MEMORY.md", None), 10)


def test_plain_recall_excludes_superseded_and_ranks_by_bm25_then_recency():
    notes = [
        note(
            "2026-02-01",
            "- deploy needs two approvals\n- staging server is called box7\n",
        ),
        note("2026-02-03", "- deploy staging fix is merged\n"),
    ]
    entries = [e for n in notes for e in n.entries]
    hits = recall("deploy staging", TIMELINE, entries, "2026-03-10")
    assert [h.text for h in hits] == [
        "deploy staging fix is merged",
        "deploy needs two approvals",
        "staging server is called box7",
    ]
    assert {h.status for h in hits} == {"note"}
    prices = recall("list price", TIMELINE, entries, "2026-03-10")
    assert [(h.value, h.status) for h in prices] == [("$3,600", "current")]


def test_rank_is_safe_with_fts_syntax_and_unicode():
    hits = rank('"AND OR NOT* (x', [])
    assert hits == []
    notes = note("2026-02-01", "- Café au lait préféré\n- 東京 office\n")
    pool = [entry_hit(e) for e in notes.entries]
    assert [h.text for h in rank("cafe", pool)] == ["Café au lait préféré"]
    assert rank("", pool) == []


def test_a_scope_written_as_words_finds_its_key():
    # "tier 2 renewal list price" asks for ``Tier 2 renewal / list price``
    hits = lookup("tier 2 renewal list price", TIMELINE, datetime(2026, 4, 1))
    assert [h.value for h in hits] == ["$3,600"]
    assert lookup("tier 2 list price", TIMELINE, datetime(2026, 4, 1)) == []
