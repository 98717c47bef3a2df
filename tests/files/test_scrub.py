"""files.scrub: a replace that keeps what others append, also across a kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from gardener.files.scrub import finish_carries, replace_carrying

CHILD = """
import sys
from pathlib import Path
from gardener.files.scrub import replace_carrying
root, hold = Path(sys.argv[1]), Path(sys.argv[2])
replace_carrying(root / "memory" / "n.md", lambda b: b.replace(b"Zorblax", b"[PURGED]"), root, hold)
"""


def edit(data: bytes) -> bytes:
    return data.replace(b"Zorblax", b"[PURGED]")


def note(root: Path, text: bytes) -> Path:
    path = root / "memory" / "n.md"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(text)
    return path


def test_a_line_appended_between_the_rename_and_a_kill_is_carried_by_the_rerun(
    root: Path,
):
    """A writer that opened the note before the rename writes to the old
    file; the purge is SIGKILLed before it carries that over: the rerun's
    ``finish_carries`` appends it (before: the old file had no name left)."""
    path = note(root, b"- 09:00 Zorblax is the codename\n" * 2000)
    hold = root / ".git" / "gardener-carry"
    old = os.stat(path).st_ino
    writer = os.open(path, os.O_WRONLY | os.O_APPEND)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(root), str(hold)])
    try:
        deadline = time.monotonic() + 20
        while os.stat(path).st_ino == old:  # the rename: the carry-over's wait begins
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.0005)
        os.kill(child.pid, signal.SIGSTOP)
        os.write(writer, b"- 09:01 late line about Zorblax\n")
        os.kill(child.pid, signal.SIGKILL)
    finally:
        os.close(writer)
        child.wait()
    assert finish_carries(hold, root, edit) == ["memory/n.md"]
    text = path.read_bytes()
    assert text.endswith(b"- 09:01 late line about [PURGED]\n")
    assert text.count(b"late line") == 1 and b"Zorblax" not in text
    assert not hold.exists()


def test_a_kill_before_the_rename_carries_nothing(root: Path):
    """The link made, the file not replaced yet: same inode, only dropped."""
    path = note(root, b"- Zorblax\n")
    hold = root / ".git" / "gardener-carry"
    hold.mkdir()
    os.link(path, hold / "1")
    (hold / "1.json").write_text(json.dumps({"path": "memory/n.md", "seen": 3}))
    assert finish_carries(hold, root, edit) == []
    assert path.read_bytes() == b"- Zorblax\n" and not hold.exists()


def test_a_kill_after_the_append_before_the_record_does_not_append_twice(root: Path):
    old = note(root, b"- Zorblax\n- late Zorblax\n")
    hold = root / ".git" / "gardener-carry"
    hold.mkdir()
    os.link(old, hold / "1")
    (hold / "1.json").write_text(json.dumps({"path": "memory/n.md", "seen": 10}))
    old.unlink()
    note(root, b"- [PURGED]\n- late [PURGED]\n")  # carried, record not updated
    assert finish_carries(hold, root, edit) == []
    assert old.read_bytes() == b"- [PURGED]\n- late [PURGED]\n"


def test_an_unkilled_replace_leaves_no_held_file(root: Path):
    path = note(root, b"- Zorblax one\n")
    hold = root / ".git" / "gardener-carry"
    assert replace_carrying(path, edit, root, hold) == 0
    assert path.read_bytes() == b"- [PURGED] one\n"
    assert not any(hold.iterdir())
    assert finish_carries(hold, root, edit) == [] and not hold.exists()
