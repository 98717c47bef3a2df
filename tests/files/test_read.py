"""gardener.files.read: UTF-8 reads byte for byte, errors naming file and line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gardener.errors import GardenerError, ParseError
from gardener.files.read import not_text, read_files, read_head, read_text, utf8_error


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


def _decode_error(data: bytes) -> int:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return -1


def test_utf8_errors_are_found_where_decode_finds_them_across_pieces() -> None:
    # a MB a time: characters cut by the piece boundary, bad bytes on both
    # sides of it, a cut character at the very end
    mb = 1 << 20
    for pad in range(mb - 4, mb + 1):
        for tail in ("€𝄞é".encode(), b"\xe2\x82", b"\xff", b"\x80abc", b"\xf0\x9d\x84"):
            data = b"a" * pad + tail
            assert utf8_error(data) == _decode_error(data), (pad, tail)
    assert not_text(b"a" * mb + b"\n\xff") == (2, "byte 0xff, not UTF-8 at column 1")


def test_the_head_of_a_big_file_is_read_with_a_check_of_the_rest(root: Path) -> None:
    path = root / "big.md"
    path.write_bytes(b"---\nagent: a\n---\n" + b"x" * (3 << 20))
    head, size, utf8 = read_head(path, 10)
    assert (head, size, utf8) == (b"---\nagent:", (3 << 20) + 17, True)
    path.write_bytes(b"ok\n" + b"x" * (3 << 20) + b"\xc3")  # a cut character at the end
    assert read_head(path, 100)[2] is False
    fifo = root / "fifo.md"
    os.mkfifo(fifo)
    with pytest.raises(GardenerError, match="not a plain file"):
        read_head(fifo, 10)
