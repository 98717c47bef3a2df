"""Hit, the hand-written value class a recall answers with."""

from __future__ import annotations

import json

import pytest

from gardener.model.hit import Hit
from gardener.recall.hits import Match

HIT = Hit("db", "Postgres", "db: Postgres", "decision", "2026-01-05", None, "current",
          0.5, "MEMORY.md", 3, "m1", "memory/2026-01-05.md")  # fmt: skip


def test_a_hit_is_a_value():
    same = Hit(**HIT.as_dict())  # type: ignore[arg-type]
    assert same == HIT and hash(same) == hash(HIT)
    assert HIT.scored(0.25) != HIT and HIT.scored(0.25).score == 0.25
    assert HIT != ("db", "Postgres")
    assert repr(HIT).startswith("Hit(key='db', value='Postgres'")


def test_a_hit_cannot_change():
    with pytest.raises(AttributeError):
        HIT.value = "MySQL"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del HIT.value
    with pytest.raises(AttributeError):
        HIT.extra = 1  # type: ignore[attr-defined]


def test_as_dict_is_the_json_shape_in_order():
    assert list(HIT.as_dict()) == [
        "key", "value", "text", "kind", "since", "until", "status", "score",
        "path", "line", "id", "origin",
    ]  # fmt: skip
    assert (
        Hit("k", "v", "t", None, None, None, "note", 0.0, "p", 1).as_dict()["id"]
        is None
    )


def test_a_match_decodes_its_hit_with_its_score():
    raw = json.dumps({**HIT.as_dict(), "score": 0.0})
    assert Match(0.5, None, None, False, None, None, "", raw).hit() == HIT
    with pytest.raises((ValueError, TypeError, KeyError)):
        Match(0.5, None, None, False, None, None, "", '{"key": 1}').hit()


def _match(value: str, key: str | None, status: str, score: float) -> Match:
    hit = Hit(key, value, value, None, None, None, status, 0.0, "MEMORY.md", 1)
    return Match(score, None, key, False, None, None, "", json.dumps(hit.as_dict()))


def test_a_curated_line_of_a_key_comes_after_the_keys_managed_value():
    from gardener.recall.hits import pick

    matches = [
        _match("helix", "editor", "curated", 3.0),
        _match("dark mode", None, "curated", 2.0),
        _match("vim", "editor", "current", 1.0),
        _match("nano", "pager", "curated", 0.5),
    ]
    got = [h.value for h in pick(matches, "2026-01-05T09:00", {}, None)]
    assert got == ["dark mode", "vim", "helix", "nano"]
    # while a note of the key is pending, the curated line goes last
    pending = {"pager": "2026-01-05T08:00"}
    got = [h.value for h in pick(matches, "2026-01-05T09:00", pending, None)]
    assert got == ["dark mode", "vim", "helix", "nano"]
    pending = {"editor": "2026-01-05T08:00"}
    got = [h.value for h in pick(matches, "2026-01-05T09:00", pending, None)]
    assert got == ["dark mode", "nano", "vim", "helix"]
