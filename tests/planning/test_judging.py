"""Reading and checking a judge's answers (pure)."""

from __future__ import annotations

import pytest
from hypothesis import given

from gardener.planning.judging import nearest_keys, read_judgments, words_of
from tests.helpers import json_like

json_values = json_like()


@given(json_values)
def test_any_json_is_read_or_refused_with_a_value_error(data: object) -> None:
    try:
        judgments = read_judgments(data)
    except ValueError:
        return
    assert all(
        j.id and j.verdict in ("durable", "transient", "correction", "ends")
        for j in judgments
    )


def test_a_durable_kind_as_the_verdict_means_durable_of_that_kind() -> None:
    (j,) = read_judgments(
        {"decisions": [{"id": "p1", "verdict": "Preference", "key": " Sam / diet "}]}
    )
    assert (j.verdict, j.kind, j.key) == ("durable", "preference", "Sam / diet")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"decisions": [{"verdict": "fact"}]}, "decision 1: no id"),
        ([{"id": "p1", "verdict": "maybe", "kind": "fact"}], "verdict must be one of"),
        ([{"id": "p1", "verdict": "fact", "key": 3}], "key must be a string"),
        ("fact", "expected"),
    ],
)
def test_malformed_answers_name_the_first_bad_one(data: object, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        read_judgments(data)


@pytest.mark.parametrize(
    ("value", "text", "ok"),
    [
        ("Postgres 16", "we run **Postgres  16** in prod", True),
        ("ｇｈｐ", "ghp is a prefix", False),  # other characters are other text
        ("ian 1", "runs Debian 12", False),  # whole words
        ("서울 리전", "서버는 서울 리전에 있다", True),  # a particle attached
        ("vegan", "Sam is vegetarian", False),
        ("per Rechnung.", "Der Kunde zahlt per Rechnung", True),
    ],
)
def test_a_value_is_words_of_the_entry(value: str, text: str, ok: bool) -> None:
    assert words_of(value, text) is ok


def test_nearest_keys_offer_the_existing_spelling() -> None:
    keys = ["billing contact", "deploy target", "Sam / diet"]
    assert nearest_keys("Billing Contact person", "", keys)[0] == "billing contact"
    assert nearest_keys(None, "ask the billing contact first", keys) == [
        "billing contact"
    ]
    topics = {"database": ("postgres", "sqlite")}
    assert nearest_keys(None, "sqlite from here", ["Database"], topics) == ["Database"]
    assert nearest_keys(None, "", keys) == [] and nearest_keys("x", "x", []) == []


def test_a_redaction_marker_is_no_value() -> None:
    # a new user's judge filed `staging / password: [REDACTED:password]`
    from datetime import date

    from gardener.formats.dailynote import parse_note
    from gardener.planning.classify import classify
    from gardener.planning.judging import Judgment, Waiting, apply_judgment
    from gardener.store.settings import default_config

    config = default_config()
    text = "- The staging box runs Debian 12 with [REDACTED:password] as root.\n"
    (entry,) = parse_note("memory/2026-02-21.md", date(2026, 2, 21), text).entries
    waiting = Waiting(
        "p1", "m", entry, "2026-02-21", classify(entry, config), "undecided", "skip"
    )
    for value in ("[REDACTED:password]", "[REDACTED:password] as root"):
        answer = Judgment("p1", "durable", "fact", "staging / password", value)
        if value == "[REDACTED:password]":
            with pytest.raises(ValueError, match="only a redacted secret"):
                apply_judgment(answer, waiting, config, "atlas", lambda key: None)
        else:  # it says more than the secret: filed as it reads
            assert (
                apply_judgment(answer, waiting, config, "atlas", lambda key: None).value
                == value
            )
