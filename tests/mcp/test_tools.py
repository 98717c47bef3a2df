"""The tools as plain calls on a Workspace: bounds, shapes, dry runs."""

from __future__ import annotations

import pytest

from gardener import Workspace
from gardener.errors import GardenerError, RefusedError, UsageError
from gardener.mcp import tools as module
from gardener.mcp.tools import Tools


def test_search_is_bounded(ws: Workspace):
    for n in range(8):
        ws.note(f"deploy number {n} went out on the train", time=f"08:0{n}")
    tools = Tools(ws)
    assert len(tools.search("deploy")["results"]) == module.DEFAULT_RESULTS  # type: ignore[arg-type]
    assert len(tools.search("deploy", max_results=500)["results"]) == 8  # type: ignore[arg-type]
    scores = [r["score"] for r in tools.search("deploy train")["results"]]  # type: ignore[union-attr]
    assert scores[0] == 1.0 and all(0 <= s <= 1 for s in scores)
    with pytest.raises(UsageError):
        tools.search("  ")


def test_a_long_snippet_is_cut(ws: Workspace):
    ws.note("the plan: " + "step after step " * 80, time="08:00")
    (hit,) = Tools(ws).search("plan")["results"]  # type: ignore[misc]
    assert len(hit["snippet"]) == module.SNIPPET_CHARS


def test_get_cuts_a_huge_file_at_a_line_and_says_where_to_go_on(ws: Workspace):
    lines = (f"- line {n} of a long day of notes\n" for n in range(1, 1900))
    (ws.root / "memory" / "2026-01-04.md").write_text("".join(lines))
    got = Tools(ws).get("memory/2026-01-04.md", 3)
    assert len(str(got["text"])) <= module.MAX_TEXT_CHARS
    assert got["truncated"] is True and str(got["text"]).startswith("- line 3 of")
    assert got["next"] == 3 + got["lines"]  # type: ignore[operator]
    assert str(got["text"]).endswith("\n")


def test_status_and_forget_by_default_writes_nothing(ws: Workspace):
    ws.note("the editor is Helix", kind="preference", key="editor", time="08:00")
    tools = Tools(ws)
    tools.promote()
    status = tools.status()
    assert set(status) == {"ok", "counts", "problems", "held", "memory", "pending"}
    before = (ws.root / "MEMORY.md").read_text()
    assert tools.forget(key="editor")["dry_run"] is True
    assert (ws.root / "MEMORY.md").read_text() == before


def test_a_never_store_rule_added_while_serving_refuses_the_next_note(ws: Workspace):
    tools = Tools(ws)
    tools.note("badge EMP-123456 opens the lab")
    rules = ws.root / "rules.md"
    rules.write_text(
        rules.read_text().replace(
            "never_store: {}", "never_store:\n  employee id: '\\bEMP-\\d{6}\\b'"
        )
    )
    with pytest.raises(RefusedError, match="employee id"):
        tools.note("badge EMP-654321 opens the store")
    assert "EMP-654321" not in (ws.root / "memory" / "2026-01-05.md").read_text()


def test_a_broken_rules_md_is_each_calls_error_and_its_repair_is_read(ws: Workspace):
    rules = ws.root / "rules.md"
    good = rules.read_text()
    tools = Tools(ws)
    rules.write_text("---\nnote_ttl_days: [unclosed\n---\n")
    with pytest.raises(GardenerError, match="rules.md"):
        tools.search("anything")
    rules.write_text(good)
    assert tools.search("anything") == {"results": []}


def test_status_reports_a_broken_memory_md_rather_than_failing(ws: Workspace):
    (ws.root / "MEMORY.md").write_text(
        "# Memory\n\n<!-- gardener:begin -->\n<!-- gardener:begin -->\n"
    )
    status = Tools(ws).status()
    assert status["ok"] is False and status["pending"] is None
    assert "gardener:begin" in str(status["problems"])


def test_a_key_noted_but_not_yet_promoted_is_found_by_key(ws: Workspace):
    tools = Tools(ws)
    tools.note("we use Postgres 16", kind="decision", key="database")
    (hit,) = tools.search(key="Database")["results"]  # type: ignore[misc]
    assert hit["status"] == "note" and "Postgres" in hit["snippet"]
    tools.promote()
    (hit,) = tools.search(key="database")["results"]  # type: ignore[misc]
    assert hit["status"] == "current" and hit["path"] == "MEMORY.md"


def test_messages_name_the_tools_with_the_servers_prefix(ws: Workspace):
    tools = Tools(ws, prefix="gardener_")
    assert tools.review()["answer"] == "gardener_memory_decide"
    with pytest.raises(GardenerError, match="gardener_memory_search"):
        tools.why("nothing")
