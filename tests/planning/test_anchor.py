"""Anchoring a change by the value it leaves, and a topic's names across
languages (issue 14: "Paketmanager" and "package manager" are one key)."""

from __future__ import annotations

from gardener.lexicon.words import lexicon
from gardener.model.facts import Fact, normalize_key
from gardener.planning.anchor import aliased, anchored, by_subject
from gardener.planning.classify import Classified
from gardener.planning.keying import topic_names

NAMES = topic_names(("database", "package manager"), lexicon().topic_names)


def _current(*facts: Fact):
    by_key = {normalize_key(f.key): f for f in facts if f.key}
    return lambda key: by_key.get(normalize_key(key))


def _change(key: str | None, value: str, leaves: str | None = None) -> Classified:
    return Classified("decision", True, False, key, value, "topic", leaves=leaves)


def test_a_topic_key_takes_the_spelling_of_the_current_fact_in_another_language():
    pip = Fact("pip", "Paketmanager", "m1", "Facts", {"since": "2026-05-04"})
    moved = aliased(_change("package manager", "uv"), _current(pip), NAMES)
    assert moved.key == "Paketmanager"


def test_a_key_of_its_own_is_kept():
    pip = Fact("pip", "Paketmanager", "m1", "Facts", {"since": "2026-05-04"})
    both = _current(pip, Fact("uv", "package manager", "m2", "Facts", {}))
    assert aliased(_change("package manager", "poetry"), both, NAMES).key == (
        "package manager"
    )
    assert aliased(_change("staging host", "box3"), both, NAMES).key == "staging host"


def test_names_of_every_language_meet():
    assert NAMES[normalize_key("Datenbank")] == NAMES[normalize_key("数据库")]
    assert normalize_key("database") in NAMES[normalize_key("base de données")]


def test_anchor_needs_exactly_one_current_value():
    kimi = Fact("Kimi", "model", "m1", "Facts", {"since": "2026-05-04"})
    assert anchored(_change(None, "Ollama", leaves="Kimi"), [kimi]).key == "model"
    other = Fact("Kimi", "fallback", "m2", "Facts", {"since": "2026-05-04"})
    assert anchored(_change(None, "Ollama", leaves="Kimi"), [kimi, other]).key is None


STAGING = Fact(
    "stg1.example.internal", "Staging-Host", "m1", "Facts", {"since": "2026-05-04"}
)
COPULAS = lexicon().copulas


def _said(value: str) -> Classified:
    return Classified("fact", True, True, None, value, "none")


def test_a_statement_about_a_current_key_is_keyed_by_it_in_every_language():
    current = _current(STAGING)
    for text in (
        "Der Staging-Host ist stg2.example.internal (hatte mich verlesen).",
        "the Staging-Host is stg2.example.internal",
        "Staging-Host — stg2.example.internal",
        "Staging-Hostは stg2.example.internal だった（書き間違えた）。",
        "Staging-Host是 stg2.example.internal，之前记错了。",
    ):
        c = by_subject(_said(text), current, COPULAS)
        assert (c.key, c.value) == ("Staging-Host", "stg2.example.internal"), text


def test_a_statement_about_no_current_key_stays_unkeyed():
    current = _current(STAGING)
    for text in ("the build is green again", "Sam is based in Washington, D.C."):
        assert by_subject(_said(text), current, COPULAS).key is None


def test_a_statement_keeps_an_abbreviations_stop():
    dc = Fact("Berlin", "Sam", "m2", "Facts", {"since": "2026-05-04"})
    c = by_subject(_said("Sam is based in Washington, D.C."), _current(dc), COPULAS)
    assert c.value == "based in Washington, D.C."
