"""gardener.files.atomic: a write replaces the file whole or leaves it as it was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gardener.errors import GardenerError
from gardener.files.append import append_entry
from gardener.files.atomic import atomic_write, atomic_write_pieces

PROJECT = Path(__file__).resolve().parents[2]


def test_atomic_write_round_trip_and_mode(root: Path) -> None:
    path = root / "MEMORY.md"
    path.write_text("old\n")
    path.chmod(0o640)
    text = "\ufeff# Memory\r\n- **k**: v\r\nno final newline"
    atomic_write(path, text)
    assert path.read_bytes() == text.encode("utf-8")
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in root.iterdir()) == [".git", "MEMORY.md"]


def test_atomic_write_surrogates_round_trip(root: Path) -> None:
    raw = b"ok \xff\xfe bytes\n"
    path = root / "x.md"
    atomic_write(path, raw.decode("utf-8", "surrogateescape"))
    assert path.read_bytes() == raw


def test_pieces_write_what_their_join_writes(root: Path) -> None:
    # the journal's way: each piece encoded as it comes, surrogates as bytes
    path = root / ".git" / "pending.json"
    pieces = ['{"a": ', '"x\udcff"', "}", "", "\n\u00e9"]
    path.parent.mkdir(exist_ok=True)
    path.write_text("old")
    path.chmod(0o600)
    atomic_write_pieces(path, iter(pieces), root=root)
    assert path.read_bytes() == "".join(pieces).encode("utf-8", "surrogateescape")
    assert path.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["pending.json"]


def test_atomic_write_creates_folders(root: Path) -> None:
    atomic_write(root / "memory" / "2026-01-01.md", "- a\n")
    assert (root / "memory" / "2026-01-01.md").read_text() == "- a\n"


def test_atomic_write_refuses_outside(root: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    (root / "memory").mkdir()
    (root / "memory" / "2026-01-01.md").symlink_to(victim)
    with pytest.raises(GardenerError, match="symlink"):
        atomic_write(root / "memory" / "2026-01-01.md", "owned\n")
    with pytest.raises(GardenerError, match="outside"):
        atomic_write(root / ".." / "victim.txt", "owned\n")
    with pytest.raises(GardenerError, match="outside"):
        append_entry(root / "memory" / "2026-01-01.md", "- owned")
    assert victim.read_text() == "keep\n"


def test_atomic_write_through_symlink_inside(root: Path) -> None:
    (root / "real.md").write_text("old\n")
    (root / "MEMORY.md").symlink_to("real.md")
    atomic_write(root / "MEMORY.md", "new\n")
    assert (root / "MEMORY.md").is_symlink()
    assert (root / "real.md").read_text() == "new\n"


_FILL_UP = """
import resource, signal, sys
from pathlib import Path
from gardener.files.atomic import atomic_write, atomic_write_pieces
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))
try:
    atomic_write(Path(sys.argv[1]), "x" * 1_000_000)
except Exception as e:
    print(type(e).__name__, e)
    sys.exit(3)
"""


def test_atomic_write_failing_midway_keeps_old_file(root: Path) -> None:
    # The kernel refuses writes past 4 KiB (RLIMIT_FSIZE): the temp file fills
    # up half way, as on a full disk. Works as root too, unlike chmod.
    path = root / "MEMORY.md"
    path.write_text("old content\n")
    env = dict(os.environ, PYTHONPATH=str(PROJECT))
    done = subprocess.run(
        [sys.executable, "-c", _FILL_UP, str(path)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout.startswith("GardenerError") and "File too large" in done.stdout
    assert path.read_text() == "old content\n"
    assert sorted(p.name for p in root.iterdir()) == [".git", "MEMORY.md"]


def test_atomic_write_failing_at_replace_keeps_target(root: Path) -> None:
    # The target is a folder: the temp file is complete but os.replace fails.
    (root / "MEMORY.md").mkdir()
    (root / "MEMORY.md" / "keep").write_text("k")
    with pytest.raises(GardenerError, match="could not write"):
        atomic_write(root / "MEMORY.md", "new\n")
    assert (root / "MEMORY.md" / "keep").read_text() == "k"
    assert sorted(p.name for p in root.iterdir()) == [".git", "MEMORY.md"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_atomic_write_unwritable_folder(root: Path) -> None:
    path = root / "MEMORY.md"
    path.write_text("old\n")
    root.chmod(0o555)
    try:
        with pytest.raises(GardenerError):
            atomic_write(path, "new\n")
    finally:
        root.chmod(0o755)
    assert path.read_text() == "old\n"
