"""Settings and files that would break a workspace are refused at once, with
the file and line named, and nothing written (issue: nothing lost under any
setting): a backtracking never_store pattern, a memory file or notes folder
inside .git, a TTL of 0, a FIFO or a hard link where a note goes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gardener import Workspace

NOW = "2026-03-01T12:00"
TODAY = "memory/2026-03-01.md"


def gardener(
    root: Path, *args: str, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The real CLI in a subprocess; a hang fails the test (TimeoutExpired)."""
    env = {**os.environ, "GARDENER_NOW": NOW}
    return subprocess.run(
        [sys.executable, "-m", "gardener", "-w", str(root), *args],
        capture_output=True, text=True, timeout=timeout, env=env,
    )  # fmt: skip


@pytest.fixture
def root(tmp_path: Path) -> Path:
    Workspace.init(tmp_path / "ws", now_override=NOW)
    return tmp_path / "ws"


def set_rules(root: Path, *lines: str) -> None:
    """Put ``lines`` first in rules.md's front matter (the first on line 2),
    taking out the settings of the same names it already has."""
    rules = root / "rules.md"
    text = rules.read_text()
    assert text.startswith("---\n")
    names = {line.split(":")[0] + ":" for line in lines if not line.startswith(" ")}
    kept = [
        line for line in text[4:].splitlines(True) if not line.startswith(tuple(names))
    ]
    rules.write_text("---\n" + "".join(line + "\n" for line in lines) + "".join(kept))


def head(root: Path) -> str:
    return subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


def test_a_backtracking_never_store_pattern_is_refused_not_run(root):
    set_rules(root, "never_store:", "  runaway: '(a+)+$'")
    before = head(root)
    for args in (["note", "a" * 40 + "!"], ["promote"], ["recall", "aaaa"]):
        done = gardener(root, *args, timeout=30)
        assert done.returncode != 0, args
        assert "rules.md:2" in done.stderr and "exponential" in done.stderr, done.stderr
    assert not (root / TODAY).exists() and head(root) == before
    assert (
        "rules.md:2" in gardener(root, "check").stdout + gardener(root, "check").stderr
    )


@pytest.mark.parametrize(
    "line",
    ["memory_file: .git/config", "notes_dir: .git", "notes_dir: .git/refs/heads"],
)
def test_a_memory_file_or_notes_folder_inside_git_is_refused(root, line):
    config = (root / ".git" / "config").read_bytes()
    set_rules(root, line)
    done = gardener(root, "note", "we use Postgres for billing")
    assert done.returncode != 0 and "rules.md:2" in done.stderr, done.stderr
    done = gardener(root, "promote")
    assert done.returncode != 0 and ".git" in done.stderr
    assert (root / ".git" / "config").read_bytes() == config
    git = subprocess.run(["git", "-C", str(root), "status"], capture_output=True)
    assert git.returncode == 0


def test_a_ttl_of_zero_is_refused_before_any_note_is_deleted(root):
    (root / "memory" / "2026-02-20.md").write_text("# 2026-02-20\n\n- we met Ana\n")
    gardener(root, "promote")
    set_rules(root, "note_ttl_days: 0")
    done = gardener(root, "prune")
    assert done.returncode != 0 and "at least 1 day" in done.stderr, done.stderr
    assert (root / "memory" / "2026-02-20.md").exists()


def test_a_fifo_where_todays_note_goes_is_refused_at_once(root):
    os.mkfifo(root / TODAY)
    done = gardener(root, "note", "we use Postgres for billing", timeout=30)
    assert done.returncode != 0 and "2026-03-01.md" in done.stderr, done.stderr
    assert "plain file" in done.stderr


def test_a_fifo_among_the_notes_never_hangs_a_pass_nor_is_committed(root):
    os.mkfifo(root / "memory" / "2026-02-20.md")
    (root / "memory" / "2026-02-21.md").write_text("- we use Postgres for billing\n")
    for args in (["promote"], ["recall", "Postgres"], ["prune"], ["check"]):
        gardener(root, *args, timeout=30)  # a hang raises TimeoutExpired
    files = subprocess.run(
        ["git", "-C", str(root), "ls-files", "memory"], capture_output=True, text=True
    ).stdout.split()
    assert files == ["memory/2026-02-21.md"]


def test_a_hard_linked_note_is_never_appended_through(root, tmp_path):
    outside = tmp_path / "outside.md"
    outside.write_text("# not a note\n")
    os.link(outside, root / TODAY)
    done = gardener(root, "note", "we use Postgres for billing")
    assert done.returncode != 0 and "hard link" in done.stderr, done.stderr
    assert outside.read_text() == "# not a note\n"


def test_a_write_the_system_refuses_names_the_file(root):
    """A full disk (here: a file-size limit of 0 bytes, which fails writes the
    same way) gives an error naming the file, not ``gardener: : <errno>``."""
    import resource
    import signal

    def no_writes() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    env = {**os.environ, "GARDENER_NOW": NOW}
    done = subprocess.run(
        [sys.executable, "-m", "gardener", "-w", str(root), "promote"],
        capture_output=True, text=True, timeout=60, env=env, preexec_fn=no_writes,
    )  # fmt: skip
    assert done.returncode != 0
    assert "gardener.lock" in done.stderr and "File too large" in done.stderr, (
        done.stderr
    )


def test_a_deleted_begin_marker_is_reported_and_put_back_with_the_entries(root):
    for text in ("decision: **database**: Postgres", "fact: **host**: box1"):
        assert gardener(root, "note", text).returncode == 0
    assert gardener(root, "promote").returncode == 0
    memory = root / "MEMORY.md"
    whole = memory.read_text()
    memory.write_text(
        "".join(x for x in whole.splitlines(True) if "gardener:begin" not in x)
    )
    done = gardener(root, "check")
    assert done.returncode != 0 and "begin marker" in done.stdout + done.stderr
    assert gardener(root, "promote").returncode == 0
    assert memory.read_text() == whole  # put back; no second block
    assert gardener(root, "check").returncode == 0
