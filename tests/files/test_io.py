"""Tests for gardener.files (read, atomic, append, lock, layout): real files, real processes."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from datetime import date
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.errors import GardenerError, LockError, NotAWorkspaceError, ParseError
from gardener.files.append import append_entry
from gardener.files.atomic import atomic_write
from gardener.files.layout import (
    absolute,
    exists,
    inside,
    is_dir,
    is_file,
    is_symlink,
    note_date,
    note_files,
    path_text,
)
from gardener.files.lock import workspace_lock
from gardener.files.read import read_files, read_text

PROJECT = Path(__file__).resolve().parents[2]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace folder: the only git thing this module needs is a .git folder."""
    (tmp_path / "ws" / ".git").mkdir(parents=True)
    return tmp_path / "ws"


# -- names -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("2026-11-29.md", date(2026, 11, 29)),
        ("2026-11-29-standup.md", date(2026, 11, 29)),
        ("2026-11-29-0930.md", date(2026, 11, 29)),
        ("2026-11-29_design review.md", date(2026, 11, 29)),
        ("2026-02-30.md", None),
        ("2026-13-01.md", None),
        ("0000-01-01.md", None),
        ("2026-11-29.txt", None),
        ("2026-11-29.md\n", None),
        ("2026-11-29x.md", None),
        ("notes.md", None),
        ("\u0662\u0660\u0662\u0666-01-01.md", None),  # Arabic-Indic digits
    ],
)
def test_note_date(name: str, expected: date | None) -> None:
    assert note_date(name) == expected


def test_note_files_sorted_flat_and_safe(root: Path, tmp_path: Path) -> None:
    notes = root / "memory"
    (notes / "archive").mkdir(parents=True)
    for name in [
        "2026-01-02.md",
        "2026-01-01_b.md",
        "2026-01-01.md",
        "2026-01-01-a.md",
    ]:
        (notes / name).write_text("- x\n")
    (notes / "archive" / "2025-01-01.md").write_text("- old\n")
    (notes / "2026-02-30.md").write_text("- bad date\n")
    (notes / "state.json").write_text("{}")
    (notes / "2026-01-03.md").mkdir()  # a folder with a note's name
    outside = tmp_path / "elsewhere.md"
    outside.write_text("- secret\n")
    (notes / "2026-01-04.md").symlink_to(outside)
    (notes / "2026-01-05.md").symlink_to(notes / "2026-01-01.md")

    names = [p.name for p in note_files(root)]
    assert names == [
        "2026-01-01-a.md",
        "2026-01-01.md",
        "2026-01-01_b.md",
        "2026-01-02.md",
        "2026-01-05.md",
    ]
    assert note_files(root, "missing") == []


def test_note_files_refuses_notes_dir_outside(root: Path, tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "2026-01-01.md").write_text("- x\n")
    (root / "memory").symlink_to(tmp_path / "out")
    assert note_files(root) == []


def test_inside(root: Path, tmp_path: Path) -> None:
    assert inside(root, root / "memory" / "x.md")
    assert inside(root, Path("memory/x.md"))
    assert inside(root, root)
    assert not inside(root, root / ".." / "x.md")
    assert not inside(root, tmp_path / "wsx")
    (root / "link").symlink_to(tmp_path)
    assert not inside(root, root / "link" / "x.md")
    (root / "loop").symlink_to(root / "loop")
    assert not inside(root, root / "loop")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="/.ab", max_size=12))
def test_paths_are_spelled_as_pathlib_spells_them(text: str) -> None:
    # the note path uses these instead of pathlib (~6 ms to import)
    assert path_text(text) == path_text(PurePosixPath(text)) == str(PurePosixPath(text))
    assert absolute(text) == absolute(Path(text)) == str(Path(text).absolute())


def test_file_kinds_are_told_as_pathlib_tells_them(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "dir").mkdir()
    (tmp_path / "to-file").symlink_to("file")
    (tmp_path / "to-dir").symlink_to("dir")
    (tmp_path / "dangling").symlink_to("missing")
    (tmp_path / "loop").symlink_to("loop")
    names = ["file", "dir", "to-file", "to-dir", "dangling", "loop", "missing"]
    names += ["file/below", "nul\0name", ""]
    for name in names:
        path = tmp_path / name if name else tmp_path
        text = os.path.join(tmp_path, name)
        assert exists(text) == path.exists(), name
        assert is_file(text) == path.is_file(), name
        assert is_dir(text) == path.is_dir(), name
        assert is_symlink(text) == path.is_symlink(), name


# -- reads -------------------------------------------------------------------


def test_read_text_keeps_bom_and_crlf(root: Path) -> None:
    raw = "\ufeff# Notes\r\n- caf\u00e9 \u6771\u4eac \U0001f331".encode()
    path = root / "n.md"
    path.write_bytes(raw)
    text = read_text(path)
    assert text.startswith("\ufeff") and "\r\n" in text
    assert text.encode("utf-8") == raw


def test_read_text_invalid_utf8_names_file_and_line(root: Path) -> None:
    path = root / "bad.md"
    path.write_bytes(b"line one\nline two\nabc \xff def\n")
    with pytest.raises(ParseError) as info:
        read_text(path)
    assert info.value.line == 3
    assert info.value.path == str(path)
    assert "bad.md:3:" in str(info.value) and "0xff" in str(info.value)


def test_read_text_missing(root: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_text(root / "nope.md")


# -- atomic writes -------------------------------------------------------------


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
from gardener.files.atomic import atomic_write
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


# -- appends -----------------------------------------------------------------


def test_append_creates_file_and_folder(root: Path) -> None:
    path = root / "memory" / "2026-01-01.md"
    append_entry(path, "- first")
    append_entry(path, "- second\n")
    append_entry(path, "")
    assert path.read_bytes() == b"- first\n- second\n\n"


def test_append_adds_missing_final_newline(root: Path) -> None:
    path = root / "n.md"
    path.write_bytes(b"# Day\n- no newline at end")
    append_entry(path, "- next")
    assert path.read_bytes() == b"# Day\n- no newline at end\n- next\n"


def test_append_keeps_crlf(root: Path) -> None:
    path = root / "n.md"
    path.write_bytes(b"\xef\xbb\xbf# Day\r\n- a")
    append_entry(path, "- b")
    append_entry(path, "- c\n  - nested")
    assert (
        path.read_bytes() == b"\xef\xbb\xbf# Day\r\n- a\r\n- b\r\n- c\r\n  - nested\r\n"
    )


def test_append_crlf_detected_past_first_chunk(root: Path) -> None:
    path = root / "n.md"
    path.write_bytes(b"x" * 65535 + b"\r\n")  # the \r ends the first 64 KiB read
    append_entry(path, "- y")
    assert path.read_bytes().endswith(b"\r\n- y\r\n")


def test_append_after_replace_goes_to_new_file(root: Path) -> None:
    path = root / "n.md"
    append_entry(path, "- a")
    atomic_write(path, "- a\n- redacted\n")
    append_entry(path, "- b")
    assert path.read_text() == "- a\n- redacted\n- b\n"


def _append_many(path: str, worker: int, count: int, start: object) -> None:
    start.wait()  # type: ignore[attr-defined]
    for i in range(count):
        # Long lines: a non-atomic append would split them.
        append_entry(Path(path), f"- w{worker:02d} n{i:03d} " + "abcdefgh" * 300)


def test_concurrent_appends_never_interleave(root: Path) -> None:
    path = root / "memory" / "2026-01-01.md"
    path.parent.mkdir()
    path.write_bytes(b"# Day")  # no final newline: added exactly once
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [
        ctx.Process(target=_append_many, args=(str(path), w, 50, start))
        for w in range(8)
    ]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    lines = path.read_text().split("\n")
    assert lines[0] == "# Day" and lines[-1] == ""
    body = lines[1:-1]
    expected = {
        f"- w{w:02d} n{i:03d} " + "abcdefgh" * 300 for w in range(8) for i in range(50)
    }
    assert len(body) == 400
    assert set(body) == expected


# -- workspace lock ------------------------------------------------------------


def _try_lock(root: str, queue: object) -> None:
    try:
        with workspace_lock(Path(root), timeout=0.2):
            queue.put("acquired")  # type: ignore[attr-defined]
    except LockError as e:
        queue.put(f"LockError: {e}")  # type: ignore[attr-defined]


def test_workspace_lock_excludes_another_process(root: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    with workspace_lock(root, timeout=1):
        assert (root / ".git" / "gardener.lock").read_text() == f"{os.getpid()}\n"
        child = ctx.Process(target=_try_lock, args=(str(root), queue))
        child.start()
        result = queue.get(timeout=60)
        child.join(timeout=60)
    assert result.startswith("LockError")
    assert f"pid {os.getpid()}" in result and "gardener.lock" in result

    child = ctx.Process(target=_try_lock, args=(str(root), queue))
    child.start()
    assert queue.get(timeout=60) == "acquired"
    child.join(timeout=60)


def test_workspace_lock_reentrant_in_thread(root: Path) -> None:
    with workspace_lock(root, timeout=0.1), workspace_lock(root, timeout=0.1):
        pass
    with workspace_lock(root, timeout=0.1):
        pass


def test_workspace_lock_excludes_other_threads_and_is_released_on_errors(
    root: Path,
) -> None:
    import threading

    results: list[str] = []

    def other() -> None:
        try:
            with workspace_lock(root, timeout=0.2):
                results.append("acquired")
        except LockError:
            results.append("LockError")

    def in_a_thread() -> None:
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()

    with workspace_lock(root, timeout=1) as notice:
        assert notice is None
        with pytest.raises(RuntimeError), workspace_lock(root, timeout=0.1):
            raise RuntimeError("re-entered, then failed: the outer one still holds it")
        in_a_thread()
    assert results == ["LockError"]
    assert (root / ".git" / "gardener.lock").read_text() == ""  # released
    with pytest.raises(RuntimeError), workspace_lock(root, timeout=0.1):
        raise RuntimeError("failed: released all the same")
    in_a_thread()
    assert results == ["LockError", "acquired"]


def test_workspace_lock_needs_git_folder(tmp_path: Path) -> None:
    with (
        pytest.raises(NotAWorkspaceError, match="gardener init"),
        workspace_lock(tmp_path),
    ):
        pass


def test_read_files_reads_each_named_file_in_order(tmp_path: Path):
    (tmp_path / "b.md").write_bytes(b"bee\r\n")
    (tmp_path / "a.md").write_bytes(b"\xff not utf-8")
    assert list(read_files(tmp_path, ["b.md", "a.md"])) == [
        ("b.md", b"bee\r\n"),
        ("a.md", b"\xff not utf-8"),
    ]
    assert list(read_files(tmp_path / "missing", [])) == []
    with pytest.raises(FileNotFoundError):
        list(read_files(tmp_path, ["gone.md"]))


@settings(max_examples=200, deadline=None)
@given(
    st.none() | st.text(alphabet="ab \r\n\té", max_size=30),
    st.text(alphabet="xy \r\n", min_size=1, max_size=12),
)
def test_appended_text_is_what_append_entry_writes(
    tmp_path_factory: pytest.TempPathFactory, text: str | None, line: str
) -> None:
    from gardener.files.append import appended_text

    folder = tmp_path_factory.mktemp("ws")
    (folder / ".git").mkdir()
    path = folder / "note.md"
    if text is not None:
        path.write_bytes(text.encode())
    append_entry(path, line)
    assert path.read_bytes().decode() == appended_text(text, line)
