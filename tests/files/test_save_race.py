"""A person's save by rename (vim, VS Code, an agent's write-file tool) that
lands while the gardener replaces MEMORY.md is never overwritten: the
replacement checks, at the rename itself, that the file is still the one its
plan read (``gardener.files.atomic._place``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from gardener.files.atomic import _write, replace_if_unchanged


def save_by_rename(path: Path, text: str) -> None:
    """What an editor does: a new file beside, renamed over the old one."""
    temp = path.with_name(f".{path.name}.swp")
    temp.write_text(text)
    os.replace(temp, path)


def test_a_save_that_landed_after_the_check_is_kept(root: Path) -> None:
    memory = root / "MEMORY.md"
    memory.write_text("planned from this\n")
    fd = os.open(memory, os.O_RDONLY)  # the file the plan read
    try:
        save_by_rename(memory, "the person's save\n")  # after the check
        assert _write(str(memory), "the gardener's version\n", str(root), fd) is False
    finally:
        os.close(fd)
    assert memory.read_text() == "the person's save\n"
    assert sorted(p.name for p in root.iterdir()) == [
        ".git",
        "MEMORY.md",
    ]  # no temp left


def test_with_no_save_between_the_replacement_is_made(root: Path) -> None:
    memory = root / "MEMORY.md"
    memory.write_text("planned from this\n")
    memory.chmod(0o640)
    fd = os.open(memory, os.O_RDONLY)
    try:
        assert _write(str(memory), "new\n", str(root), fd) is True
    finally:
        os.close(fd)
    assert memory.read_text() == "new\n" and memory.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in root.iterdir()) == [".git", "MEMORY.md"]


SAVER = """
import os, sys, time
path, count = sys.argv[1], int(sys.argv[2])
for n in range(count):
    temp = path + ".swp"
    with open(temp, "w") as f:
        f.write(f"save {n}\\n")
    os.replace(temp, path)
    print(n, flush=True)
    time.sleep(0.0005)
"""


def test_saves_racing_replacements_are_never_lost(root: Path) -> None:
    """A saver renames 400 versions while replacements run: the last save is
    on disk, or a replacement that came after it, made from it."""
    memory = root / "MEMORY.md"
    memory.write_text("save -1\n")
    saver = subprocess.Popen(
        [sys.executable, "-c", SAVER, str(memory), "400"],
        stdout=subprocess.PIPE,
        text=True,
    )
    replaced = 0
    deadline = time.monotonic() + 30
    while saver.poll() is None and time.monotonic() < deadline:
        seen = memory.read_text()
        if replace_if_unchanged(memory, seen + "promoted\n", seen, root=root):
            replaced += 1
    saver.wait()
    final = memory.read_text()
    assert final == "save 399\n" or final.startswith("save 399\n")
    assert replaced > 0
