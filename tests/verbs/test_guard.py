"""What a verb commits is redacted first: a secret never reaches git, in a file's bytes or its name."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.verbs.guard import _read_rest
from tests.helpers import git, write


@pytest.mark.now("2026-03-01T18:00")
def test_secret_in_a_file_that_is_not_utf8_never_reaches_git(ws: Workspace):
    write(
        ws,
        "2026-02-27.md",
        b"- the NAS password is Hunter2Hunter2\n- caf\xe9 latin-1\n",
    )
    ws.promote()
    assert "Hunter2Hunter2" not in git(ws.root, "log", "-p", "--all")
    assert (
        (ws.root / "memory" / "2026-02-27.md")
        .read_bytes()
        .endswith(b"caf\xe9 latin-1\n")
    )


@pytest.mark.now("2026-03-01T18:00")
def test_a_never_store_rule_does_not_redact_rules_md(ws: Workspace):
    rules = ws.root / "rules.md"
    rules.write_text(
        rules.read_text().replace(
            "never_store: {}", "never_store: {codename: 'Bluebird'}"
        )
    )
    ws.note("we picked SQLite", kind="decision")
    ws.promote()
    assert "codename: 'Bluebird'" in rules.read_text()
    assert "Bluebird" not in git(ws.root, "log", "-p", "--", "memory")


def test_a_never_store_rule_in_rules_md_lets_a_new_workspace_object_promote(
    ws: Workspace,
):
    """A rule's own text in rules.md is no secret to record: the CLI builds a
    new Workspace each run, which failed with 'kept taking secrets'."""
    rules = ws.root / "rules.md"
    rules.write_text(
        rules.read_text().replace(
            "never_store: {}", "never_store: {codename: 'Bluebird'}"
        )
    )
    ws.note("we picked SQLite", kind="decision")
    fresh = Workspace(ws.root, ws.now_override)
    assert fresh.promote().commit is not None
    assert "codename: 'Bluebird'" in rules.read_text()
    assert "Bluebird" not in git(ws.root, "log", "-p", "--", "memory")


def _everything_git_holds(root: Path) -> str:
    out = subprocess.run(
        ["git", "-C", str(root), "log", "--all", "-p", "--name-status", "--format=%B"],
        capture_output=True,
        text=True,
    )
    return out.stdout


@pytest.mark.now("2026-03-01T18:00")
def test_a_token_in_a_note_name_never_reaches_git(ws: Workspace):
    """Breaker case 14: a path is part of a commit, so the name is renamed first."""
    token = "ghp_" + "Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz1Xc3Vb5N"
    note = ws.root / "memory" / f"2026-01-05-{token}.md"
    note.write_text("# 2026-01-05\n\n- the deploy went fine\n")
    result = ws.record()
    assert not note.exists()
    assert (
        (ws.root / "memory" / "2026-01-05-redacted.md")
        .read_text()
        .endswith("- the deploy went fine\n")
    )
    assert [r.where() for r in result.redacted] == [
        "the name of memory/2026-01-05-redacted.md"
    ]
    assert token not in _everything_git_holds(ws.root)
    assert token in (ws.root / ".gardener" / "quarantine.jsonl").read_text()
    # a second one with the same shape gets its own name
    (ws.root / "memory" / f"2026-01-05-{token}.md").write_text("- another\n")
    ws.record()
    assert (ws.root / "memory" / "2026-01-05-redacted-2.md").exists()
    assert token not in _everything_git_holds(ws.root)


def test_adopting_a_folder_renames_a_note_whose_name_holds_a_token(tmp_path: Path):
    token = "xoxb-" + "1234567890-abcdefghijklmnop"
    (tmp_path / "ws" / "memory").mkdir(parents=True)
    (tmp_path / "ws" / "memory" / f"2026-01-05_{token}.md").write_text("- hello\n")
    ws, result = Workspace.init(tmp_path / "ws", now_override="2026-01-05T09:00")
    assert [r.rule for r in result.redacted] == ["slack-token"]
    assert token not in _everything_git_holds(ws.root)
    assert (ws.root / "memory" / "2026-01-05_redacted.md").exists()


@pytest.mark.now("2026-03-01T18:00")
def test_a_staged_note_named_with_a_token_is_unstaged_when_renamed(ws: Workspace):
    """Breaker: `git add` of the file before record left its name in the index."""
    token = "ghp_" + "Zq8Xw2Lm4Nb6Vc1Kj3Hg5Fd7Sa9Pp0Oo2Ii4"
    (ws.root / "memory" / f"2026-01-05-{token}.md").write_text("- plain entry\n")
    subprocess.run(["git", "-C", str(ws.root), "add", "memory"], check=True)
    ws.promote()
    (ws.root / "other.txt").write_text("x\n")
    subprocess.run(["git", "-C", str(ws.root), "add", "other.txt"], check=True)
    subprocess.run(
        ["git", "-C", str(ws.root), "-c", "user.name=P", "-c", "user.email=p@example.org",
         "commit", "-q", "--no-verify", "-m", "unrelated"],
        check=True,
    )  # fmt: skip
    assert token not in _everything_git_holds(ws.root)


def _with_rule(ws: Workspace, rule: str) -> Workspace:
    """``ws`` with a never_store rule added to rules.md, as a new run reads it."""
    rules = ws.root / "rules.md"
    rules.write_text(
        rules.read_text().replace("never_store: {}", f"never_store: {{{rule}}}")
    )
    fresh = Workspace(ws.root, ws.now_override)
    fresh.record()
    return fresh


@pytest.mark.now("2026-03-01T18:00")
def test_record_scans_the_lines_no_commit_holds_not_the_whole_note(ws: Workspace):
    """An append to a committed note costs the appended lines: what the last
    commit held was scanned then, and a rule added since applies from then
    on (docs/design.md, "Never store")."""
    note = ws.root / "memory" / "2026-03-01.md"
    note.write_text(
        "- codename Bluebird\n" + "".join(f"- line {n}\n" for n in range(20))
    )
    ws.record()
    ws = _with_rule(ws, "codename: 'Bluebird'")
    with note.open("a") as out:
        out.write("- a clean line\n")
    ws.record()
    assert "- codename Bluebird\n" in note.read_text()
    assert "a clean line" in git(ws.root, "show", "HEAD:memory/2026-03-01.md")


@pytest.mark.now("2026-03-01T18:00")
def test_a_finding_in_the_new_lines_has_the_whole_note_scanned(ws: Workspace):
    note = ws.root / "memory" / "2026-03-01.md"
    note.write_text(
        "- codename Bluebird\n" + "".join(f"- line {n}\n" for n in range(20))
    )
    ws.record()
    ws = _with_rule(ws, "codename: 'Bluebird'")
    with note.open("a") as out:
        out.write("- Bluebird again\n")
    ws.record()
    assert "Bluebird" not in note.read_text()
    assert "Bluebird" not in git(ws.root, "show", "HEAD:memory/2026-03-01.md")


@pytest.mark.now("2026-03-01T18:00")
def test_a_never_committed_note_is_scanned_whole(ws: Workspace):
    ws = _with_rule(ws, "codename: 'Bluebird'")
    note = ws.root / "memory" / "2026-03-01.md"
    note.write_text("---\nagent: rook\n---\n- codename Bluebird\n- clean\n")
    ws.record()
    assert "Bluebird" not in git(ws.root, "show", "HEAD:memory/2026-03-01.md")
    assert "agent: rook" in note.read_text()


def test_a_file_read_again_as_the_text_read_before_is_that_text(tmp_path: Path):
    # redaction reads each file again under its lock: when the bytes are the
    # text read before, that str is taken (a 50 MB note not held twice more),
    # and any other bytes are read as they are
    path = tmp_path / "note.md"
    like = "a" * (5 << 20) + "\n"
    middle = "a" * (4 << 20) + "X" + "a" * ((1 << 20) - 1) + "\n"
    for data in (
        like.encode(), like[:-1].encode(), (like + "b").encode(),
        middle.encode(), "é".encode() + like.encode()[2:], b"", b"\xff" + like.encode(),
    ):  # fmt: skip
        path.write_bytes(data)
        fd = os.open(path, os.O_RDONLY)
        try:
            got = _read_rest(fd, like)
        finally:
            os.close(fd)
        assert got == data.decode("utf-8", "surrogateescape")
        assert (got is like) == (data == like.encode())


@pytest.mark.now("2026-03-01T18:00")
def test_a_clean_append_is_not_read_again_and_a_later_secret_is_caught(
    ws: Workspace,
):
    """With the committed texts, a file whose new lines hold nothing is left
    alone (not read again under its lock); a secret a writer appends after
    that scan is caught by record's rescan of what it commits."""
    from gardener.verbs.guard import ScanMemo, redact_files
    from gardener.verbs.record import _scanned_texts

    rel = "memory/2026-03-01.md"
    note = ws.root / rel
    note.write_text("".join(f"- line {n}\n" for n in range(20)))
    ws.record()
    committed = {rel: note.read_text()}
    with note.open("a") as out:
        out.write("- a clean line\n")
    inode = note.stat().st_ino
    memo = ScanMemo()
    with ws._session() as s:
        assert redact_files(ws.root, [rel], s.config, s.now(), memo, committed) == []
        assert note.stat().st_ino == inode
        with note.open("a") as out:  # a writer, after the scan
            out.write("- the admin password: Zq4vT9wLmX\n")
        texts, again = _scanned_texts(s, [rel], memo, committed)
    assert [r.path for r in again] == [rel]
    assert texts is not None and "Zq4vT9wLmX" not in texts[rel]
    assert "Zq4vT9wLmX" not in note.read_text()
