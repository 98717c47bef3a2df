"""The two-speed example in free prose, through the real ``gardener`` command.

Postgres, then "User switched the main database to SQLite"; Redis, then "We
decided to drop the Redis cache for v2"; a preference kept; "debugging a
timeout right now" left in its note, never filed, and gone with the note
once prune deletes it past its TTL (30 days).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import cli

DAY1 = "2026-06-15"
DAY2 = "2026-06-19"
DAY1_NOTE = """# 2026-06-15

- 09:00 We decided on Postgres for the database
- 09:05 We use Redis as the cache
- 09:10 User prefers dark mode
- 11:00 debugging a timeout right now
"""
DAY2_NOTE = """# 2026-06-19

- 10:00 User switched the main database to SQLite
- 10:30 We decided to drop the Redis cache for v2
"""


def gardener(root: Path, now: str, *args: str) -> str:
    """``gardener -w ROOT ARGS`` with GARDENER_NOW=now: its standard output."""
    return cli(root, now, *args).stdout


def hits(root: Path, now: str, query: str) -> list[dict[str, object]]:
    out = json.loads(gardener(root, now, "recall", query, "--json"))
    results: list[dict[str, object]] = out["results"]
    return results


def test_two_speed_example_in_free_prose(tmp_path: Path):
    root = tmp_path / "ws"
    gardener(tmp_path, f"{DAY1}T08:00", "init", str(root))
    (root / "memory" / f"{DAY1}.md").write_text(DAY1_NOTE, encoding="utf-8")
    gardener(root, f"{DAY1}T20:00", "promote")
    (root / "memory" / f"{DAY2}.md").write_text(DAY2_NOTE, encoding="utf-8")
    gardener(root, f"{DAY2}T20:00", "promote")
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")

    def check(now: str) -> None:
        # the change: SQLite answers first; Postgres is past, until the switch
        database = hits(root, now, "database")
        assert (database[0]["status"], database[0]["value"]) == ("current", "SQLite")
        assert not [
            h for h in database if h["status"] == "current" and h["value"] == "Postgres"
        ]
        # the removal: nothing current answers with Redis; recall says when it ended
        cache = [h for h in hits(root, now, "cache") if h["path"] == "MEMORY.md"]
        assert [(h["status"], h["value"], h["until"]) for h in cache] == [
            ("ended", "Redis", f"{DAY2}T10:30")
        ]
        # the preference is kept
        theme = hits(root, now, "dark mode")
        assert any(
            h["status"] == "current" and h["key"] == "user / theme" for h in theme
        )

    check(f"{DAY2}T21:00")
    assert "~~**database**: Postgres~~" in memory and f"until={DAY2}T10:00" in memory
    # the transient line stays in its note and is not filed
    assert "timeout" not in memory
    assert (
        "debugging a timeout right now" in (root / "memory" / f"{DAY1}.md").read_text()
    )
    assert [h["path"] for h in hits(root, f"{DAY2}T21:00", "timeout")] == [
        f"memory/{DAY1}.md"
    ]

    # 36 days on, past the notes' TTL: prune deletes them; MEMORY.md still answers
    later = "2026-07-25T09:00"
    gardener(root, later, "prune")
    assert not (root / "memory" / f"{DAY1}.md").exists()
    assert not (root / "memory" / f"{DAY2}.md").exists()
    check(later)
    assert hits(root, later, "timeout") == []
