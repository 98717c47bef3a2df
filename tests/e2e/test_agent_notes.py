"""Notes as agents write them around ``gardener note``: their own headings, code
left open, hard-wrapped items; each entry keeps the kind it says (see
docs/design.md, Note and Daily notes)."""

from __future__ import annotations

from gardener import Workspace
from tests.helpers import at, git, write

DAY = "2026-01-05.md"


def _memory(ws: Workspace) -> str:
    return (ws.root / "MEMORY.md").read_text()


def test_a_preference_noted_after_the_agents_log_is_filed_as_one(ws: Workspace):
    write(ws, DAY, "# 2026-01-05\n\n## Log\n- 08:10 deployed v2\n")
    ws.note("Mira prefers dark mode", time="08:30")
    at(ws, "2026-01-05T18:00").promote()
    memory = _memory(ws)
    preferences = memory.split("## Preferences", 1)[1].split("\n## ", 1)[0]
    assert "dark mode" in preferences  # its key is the classifier's business
    assert "deployed v2" not in preferences


def test_a_note_after_code_left_open_is_filed_and_check_is_quiet(ws: Workspace):
    write(ws, DAY, "# 2026-01-05\n\n- the failing test:\n\n```\nassert x == 1\n")
    assert [(p.kind, p.line) for p in ws.check()] == [("parse", 5)]
    ws.note("SQLite", kind="decision", key="database", time="08:30")
    assert ws.check() == []
    at(ws, "2026-01-05T18:00").promote()
    assert "**database**: SQLite" in _memory(ws)


def test_a_hard_wrapped_item_is_filed_whole(ws: Workspace):
    write(
        ws,
        DAY,
        "# 2026-01-05\n\n- 10:20 decision: **dashboard theme**: dark mode, with\n"
        "  the high-contrast palette\n- 10:30 ran the tests\n",
    )
    at(ws, "2026-01-05T18:00").promote()
    expected = "**dashboard theme**: dark mode, with the high-contrast palette"
    assert expected in _memory(ws)
    hits = ws.recall("palette")
    assert hits and hits[0].value == "dark mode, with the high-contrast palette"


def test_a_secret_on_a_wrapped_line_is_found_on_its_line_and_never_filed(
    ws: Workspace,
):
    write(
        ws,
        DAY,
        "# 2026-01-05\n\n- the NAS login is admin,\n  password Quartz-Heron-77-fake\n",
    )
    assert [(p.kind, p.line) for p in ws.check() if p.kind == "secret"] == [
        ("secret", 4)
    ]
    at(ws, "2026-01-05T18:00").promote()
    assert "Quartz-Heron" not in _memory(ws)
    assert "Quartz-Heron" not in git(ws.root, "log", "-p", "--all")


def test_nested_items_go_under_their_fact_and_answer_recall(ws: Workspace):
    write(
        ws,
        DAY,
        "# 2026-01-05\n\n## Technical Details\n- **Image scraper**:\n"
        "    - kept image order stable with an ordered dict\n"
        "    - retries twice on a 503\n- 10:30 ran the tests\n",
    )
    at(ws, "2026-01-05T18:00").promote()
    memory = _memory(ws)
    fact = memory.split("Image scraper", 1)[1].split("\n", 3)
    # the nested lines stay under the fact, two spaces in, in their order
    assert fact[1:3] == [
        "  - kept image order stable with an ordered dict",
        "  - retries twice on a 503",
    ]
    at(ws, "2026-03-01T09:00").prune()  # the note is gone: MEMORY.md answers
    hits = ws.recall("How is the image order kept stable?")
    assert hits and "ordered dict" in hits[0].text


def test_a_label_whose_value_holds_a_frame_keeps_the_value_as_written(
    ws: Workspace,
):
    write(
        ws,
        DAY,
        "# 2026-01-05\n\n## Technical Details\n"
        "- **Grouping**: removes the last word from the `code` to create a group id\n"
        "- **Ordering**: replaced `list(set(...))` with `list(dict.fromkeys(...))`"
        " to keep the order\n",
    )
    at(ws, "2026-01-05T18:00").promote()
    memory = _memory(ws)
    assert "removes the last word from the `code` to create a group id {" in memory
    assert "with `list(dict.fromkeys(...))` to keep the order {" in memory


def test_a_nested_line_that_reads_like_a_marker_stays_under_its_fact(ws: Workspace):
    """Breaker: a nested `<!-- gardener:begin -->` made every later command
    fail ("a second gardener:begin marker"); a nested end marker cut the block."""
    write(
        ws,
        DAY,
        "# 2026-01-05\n\n## Decisions\n- we use Postgres for the main database\n"
        "  - pooled via pgbouncer\n  <!-- gardener:begin -->\n"
        "  <!-- gardener:end -->\n  after end\n",
    )
    at(ws, "2026-01-05T18:00").promote()
    (ws.root / "memory" / "2026-01-06.md").write_text(
        "## Decisions\n- we deploy to Hetzner from now on\n"
    )
    at(ws, "2026-01-06T18:00").promote()
    assert ws.check() == []
    memory = ws.read_memory()
    (fact,) = [f for f in memory.facts if "Postgres" in f.value]
    assert fact.tail[-1].strip() == "after end"
    assert any("Hetzner" in f.value for f in memory.facts)
