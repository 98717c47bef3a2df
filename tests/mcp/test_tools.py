"""The tools as plain calls on a Workspace: bounds, shapes, dry runs."""

from __future__ import annotations

import pytest

from gardener import Workspace
from gardener.errors import UsageError
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
