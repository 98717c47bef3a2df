"""Daily notes are append-only: a rewritten note keeps both versions; redaction in place."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener import Workspace
from gardener.verbs.appendonly import merge_rewrite

WHEN = "2026-01-05T10:00"
MARKER = f"<!-- gardener: lines below were rewritten on {WHEN}; the committed text above is kept -->"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def test_merge_keeps_the_committed_text_and_appends_what_is_new():
    committed = "# Day\n\n- a\n- b\n"
    assert merge_rewrite(committed, committed + "- c\n", WHEN) is None  # appended
    assert merge_rewrite(committed, "# Day\n\n- b\n- c\n- a\n", WHEN) == (
        committed + MARKER + "\n- c\n"
    )
    assert merge_rewrite(committed, "- a\n", WHEN) == committed  # only took lines out
    assert merge_rewrite(committed, "", WHEN) == committed
    assert merge_rewrite("- a", "- b\n", WHEN) == "- a\n" + MARKER + "\n- b\n"


def test_merge_compares_lines_without_line_endings():
    committed = "\ufeff# Day\r\n- a\r\n"
    assert merge_rewrite(committed, "# Day\n- a\n- b\n", WHEN) == (
        committed + MARKER + "\r\n- b\r\n"
    )


_LINES = st.lists(st.sampled_from(["- a", "- b", "", "# h", "- c\r", "x"]), max_size=8)


@settings(max_examples=500)
@given(_LINES, _LINES)
def test_merge_loses_nothing_of_either_version(old: list[str], new: list[str]):
    committed, current = "\n".join(old), "\n".join(new)
    merged = merge_rewrite(committed, current, WHEN)
    if merged is None:
        assert current.startswith(committed)
        return
    assert merged.startswith(committed)
    assert merge_rewrite(committed, merged, WHEN) is None  # appended to, now
    kept = Counter(line.rstrip("\r") for line in merged.split("\n"))
    wanted = Counter(line.rstrip("\r") for line in current.split("\n") if line.strip())
    assert not wanted - kept


@pytest.fixture
def noted(ws: Workspace) -> Workspace:
    ws.note("we use SQLite", kind="decision", key="database", time="09:00")
    ws.note("staging is box2", kind="fact", key="staging host", time="09:05")
    ws.promote()
    return ws


def test_a_rewritten_note_keeps_both_versions(noted: Workspace):
    ws = noted
    path = ws.root / "memory" / "2026-01-05.md"
    committed = path.read_text()
    # an agent that overwrites the day's note instead of appending to it
    path.write_text("# 2026-01-05\n\n- 09:30 fact: **deploy day**: Friday\n")
    result = ws.record()
    assert result.commit is not None
    assert any("2026-01-05.md was rewritten" in w for w in result.warnings)
    assert path.read_text() == (
        committed
        + "<!-- gardener: lines below were rewritten on 2026-01-05T09:00; the committed text above is kept -->\n"
        + "- 09:30 fact: **deploy day**: Friday\n"
    )
    assert git(ws.root, "status", "--porcelain") == ""
    promoted = ws.promote()
    assert promoted.as_dict()["added"] == ["deploy day"]  # nothing promoted twice
    assert [h.value for h in ws.recall(key="database")] == ["we use SQLite"]


def test_a_rewrite_warns_through_promote_and_the_cli(noted: Workspace, run_cli):
    ws = noted
    path = ws.root / "memory" / "2026-01-05.md"
    path.write_text("- 10:00 fact: **db host**: box9\n")
    out = run_cli("-w", str(ws.root), "promote", now="2026-01-05T11:00")
    assert "warning: memory/2026-01-05.md was rewritten" in out.output
    path.write_text("- 10:00 fact: **db port**: 5432\n")
    assert any("was rewritten" in w for w in ws.promote().warnings)
    text = path.read_text()
    assert "**database**" in text and "box9" in text and "5432" in text


def test_redaction_writes_in_place_while_an_agent_holds_the_note_open(ws: Workspace):
    ws.note("first entry", time="08:00")
    path = ws.root / "memory" / "2026-01-05.md"
    agent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "f = open(sys.argv[1], 'a')\n"
            "f.write('- the NAS password is Hunter2Hunter2xx\\n'); f.flush()\n"
            "print('written', flush=True); sys.stdin.readline()\n"
            "f.write('- written later through the same descriptor\\n'); f.close()\n",
            str(path),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert agent.stdout is not None and agent.stdin is not None
    assert agent.stdout.readline() == "written\n"
    inode = path.stat().st_ino
    result = ws.record()
    assert [r.rule for r in result.redacted] != []
    agent.stdin.write("go\n")
    agent.stdin.close()
    assert agent.wait(timeout=30) == 0
    text = path.read_text()
    assert path.stat().st_ino == inode  # rewritten in place, not replaced
    assert "Hunter2Hunter2xx" not in text and "[REDACTED:" in text
    assert text.endswith("- written later through the same descriptor\n")
    ws.record()
    assert "Hunter2Hunter2xx" not in git(ws.root, "log", "-p", "--all")
    assert "written later" in git(ws.root, "show", "HEAD:memory/2026-01-05.md")


def test_a_big_note_that_grew_is_read_from_its_file_and_one_rewritten_is_restored(
    ws: Workspace,
):
    """A note past ``grown.MIN_BYTES`` that only grew: its committed text is
    its file's first bytes (git's blob id says so), no copy through git; one
    rewritten above its end is still restored from git."""
    from gardener.git.repo import Repo
    from gardener.verbs import grown

    rel = "memory/2026-01-05.md"
    path = ws.root / rel
    body = "".join(f"- 09:{i % 60:02d} line {i} é\r\n" for i in range(60_000))
    path.write_text(body, encoding="utf-8", newline="")
    assert path.stat().st_size > grown.MIN_BYTES
    ws.record()
    with path.open("a", encoding="utf-8", newline="") as out:
        out.write("- 10:00 one more\n")
    repo = Repo.open(ws.root)
    try:
        assert set(grown.grown(repo, ws.root, [rel])) == {rel}
        assert grown.committed_texts(repo, ws.root, [rel, "MEMORY.md"]) == (
            repo.committed_texts([rel, "MEMORY.md"])
        )
        path.write_text("- 08:00 rewritten\n" + body, encoding="utf-8", newline="")
        assert grown.grown(repo, ws.root, [rel]) == {}
    finally:
        repo.close()
    ws.record()
    text = path.read_bytes().decode("utf-8")
    assert text.startswith(body) and "rewritten" in text.splitlines()[-1]
