"""Running git: failures show the command, the repository is pinned, index.lock is waited for,
paths are literal and relative."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.errors import GardenerError, LockError
from gardener.files.lock import process_ended
from gardener.git.repo import Repo
from gardener.git.run import relative_paths
from tests.git.helpers import head_files, write


def test_git_failure_shows_command_and_stderr(repo: Repo) -> None:
    write(repo, "MEMORY.md", "m\n")
    (repo.root / ".git" / "index").write_bytes(b"garbage, not an index")
    with pytest.raises(GardenerError) as info:
        repo.commit(["MEMORY.md"], "m")
    message = str(info.value)
    assert "`git " in message and "index" in message and "failed (exit" in message


def test_inherited_git_dir_is_ignored(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As inside a git hook of another repository.
    other = tmp_path / "other"
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    write(repo, "MEMORY.md", "m\n")
    assert repo.commit(["MEMORY.md"], "m") is not None
    monkeypatch.delenv("GIT_DIR")
    monkeypatch.delenv("GIT_INDEX_FILE")
    assert head_files(repo) == [b"MEMORY.md"]
    assert not (other / ".git" / "index").exists()


def _hold(lock: Path, seconds: float) -> subprocess.Popen[bytes]:
    """A live process holding ``lock`` open for ``seconds``, then removing it,
    as git does; started once it holds it."""
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import os, sys, time; f = open(sys.argv[1], 'w'); print('ok', flush=True); "
         "time.sleep(float(sys.argv[2])); os.unlink(sys.argv[1])",
         str(lock), str(seconds)],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    assert holder.stdout is not None and holder.stdout.readline() == b"ok\n"
    return holder


def test_busy_index_lock_is_waited_for(repo: Repo) -> None:
    lock = repo.root / ".git" / "index.lock"
    write(repo, "MEMORY.md", "m\n")
    holder = _hold(lock, 0.4)
    started = time.monotonic()
    assert repo.commit(["MEMORY.md"], "m") is not None
    assert time.monotonic() - started >= 0.25
    holder.wait()
    assert repo.notices == []


@pytest.mark.parametrize("age", [0, 3600], ids=["new", "an-hour-old"])
def test_an_index_lock_no_process_holds_is_removed_with_a_notice(
    repo: Repo, age: int
) -> None:
    lock = repo.root / ".git" / "index.lock"
    lock.write_bytes(b"")
    old = time.time() - age
    os.utime(lock, (old, old))
    write(repo, "MEMORY.md", "m\n")
    started = time.monotonic()
    assert repo.commit(["MEMORY.md"], "m") is not None
    assert time.monotonic() - started < 3
    assert repo.notices == [
        f"removed {lock}: no live process holds it (a killed git command left it)"
    ]


def test_the_index_lock_of_a_killed_git_left_a_zombie_is_removed(repo: Repo) -> None:
    """A process killed with SIGKILL and not reaped yet (a zombie) holds nothing."""
    lock = repo.root / ".git" / "index.lock"
    holder = _hold(lock, 60)
    os.kill(holder.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while not process_ended(holder.pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    state = Path(f"/proc/{holder.pid}/stat").read_bytes().rsplit(b")", 1)[1][1:2]
    assert state == b"Z"  # not reaped: still a zombie
    try:
        write(repo, "MEMORY.md", "m\n")
        assert repo.commit(["MEMORY.md"], "m") is not None
        assert len(repo.notices) == 1 and not lock.exists()
    finally:
        holder.wait()


def test_a_live_gits_index_lock_is_never_removed(repo: Repo) -> None:
    """``git commit -a`` waiting for its editor holds index.lock, closed."""
    write(repo, "MEMORY.md", "m\n")
    repo.commit(["MEMORY.md"], "m")
    write(repo, "MEMORY.md", "m2\n")
    env = os.environ | {"GIT_EDITOR": "sleep 30; :", "GIT_AUTHOR_NAME": "t",
                        "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    git = subprocess.Popen(["git", "-C", str(repo.root), "commit", "-a"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)  # fmt: skip
    lock = repo.root / ".git" / "index.lock"
    try:
        deadline = time.monotonic() + 10
        while not lock.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert lock.exists()
        write(repo, "rules.md", "r\n")
        repo.lock_timeout = 1.5
        with pytest.raises(LockError, match="held by process"):
            repo.commit(["rules.md"], "r")
        assert lock.exists() and repo.notices == []
    finally:
        os.killpg(git.pid, signal.SIGKILL)  # git and its editor
        git.wait()


def _relative_paths_by_pathlib(paths: list[str]) -> list[str]:
    """``relative_paths`` as it was written with PurePosixPath."""
    result: list[str] = []
    for path in paths:
        pure = PurePosixPath(path)
        if not path or pure.is_absolute() or ".." in pure.parts:
            raise GardenerError(f"not a workspace-relative POSIX path: {path!r}")
        rel = pure.as_posix()
        if rel == ".":
            raise GardenerError("refusing to use the whole workspace as a path")
        if rel not in result:
            result.append(rel)
    return result


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="/.a", max_size=8), max_size=3))
def test_relative_paths_are_read_as_pathlib_reads_them(paths: list[str]) -> None:
    def outcome(check: Callable[[list[str]], list[str]]) -> list[str] | str:
        try:
            return check(paths)
        except GardenerError as e:
            return str(e)

    assert outcome(relative_paths) == outcome(_relative_paths_by_pathlib)
