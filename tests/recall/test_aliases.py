"""A key's names in other languages answer for it: a user asking in German,
Chinese or Russian finds what the agent filed in English, and back."""

from __future__ import annotations

import pytest

from gardener import Workspace
from gardener.recall.search import search_fresh
from gardener.recall.terms import match_expression
from tests.helpers import write


@pytest.mark.now("2026-03-10T12:00")
@pytest.mark.parametrize(
    ("query", "value"),
    [("Datenbank", "Postgres"), ("база данных", "Postgres"), ("数据库", "Postgres"),
     ("持续集成", "GitHub Actions"), ("缓存", "Redis"), ("database", "MariaDB")],
)  # fmt: skip
def test_a_topic_named_in_another_language_finds_the_key(
    ws: Workspace, query: str, value: str
) -> None:
    write(ws, "2026-03-01.md",
          "- decision: **database**: Postgres\n- **CI:** GitHub Actions\n"
          "- **Cache:** Redis\n- **Analytics Datenbank:** MariaDB\n")  # fmt: skip
    ws.promote()
    values = [h.value for h in ws.recall(query, limit=5)]
    assert value in values, values


def test_an_alias_is_a_phrase_of_the_query() -> None:
    aliases = {"datenbank": ["database", "datenbank", "база данных", "数据库"]}
    expression = match_expression("welche Datenbank", aliases)
    assert expression is not None
    assert expression.split(" OR ") == [
        '"Datenbank"',
        '"database"',
        '"база данных"',
        '"数据 据库"',
    ]
    assert match_expression("Datenbank") == '"Datenbank"'


@pytest.mark.now("2026-03-10T12:00")
def test_a_warm_recall_expands_as_the_workspace_does(ws: Workspace) -> None:
    write(ws, "2026-03-01.md", "- decision: **database**: Postgres\n")
    ws.promote()
    assert [h.value for h in ws.recall("Datenbank")] == ["Postgres"]
    warm = search_fresh(str(ws.root), "Datenbank", 10, False)
    assert warm is not None and [h.value for h in warm] == ["Postgres"]
