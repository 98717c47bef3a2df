"""show: lines of MEMORY.md, rules.md or a note; nothing else; secrets redacted."""

from __future__ import annotations

from pathlib import Path

import pytest

from gardener import Workspace
from gardener.errors import GardenerError, UsageError


def test_a_note_is_shown_from_a_line_with_its_numbers(ws: Workspace):
    ws.note("the cat is Miso", time="08:00")
    ws.note("the dog is Rex", time="08:30")
    whole = ws.show("memory/2026-01-05.md")
    assert whole.exists and "the cat is Miso" in whole.text
    lines = whole.text.splitlines()
    at = next(i for i, line in enumerate(lines, 1) if "Rex" in line)
    one = ws.show("memory/2026-01-05.md", at, 1)
    assert one.text.strip().endswith("the dog is Rex") and one.lines == 1
    assert one.total == whole.total == len(lines)
    assert ws.show(str(ws.root / "memory" / "2026-01-05.md")).text == whole.text


def test_a_missing_note_is_empty_text(ws: Workspace):
    shown = ws.show("memory/2020-01-01.md")
    assert (shown.text, shown.exists, shown.total) == ("", False, 0)


@pytest.mark.parametrize(
    "path",
    [
        ".git/config",
        "memory/../.git/config",
        "/etc/passwd",
        "notes.txt",
        ".gardener/salt",
        "memory",
    ],
)
def test_a_path_outside_the_memory_files_is_refused(ws: Workspace, path: str):
    with pytest.raises(GardenerError, match="not a memory file|is a folder"):
        ws.show(path)


def test_a_link_out_of_the_workspace_is_refused(ws: Workspace, tmp_path: Path):
    (tmp_path / "secret.md").write_text("outside\n")
    (ws.root / "memory" / "2026-01-01.md").symlink_to(tmp_path / "secret.md")
    with pytest.raises(GardenerError, match="not a memory file"):
        ws.show("memory/2026-01-01.md")


def test_secrets_are_shown_redacted_and_lines_keep_their_numbers(ws: Workspace):
    key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n"
    (ws.root / "memory" / "2026-01-04.md").write_text(
        f"# 2026-01-04\n\n- password: hunter2hunter2\n{key}- after the key\n"
    )
    shown = ws.show("memory/2026-01-04.md")
    assert "hunter2" not in shown.text and "[REDACTED:" in shown.text
    assert "b3BlbnNz" not in shown.text
    assert shown.text.splitlines()[6] == "- after the key"


def test_rules_and_memory_are_shown(ws: Workspace):
    assert ws.show("rules.md").text.startswith("---")
    assert ws.show("MEMORY.md").exists


def test_a_bad_range_is_a_usage_error(ws: Workspace):
    with pytest.raises(UsageError):
        ws.show("MEMORY.md", 0)
