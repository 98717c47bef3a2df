"""Removals end a key's value (issue 14, item 4): the decision table's "end"
row, over parsed notes (pure), and the helpers that say what a removal names."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.formats.memoryfile import parse_memory
from gardener.model.facts import Entry, Fact
from gardener.planning.classify import Classified, classify
from gardener.planning.ending import names, names_any, removal_value
from gardener.planning.promote import PromotionPlan
from gardener.planning.reconcile import Reconciliation
from gardener.store.settings import default_config
from tests.helpers import current, note, promote

CACHE = "- 10:15 decision: **cache**: Redis\n- 10:20 decision: **database**: Postgres\n"


def _of(plan: PromotionPlan, key: str) -> list[Fact]:
    return [f for f in plan.facts if f.key == key]


def _again(plan: PromotionPlan, notes, now: str = "2026-12-01T12:00") -> PromotionPlan:
    return promote(notes, parse_memory(plan.text), now=now, ledger=plan.ledger)


@pytest.mark.parametrize(
    ("value", "ends"),
    [
        ("(none)", ""),
        ("(None)", ""),
        ("( removed )", ""),
        ("（none）", ""),  # full-width parentheses
        ("~~Redis~~", "Redis"),
        ("Redis", None),
        ("none", None),
        ("~~~~", None),
    ],
)
def test_the_explicit_removal(value, ends):
    assert removal_value(value) == ends


def test_an_explicit_removal_classifies_as_an_end():
    entry = note("2026-01-20", "- **cache**: (none)\n").entries[0]
    c = classify(entry, default_config())
    assert (c.ends, c.key, c.value, c.durable, c.undecided) == (
        True, "cache", "", True, False
    )  # fmt: skip
    struck = note("2026-01-20", "- decision: **cache**: ~~Redis~~\n").entries[0]
    c = classify(struck, default_config())
    assert (c.ends, c.kind, c.value, c.rule) == (
        True, "decision", "Redis", "explicit removal"
    )  # fmt: skip


@pytest.mark.parametrize(
    ("removal", "value", "named"),
    [
        ("Redis", "Redis", True),
        ("the Redis cache", "Redis", True),
        ("Redis", "Redis 7", True),
        ("We decided to drop the Redis cache for v2", "Redis", True),
        ("Memcached", "Redis", False),
        ("Redis", "Redis Cluster on box3", True),
        ("v1.2", "v12", False),
    ],
)
def test_what_a_removal_names(removal, value, named):
    assert names(removal, value) is named


@pytest.mark.parametrize(
    ("removal", "anything"),
    [("", True), ("the cache", True), ("(none)", True), ("Redis", False)],
)
def test_a_removal_of_the_key_alone_names_any_value(removal, anything):
    assert names_any(removal, "cache") is anything


def test_a_removal_ends_the_current_value_at_its_time():
    plan = promote(
        [note("2026-01-12", CACHE), note("2026-01-20", "- 09:00 **cache**: (none)\n")]
    )
    assert current(plan, "cache") == []
    assert current(plan, "database") == ["Postgres"]
    (redis,) = _of(plan, "cache")
    assert redis.superseded and redis.struck
    assert (redis.since, redis.until, redis.get("reason")) == (
        "2026-01-12T10:15", "2026-01-20T09:00", "ended"
    )  # fmt: skip
    assert redis.get("ended-by") == "memory/2026-01-20.md:1"
    assert redis.get("kind") == "decision"
    assert [(d.action, d.key, d.value) for d in plan.decisions][-1] == (
        "end", "cache", "Redis"
    )  # fmt: skip
    assert plan.keys("end") == ["cache"]


def test_a_second_pass_changes_nothing():
    notes = [
        note("2026-01-12", CACHE),
        note("2026-01-20", "- 09:00 **cache**: (none)\n"),
    ]
    plan = promote(notes)
    again = _again(plan, notes)
    assert not again.changed and again.decisions == ()


def test_a_pass_killed_before_its_ledger_was_written_finds_its_own_end():
    notes = [
        note("2026-01-12", CACHE),
        note("2026-01-20", "- 09:00 **cache**: (none)\n"),
    ]
    plan = promote(notes)
    again = promote(notes, parse_memory(plan.text))  # MEMORY.md written, no ledger
    assert not again.changed
    assert [d.reason for d in again.decisions if d.key == "cache"][-1] == (
        "already on the timeline"
    )


def test_a_removal_with_nothing_to_end_is_rejected():
    plan = promote([note("2026-01-20", "- **cache**: (none)\n")])
    (d,) = plan.decisions
    assert (d.action, d.reason) == (
        "reject", "nothing to end: no value of the key it names holds then"
    )  # fmt: skip
    assert plan.facts == ()


def test_a_removal_before_the_first_value_ends_nothing():
    plan = promote(
        [note("2026-01-10", "- **cache**: (none)\n"), note("2026-01-12", CACHE)]
    )
    assert current(plan, "cache") == ["Redis"]


def test_a_removal_that_names_another_value_ends_nothing():
    plan = promote(
        [note("2026-01-12", CACHE), note("2026-01-20", "- **cache**: ~~Memcached~~\n")]
    )
    assert current(plan, "cache") == ["Redis"]
    assert plan.decisions[-1].action == "reject"


def test_a_removal_that_names_the_value_ends_it():
    plan = promote(
        [note("2026-01-12", CACHE), note("2026-01-20", "- **Cache**: ~~redis~~\n")]
    )
    assert current(plan, "cache") == []


def test_a_later_value_starts_a_new_timeline_entry():
    plan = promote(
        [
            note("2026-01-12", CACHE),
            note("2026-01-20", "- 09:00 **cache**: (none)\n"),
            note("2026-02-01", "- decision: **cache**: Memcached\n"),
        ]
    )
    assert current(plan, "cache") == ["Memcached"]
    memcached = next(f for f in _of(plan, "cache") if f.value == "Memcached")
    assert memcached.get("supersedes") is None
    assert plan.decisions[-1].action == "add"


def test_the_same_value_again_after_a_removal_is_current_again():
    plan = promote(
        [
            note("2026-01-12", CACHE),
            note("2026-01-20", "- 09:00 **cache**: (none)\n"),
            note("2026-02-01", "- decision: **cache**: Redis\n"),
        ]
    )
    assert current(plan, "cache") == ["Redis"]


def test_a_back_filled_removal_ends_the_earlier_value_and_keeps_the_current():
    first = [
        note("2026-01-12", CACHE),
        note("2026-02-01", "- 08:00 decision: **cache**: Memcached\n"),
    ]
    plan = promote(first)
    notes = [*first, note("2026-01-20", "- 09:00 **cache**: (none)\n")]
    plan = _again(plan, notes)
    assert current(plan, "cache") == ["Memcached"]
    redis = next(f for f in _of(plan, "cache") if f.value == "Redis")
    assert redis.until == "2026-01-20T09:00"
    assert redis.get("reason") == "ended"
    assert redis.get("superseded-by") is None
    memcached = next(f for f in _of(plan, "cache") if f.value == "Memcached")
    assert memcached.get("supersedes") is None


def test_a_late_value_inside_an_ended_time_ends_with_it():
    first = [
        note("2026-01-12", CACHE),
        note("2026-01-20", "- 09:00 **cache**: (none)\n"),
    ]
    plan = promote(first)
    late = note("2026-01-15", "- decision: **cache**: Memcached\n")
    plan = _again(plan, [*first, late])
    assert current(plan, "cache") == []
    by_value = {f.value: f for f in _of(plan, "cache")}
    assert by_value["Redis"].until == "2026-01-15"
    assert by_value["Redis"].get("reason") is None
    assert by_value["Memcached"].until == "2026-01-20T09:00"
    assert by_value["Memcached"].get("reason") == "ended"
    assert by_value["Memcached"].get("ended-by") == "memory/2026-01-20.md:1"


def test_a_late_value_after_the_end_and_before_the_next_stays_history():
    first = [
        note("2026-01-12", CACHE),
        note("2026-01-20", "- 09:00 **cache**: (none)\n"),
        note("2026-02-01", "- decision: **cache**: Valkey\n"),
    ]
    plan = promote(first)
    plan = _again(
        plan, [*first, note("2026-01-25", "- decision: **cache**: Memcached\n")]
    )
    assert current(plan, "cache") == ["Valkey"]
    by_value = {f.value: f for f in _of(plan, "cache")}
    assert by_value["Redis"].until == "2026-01-20T09:00"  # still ended then
    assert by_value["Memcached"].until == "2026-02-01"


def test_a_removal_ends_every_value_of_a_multi_valued_key():
    config = default_config()
    from dataclasses import replace

    config = replace(config, multi_valued=frozenset({"language"}))
    body = "- fact: **Sam / language**: Dutch\n- fact: **Sam / language**: Welsh\n"
    plan = promote(
        [
            note("2026-01-12", body),
            note("2026-01-20", "- **Sam / language**: ~~Welsh~~\n"),
        ],
        config=config,
    )
    assert current(plan, "Sam / language") == ["Dutch"]
    plan = promote(
        [note("2026-01-12", body), note("2026-01-20", "- **sam/language**: (none)\n")],
        config=config,
    )
    assert current(plan, "Sam / language") == []


def test_a_removal_keyed_another_way_ends_the_same_key():
    plan = promote(
        [
            note("2026-01-12", "- fact: **The Great Movies / author**: Ann Lee\n"),
            note("2026-01-20", "- **great movies ／ Author**: (none)\n"),
        ]
    )
    assert current(plan, "Great Movies / author") == []


def test_a_correction_after_a_removal_keeps_the_end():
    plan = promote(
        [
            note("2026-01-12", CACHE),
            note("2026-01-20", "- 09:00 **cache**: (none)\n"),
            note("2026-01-22", "- correction: **cache**: Memcached\n"),
        ]
    )
    assert current(plan, "cache") == []
    right = next(f for f in _of(plan, "cache") if f.value == "Memcached")
    assert (right.since, right.until, right.get("reason")) == (
        "2026-01-12T10:15", "2026-01-20T09:00", "ended"
    )  # fmt: skip


def _entry(key: str | None) -> Entry:
    return Entry("memory/2026-01-20.md", 3, date(2026, 1, 20), "x", "x", key=key)


@given(st.sampled_from(["Redis", "the Redis cache", "", "Memcached", "redis!"]))
def test_a_classified_removal_from_any_tier_ends_only_what_it_names(value):
    """The lead's classifier sets ``ends`` on prose: the table takes it as is."""
    memory = parse_memory(promote([note("2026-01-12", CACHE)]).text)
    work = Reconciliation(memory, default_config(), "2026-12-01")
    c = Classified("decision", True, False, "cache", value, "pattern", "removal", True)
    work.reconcile(_entry("cache"), c, "2026-01-20T09:00")
    held = [f.value for f in work.facts if f.key == "cache" and not f.superseded]
    assert held == ([] if value != "Memcached" else ["Redis"])
    assert all(f.key != "cache" or f.value == "Redis" for f in work.facts)


def test_an_unkeyed_removal_is_rejected():
    memory = parse_memory(promote([note("2026-01-12", CACHE)]).text)
    work = Reconciliation(memory, default_config(), "2026-12-01")
    c = Classified("decision", True, False, None, "Redis", "none", "removal", True)
    work.reconcile(_entry(None), c, "2026-01-20T09:00")
    assert work.decisions[-1].action == "reject"
    assert [f for f in work.facts if not f.superseded and f.value == "Redis"]


@given(st.text(max_size=40), st.text(st.characters(categories=["L", "N"]), min_size=1))
def test_removal_value_reads_any_text(value, word):
    ended = removal_value(value)
    assert ended is None or ended == "" or ended in value
    assert removal_value(f"~~{word}~~") == word
