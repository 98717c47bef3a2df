"""Restatements of a current key (gardener.planning.restate): which current
fact a sentence gives a new value, and which value."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.lexicon.words import lexicon
from gardener.model.facts import Fact, normalize_key
from gardener.planning.restate import (
    KeyIndex,
    LooseIndex,
    apart,
    meet,
    restate,
    restate_unkeyed,
)

WORDS = lexicon()
FACTS = [
    Fact("100 requests/min", "Rate limit", "m1", "Facts", {"since": "2026-05-04"}),
    Fact("10 Sekunden", "Einstellungen / Webhook-Timeout", "m2", "Facts", {"since": "2026-05-04"}),
    Fact("8080", "Port de l'API", "m3", "Facts", {"since": "2026-05-04"}),
    Fact("MariaDB 10.11", "Datenbank", "m4", "Facts", {"since": "2026-05-04"}),
    Fact("周一上午10点", "周会时间", "m5", "Facts", {"since": "2026-05-04"}),
    Fact("Docker", "Container runtime", "m6", "Facts", {"since": "2026-05-04"}),
    Fact("seamless sine overlay, period=4s", "Pond ripples", "m7", "Facts", {"since": "2026-05-04"}),
]  # fmt: skip
NAMES = {"datenbank": ("database", "db", "datenbank")}


def _restate(text: str, given_value: str | None = None):
    index = KeyIndex(NAMES)
    index.grow({normalize_key(f.key): [n] for n, f in enumerate(FACTS) if f.key})
    by_key = {normalize_key(f.key): f for f in FACTS if f.key}
    return restate(text, index, by_key.get, WORDS, given_value)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("bumped the rate limit to 250 requests/min after the call", "Rate limit", "250 requests/min"),
        ("Webhook-Timeout auf 25 Sekunden hochgesetzt, zu langsam", "Einstellungen / Webhook-Timeout", "25 Sekunden"),
        ("DB auf PostgreSQL umgezogen, MariaDB nur noch read-only", "Datenbank", "PostgreSQL"),
        ("周会改到周四下午2点，方便大家", "周会时间", "周四下午2点"),
    ],
)  # fmt: skip
def test_a_sentence_naming_a_key_and_a_change_restates_it(text, key, value):
    found = _restate(text)
    assert found is not None
    assert (found.fact.key, found.value) == (key, value)


@pytest.mark.parametrize(
    "text",
    [
        "should we raise the rate limit to 500?",  # a question
        "maybe bump the rate limit to 500 later",  # a hedge
        "pond moved to foreground, shaman pushed back",  # half a key, no quantity
        "Render: static → animation → static = one loop",  # a pipeline
        "moved the rate limit docs to the wiki",  # the docs moved
        "upgraded the rate limit library to 2.1",
        "the rate limit was raised to 200 requests/min for the partner API only",
        "back in 2019 we raised the rate limit to 50 requests/min",
        "the rate limit page was redesigned by Ana last week, and after that "
        "a very long paragraph of a log goes on and on about other things "
        "that happened during the day, none of which changes anything, until "
        "at the very end someone mentions it is now fine to ship on Fridays",
    ],
)
def test_no_restatement(text):
    assert _restate(text) is None


def test_a_key_of_another_thing_of_the_same_head_is_apart():
    assert apart("JS runtime", "Container runtime")
    assert not apart("registry", "Container registry")
    assert not apart("team VPN", "VPN")


def test_words_meet_by_inflection_not_by_a_short_prefix():
    assert meet("poll", "polling") and meet("updates", "updated")
    assert not meet("work", "workspace")


def test_an_unkeyed_fact_given_a_new_quantity():
    fact = Fact(
        "Dev server runs on port 5173", None, "m9", "Facts", {"since": "2026-05-04"}
    )
    index = LooseIndex()
    found = restate_unkeyed("changed the dev port to 3000 so it", [fact], index, WORDS)
    assert found is not None and found.value == "changed the dev port to 3000 so it"
    assert restate_unkeyed("the dev port docs were fixed", [fact], index, WORDS) is None


@given(st.text(max_size=300))
def test_restate_never_raises(text):
    _restate(text)
    restate_unkeyed(text, FACTS, LooseIndex(), WORDS)


def test_marks_of_change_is_the_regex_of_its_tables_whatever_came_before():
    # kept by the tables' identity: another lexicon's tables give their own
    from dataclasses import replace

    from gardener.lexicon.words import lexicon
    from gardener.planning.restate import _marks, marks_of_change

    words = lexicon()
    other = replace(words, change_words=("jetzt",), change_verbs=("umgestellt auf",))
    for w in (words, other, words, other):
        want = _marks((*w.change_verbs, *w.change_words))
        assert marks_of_change(w).pattern == want.pattern


@given(
    st.lists(
        st.tuples(
            st.one_of(
                st.sampled_from(
                    [
                        "rate limit",
                        "datenbank",
                        "周会时间",
                        "pricing / pro plan",
                        "run.py",
                    ]
                ),
                st.text(max_size=12),
            ),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_a_key_index_grown_from_the_key_list_is_the_one_grown_from_the_slots(steps):
    # ``Reconciliation.slot_keys`` read from where the last grow stopped,
    # against the slots dict walked with ``islice``
    slots: dict[str, list[int]] = {}
    order: list[str] = []
    by_list, by_dict = KeyIndex(NAMES), KeyIndex(NAMES)
    for at, (key, grow) in enumerate(steps):
        nk = normalize_key(key)
        if nk not in slots:
            order.append(nk)
        slots.setdefault(nk, []).append(at)
        if grow:
            by_list.grow(order)
            by_dict.grow(slots)
    by_list.grow(order)
    by_dict.grow(slots)
    for name in ("aliases", "by_stem", "stems", "ends", "cjk", "known"):
        assert getattr(by_list, name) == getattr(by_dict, name), name
