"""gardener.files.flock: both lock kinds exclude other processes, time out and
release; the whole note path runs where fcntl and os.pread are missing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gardener import Workspace
from gardener.files import flock

KINDS = [flock.Flocks, flock.Portalocks]  # Portalocks: Windows's, run here too

HOLDER = r"""
import os, sys
from gardener.files import flock
kind = getattr(flock, sys.argv[2])()
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | flock.OPEN_FLAGS, 0o644)
assert kind.lock(fd)
print("held", flush=True)
sys.stdin.readline()  # hold until told
kind.close(fd)
print("released", flush=True)
sys.stdin.readline()
"""


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
def test_a_lock_held_by_another_process_waits_times_out_then_is_taken(
    tmp_path: Path, kind: type[flock.Flocks | flock.Portalocks]
) -> None:
    path = tmp_path / "note.md"
    path.write_text("- one\n")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), kind.__name__],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline() == "held\n"
        locks = kind()
        fd = os.open(path, os.O_RDONLY | flock.OPEN_FLAGS)
        try:
            assert not locks.lock(fd, timeout=0)
            started = time.monotonic()
            assert not locks.lock(fd, timeout=0.3)
            assert time.monotonic() - started >= 0.3
            holder.stdin.write("\n")
            holder.stdin.flush()
            assert holder.stdout.readline() == "released\n"
            assert locks.lock(fd, timeout=10)
            assert flock.pread(fd, 5, 2) == b"one\n"
        finally:
            locks.close(fd)
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.wait(timeout=30) == 0
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
def test_a_waiter_without_a_timeout_gets_the_lock_when_its_owner_dies(
    tmp_path: Path, kind: type[flock.Flocks | flock.Portalocks]
) -> None:
    path = tmp_path / "gardener.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), kind.__name__],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline() == "held\n"
    locks = kind()
    fd = os.open(path, os.O_RDWR | flock.OPEN_FLAGS)
    try:
        assert not locks.lock(fd, timeout=0)
        holder.kill()  # SIGKILL: the kernel drops its lock
        holder.wait()
        assert locks.lock(fd)
    finally:
        locks.close(fd)


APPENDER = r"""
import sys
from gardener.files import append, flock
flock.LOCKS = flock.Portalocks()  # the Windows kind, on every lock of this process
for n in range(int(sys.argv[3])):
    append.append_entry(sys.argv[1], f"- {sys.argv[2]} line {n} " + "x" * 300)
"""


def test_concurrent_appends_under_the_portalocker_locks_lose_no_line(
    tmp_path: Path,
) -> None:
    (tmp_path / ".git").mkdir()
    note = tmp_path / "memory" / "2026-03-01.md"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", APPENDER, str(note), f"w{w}", "40"],
        )
        for w in range(4)
    ]
    assert [w.wait(timeout=120) for w in writers] == [0] * 4
    lines = note.read_text().splitlines()
    assert len(lines) == 160
    assert sorted(lines) == sorted(
        f"- w{w} line {n} " + "x" * 300 for w in range(4) for n in range(40)
    )


# A Windows-like interpreter: gardener's own ``import fcntl`` fails (portalocker,
# which has no Windows here, may still use it) and the calls Windows lacks are gone.
WINDOWS_LIKE = r"""
import builtins, os, sys
real_import = builtins.__import__

def no_fcntl(name, globals=None, locals=None, fromlist=(), level=0):
    importer = (globals or {}).get("__name__") or ""
    if name == "fcntl" and importer.split(".")[0] == "gardener":
        raise ImportError("No module named 'fcntl'")
    return real_import(name, globals, locals, fromlist, level)

builtins.__import__ = no_fcntl
for name in ("pread", "pwrite", "fchmod", "O_CLOEXEC", "O_DIRECTORY"):
    delattr(os, name)
os.supports_dir_fd = set()  # Windows has no dir_fd
sys.argv = ["gardener", *sys.argv[1:]]
from gardener.cli.fast import main
from gardener.files import flock
assert flock.fcntl is None and isinstance(flock.LOCKS, flock.Portalocks)
main()
"""


def _windows_like(root: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "GARDENER_WORKSPACE": str(root)}
    return subprocess.Popen(
        [sys.executable, "-c", WINDOWS_LIKE, *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _ok(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return out


def test_note_recall_record_and_check_run_without_fcntl(tmp_path: Path) -> None:
    ws, _ = Workspace.init(tmp_path / "ws")
    _ok(_windows_like(ws.root, "note", "the cat is called Miso"))
    notes = [_windows_like(ws.root, "note", f"fact {n}: blue {n}") for n in range(4)]
    for proc in notes:
        _ok(proc)
    assert "Miso" in _ok(_windows_like(ws.root, "recall", "cat"))
    (ws.root / "MEMORY.md").write_text(
        (ws.root / "MEMORY.md").read_text() + "\nhand-written line\n"
    )
    _ok(_windows_like(ws.root, "record"))
    _ok(_windows_like(ws.root, "check"))
    note = next((ws.root / "memory").glob("*.md")).read_text()
    assert note.count("\n- ") == 5 and "\r" not in note
    assert all(f"fact {n}: blue {n}" in note for n in range(4))
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=ws.root, capture_output=True, text=True
    )
    assert status.stdout == ""


def test_the_mcp_server_starts_and_notes_without_fcntl(tmp_path: Path) -> None:
    """Claude Desktop on Windows: the server a host starts over stdio answers
    tools/list and commits a note where fcntl and os.pread are missing."""
    import anyio
    from mcp import Client, StdioServerParameters

    ws, _ = Workspace.init(tmp_path / "ws")
    host = StdioServerParameters(
        command=sys.executable,
        args=["-c", WINDOWS_LIKE, "-w", str(ws.root), "mcp"],
        env=dict(os.environ),
    )

    async def main() -> None:
        async with Client(host, mode="legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert "memory_note" in names
            done = await client.call_tool("memory_note", {"text": "the cat is Miso"})
            assert not done.is_error, done.content

    anyio.run(main)
    log = subprocess.run(
        ["git", "log", "-1", "-p", "--format=%s"],
        cwd=ws.root,
        capture_output=True,
        text=True,
    )
    assert "the cat is Miso" in log.stdout
