"""Notes no tool should have to expect: an exec bit, a binary, Latin-1 bytes
with a secret in them (issue 20's pathological files). Real git, the real CLI."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.git.repo import Repo
from tests.helpers import new_workspace

NOW = "2026-03-03T10:00"
BINARY = b"- 09:00 first line\n\x00\x01\x02 bob@example.com in a binary\x00\xff\xfe\n"
LATIN1 = b"- 09:00 caf\xe9\n- 09:01 the NAS password is Hunter2Hunter2x\n"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True,
        errors="replace",
    ).stdout  # fmt: skip


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    workspace = new_workspace(tmp_path, NOW)
    workspace.note("the deploy server is atlas-3", kind="fact", time="09:00")
    workspace.note("I prefer tea", kind="preference", time="09:05")
    return workspace


def test_a_note_given_the_exec_bit_is_no_change(ws: Workspace, run_cli):
    """Before: the note stayed "modified" for git forever (record had
    nothing to commit) and a purge refused over it."""
    note = ws.root / "memory" / "2026-03-03.md"
    note.chmod(0o755)
    assert Repo.open(ws.root).uncommitted() == []
    run_cli("-w", str(ws.root), "record", now=NOW)
    run_cli("-w", str(ws.root), "check", now=NOW)
    run_cli("-w", str(ws.root), "purge", "atlas-3", "--yes", now=NOW)
    assert os.access(note, os.X_OK) and "[PURGED]" in note.read_text()
    run_cli("-w", str(ws.root), "note", "a later line", now=NOW)
    assert Repo.open(ws.root).uncommitted() == []


def test_a_binary_with_an_address_in_it_is_never_rewritten_nor_committed(
    ws: Workspace, run_cli
):
    """Before: the e-mail address was redacted, changing the binary."""
    odd = ws.root / "memory" / "2026-03-02.md"
    odd.write_bytes(BINARY)
    out = run_cli("-w", str(ws.root), "record", now=NOW)
    assert odd.read_bytes() == BINARY
    assert "memory/2026-03-02.md:2: not text (a NUL byte at column 1)" in out.output
    assert "line(s) 2 hold a secret: not committed" in out.output
    assert "bob@example.com" not in git(ws.root, "log", "-p", "--all")
    assert git(ws.root, "ls-files", "memory/2026-03-02.md") == ""
    # every other verb goes on with the other notes
    run_cli("-w", str(ws.root), "promote", now=NOW)
    assert "atlas-3" in ws.memory_path.read_text()
    run_cli("-w", str(ws.root), "check", code=4, now=NOW)
    assert "atlas-3" in run_cli("-w", str(ws.root), "recall", "deploy", now=NOW).output
    run_cli("-w", str(ws.root), "prune", now="2026-09-01T10:00")
    run_cli("-w", str(ws.root), "note", "one more", now=NOW)
    run_cli("-w", str(ws.root), "purge", "atlas-3", "--yes", now=NOW)
    assert odd.read_bytes() == BINARY


def test_a_latin1_note_with_a_secret_keeps_its_bytes_and_stays_out(
    ws: Workspace, run_cli
):
    odd = ws.root / "memory" / "2026-03-01.md"
    odd.write_bytes(LATIN1)
    out = run_cli("-w", str(ws.root), "promote", now=NOW)
    assert "memory/2026-03-01.md:1: not text (byte 0xe9, not UTF-8 at column 12)" in out.output  # fmt: skip
    assert odd.read_bytes() == LATIN1
    assert "Hunter2Hunter2x" not in git(ws.root, "log", "-p", "--all")
    odd.write_bytes(LATIN1.replace(b"the NAS password is Hunter2Hunter2x", b"tea"))
    run_cli("-w", str(ws.root), "record", now=NOW)
    assert git(ws.root, "show", "HEAD:memory/2026-03-01.md").startswith("- 09:00 caf")


def test_a_binary_without_a_secret_is_committed_byte_for_byte(ws: Workspace, run_cli):
    odd = ws.root / "memory" / "2026-03-02.md"
    data = bytes(range(256)) * 4
    odd.write_bytes(data)
    run_cli("-w", str(ws.root), "record", now=NOW)
    blob = subprocess.run(
        ["git", "-C", str(ws.root), "show", "HEAD:memory/2026-03-02.md"],
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    assert blob == data == odd.read_bytes()


HAND = (
    "- The office is in Berlin {until=2026-01-01}\n"
    "- The car is red {until=2031-01-01}\n"
    "\n## Superseded\n"
    "- The boat was blue {until=2026-01-01}\n"
    "- The van was white {since=2026-02-01 until=2026-01-15}\n"
    "- The bike was green {until=2031-01-01}\n"
)


def hand_lines(ws: Workspace, extra: str = "") -> str:
    text = ws.memory_path.read_text().replace(
        "<!-- gardener:end -->", HAND + extra + "<!-- gardener:end -->"
    )
    ws.memory_path.write_text(text)
    return text


def line_of(ws: Workspace, words: str) -> int:
    lines = ws.memory_path.read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if words in line)


def test_lines_typed_by_hand_with_until_are_kept_and_an_inverted_one_reported(
    ws: Workspace, run_cli
):
    """Before: prune deleted the hand-typed superseded lines as old entries
    (the boat, the van), and ``check`` said nothing of an ``until`` before
    its ``since``."""
    run_cli("-w", str(ws.root), "promote", now=NOW)
    hand_lines(ws)
    run_cli("-w", str(ws.root), "record", now=NOW)
    out = run_cli("-w", str(ws.root), "check", code=4, now=NOW).output
    van = line_of(ws, "The van")
    assert f"MEMORY.md:{van}: parse: until=2026-01-15 is before since=2026-02-01" in out
    assert out.count("MEMORY.md:") == 1  # the others are fine: past, future
    later = "2027-06-01T10:00"
    run_cli("-w", str(ws.root), "prune", "--force", now=later)
    run_cli("-w", str(ws.root), "promote", now=later)
    text = ws.memory_path.read_text()
    assert all(line in text for line in HAND.splitlines() if line.startswith("- "))
    assert (
        "car is red" in run_cli("-w", str(ws.root), "recall", "car", now=later).output
    )


def test_a_malformed_until_typed_by_hand_is_named_and_loses_nothing(
    ws: Workspace, run_cli
):
    run_cli("-w", str(ws.root), "promote", now=NOW)
    before = hand_lines(ws, "- The lab is in Paris {until=banana}\n")
    run_cli("-w", str(ws.root), "record", now=NOW)
    lab = line_of(ws, "The lab")
    where = f"MEMORY.md:{lab}"
    assert where in run_cli("-w", str(ws.root), "check", code=4, now=NOW).output
    out = run_cli("-w", str(ws.root), "promote", code=1, now=NOW).output
    assert f"{where}: until='banana' is not a date" in out
    run_cli("-w", str(ws.root), "prune", now=NOW)
    run_cli("-w", str(ws.root), "note", "the printer is on floor 2", now=NOW)
    assert "atlas-3" in run_cli("-w", str(ws.root), "recall", "deploy", now=NOW).output
    assert ws.memory_path.read_text() == before
    ws.memory_path.write_text(before.replace("{until=banana}", "{until=2026-02-01}"))
    run_cli("-w", str(ws.root), "promote", now=NOW)
    assert "The lab is in Paris {until=2026-02-01}" in ws.memory_path.read_text()
