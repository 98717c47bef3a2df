"""The record verb's backups: OpenClaw's own files are committed, never read as notes."""

from __future__ import annotations

from pathlib import Path

from gardener import Workspace
from gardener.verbs.reading import BACKUP_MAX_BYTES, TOP_BACKUPS, is_backup
from tests.helpers import at, git

AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLQ"  # made up, shaped like an access key id


def _openclaw_files(root: Path) -> dict[str, str]:
    """OpenClaw's folders as it writes them: dream reports, pinned notes,
    its hidden state, its dream diary."""
    files = {
        "memory/dreaming/2026-01-04.md": "# Dreaming\n\n- the user drinks tea\n",
        "memory/dreaming/deep/2026-01-04.md": "- a deeper pass\n",
        "memory/important/pinned.md": "- decision: **ci**: we moved CI to Buildkite\n",
        "memory/.dreams/short-term.json": '{"recall": ["tea"]}\n',
        "DREAMS.md": "# Dreams\n\n- the team dreamt of Buildkite\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return files


def test_openclaws_folders_are_committed_as_backups(ws: Workspace) -> None:
    files = _openclaw_files(ws.root)
    ws.note("the cat is called Miso", time="08:00")
    result = ws.record()
    assert result.commit is not None
    tracked = set(git(ws.root, "ls-files").split())
    assert set(files) <= tracked
    for rel, text in files.items():
        assert git(ws.root, "show", f"HEAD:{rel}") == text
    assert git(ws.root, "status", "--porcelain") == ""
    assert ws.check() == []


def test_backups_are_never_promoted_nor_pruned(ws: Workspace) -> None:
    files = _openclaw_files(ws.root)
    ws.note("we use SQLite", kind="decision", key="database", time="08:00")
    ws.promote()
    assert "Buildkite" not in (ws.root / "MEMORY.md").read_text()
    at(ws, "2026-09-01T09:00").prune()
    for rel, text in files.items():
        assert (ws.root / rel).read_text() == text


def test_a_secret_in_a_backup_is_redacted_before_the_commit(ws: Workspace) -> None:
    pinned = ws.root / "memory" / "important" / "keys.md"
    pinned.parent.mkdir(parents=True)
    pinned.write_text(f"- the deploy key {AWS_KEY}\n")
    ws.record()
    assert AWS_KEY not in pinned.read_text()
    assert "[REDACTED:" in pinned.read_text()
    assert AWS_KEY not in git(ws.root, "log", "-p", "--all")
    assert any(p.kind == "secret" for p in ws.check())  # until the quarantine goes


def test_a_backup_changed_again_or_deleted_is_recorded(ws: Workspace) -> None:
    _openclaw_files(ws.root)
    ws.record()
    report = ws.root / "memory" / "dreaming" / "2026-01-04.md"
    report.write_text(report.read_text() + "- and coffee on Mondays\n")
    (ws.root / "DREAMS.md").unlink()
    ws.record()
    assert "coffee on Mondays" in git(
        ws.root, "show", "HEAD:" + str(report.relative_to(ws.root))
    )
    assert "DREAMS.md" not in git(ws.root, "ls-files").split()
    assert git(ws.root, "status", "--porcelain") == ""


def test_links_scratch_files_other_hidden_folders_and_large_files_stay_out(
    ws: Workspace,
) -> None:
    notes = ws.root / "memory"
    (notes / "dreaming").mkdir()
    (notes / ".obsidian").mkdir()
    (notes / ".obsidian" / "app.json").write_text("{}\n")
    (notes / "dreaming" / ".report.md.swp").write_text("x")
    (notes / "dreaming" / "draft.md~").write_text("x")
    (notes / "dreaming" / "outside.md").symlink_to(ws.root.parent / "elsewhere.md")
    (notes / "dreaming" / "huge.log").write_bytes(b"x" * (BACKUP_MAX_BYTES + 1))
    (notes / "dreaming" / "kept.md").write_text("- kept\n")
    result = ws.record()
    assert git(ws.root, "ls-files", "memory").split() == ["memory/dreaming/kept.md"]
    assert any("huge.log is over 5 MB" in w for w in result.warnings)
    assert any("outside.md is a symlink" in w for w in result.warnings)


def test_is_backup(ws: Workspace) -> None:
    config = ws.config
    assert TOP_BACKUPS == ("DREAMS.md",)
    for rel, expected in [
        ("DREAMS.md", True),
        ("memory/dreaming/2026-01-04.md", True),
        ("memory/important/a/b/c.md", True),
        ("memory/.dreams/state.json", True),
        ("memory/archive/2025-01-01.md", True),
        ("memory/2026-01-04.md", False),  # a note
        ("memory/README.md", False),  # the folder's own file: not a sub-folder
        ("memory/.obsidian/app.json", False),
        ("memory/dreaming/.dreams/x.json", False),  # hidden below the top
        ("memory/dreaming/.x.swp", False),
        ("memory/dreaming/x.tmp", False),
        ("notes/dreaming/x.md", False),
        ("memory/DREAMS.md", False),
    ]:
        assert is_backup(config, rel) is expected, rel
