"""gardener.files.layout: note names and dates, staying inside the workspace, path spellings."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener import Workspace
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


@pytest.mark.now("2026-03-01T18:00")
@pytest.mark.parametrize(
    "verb", [["note", "x"], ["promote"], ["prune"], ["recall", "x"], ["check"]]
)
def test_a_file_where_the_notes_folder_goes_is_one_clear_error(
    ws: Workspace, run_cli, verb: list[str]
):
    """Every verb failed with the system's words ("File exists", "Not a
    directory" on a note path) and `check` said "no problems"."""
    import shutil

    shutil.rmtree(ws.root / "memory")
    (ws.root / "memory").write_text("hi\n", encoding="utf-8")
    out = run_cli("-w", str(ws.root), *verb, code=1)
    assert "memory is a file; the gardener needs a folder there" in out.output
    assert (ws.root / "memory").read_text(encoding="utf-8") == "hi\n"
