"""gardener.files.read: UTF-8 reads byte for byte, errors naming file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from gardener.errors import ParseError
from gardener.files.read import read_files, read_text


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
