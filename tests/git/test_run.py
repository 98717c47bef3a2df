"""Running git: failures show the command, the repository is pinned, index.lock is waited for,
paths are literal and relative."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.errors import GardenerError, LockError
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


def test_busy_index_lock_is_waited_for(repo: Repo) -> None:
    lock = repo.root / ".git" / "index.lock"
    lock.write_bytes(b"")
    write(repo, "MEMORY.md", "m\n")
    timer = threading.Timer(0.3, lock.unlink)
    timer.start()
    started = time.monotonic()
    assert repo.commit(["MEMORY.md"], "m") is not None
    assert time.monotonic() - started >= 0.25
    timer.join()


def test_stale_index_lock_is_reported_not_removed(repo: Repo) -> None:
    lock = repo.root / ".git" / "index.lock"
    lock.write_bytes(b"")
    write(repo, "MEMORY.md", "m\n")
    repo.lock_timeout = 0.3
    with pytest.raises(LockError) as info:
        repo.commit(["MEMORY.md"], "m")
    message = str(info.value)
    assert (
        str(lock) in message and "no process holds it" in message and "rm " in message
    )
    assert lock.exists()


def test_held_index_lock_names_the_holder(repo: Repo) -> None:
    lock = repo.root / ".git" / "index.lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; f = open(sys.argv[1], 'w'); print('ok', flush=True); "
            "time.sleep(60)",
            str(lock),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"ok\n"
        write(repo, "MEMORY.md", "m\n")
        repo.lock_timeout = 0.3
        with pytest.raises(LockError, match=f"held by process {holder.pid}"):
            repo.commit(["MEMORY.md"], "m")
    finally:
        holder.kill()
        holder.wait()


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
