"""gardener.files.append: one entry onto a daily note, its newline style kept, never interleaved."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.files.append import append_entry
from gardener.files.atomic import atomic_write


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
