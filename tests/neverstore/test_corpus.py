"""The corpus files: the escapes README.md documents, and a header per file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.neverstore import corpus


def test_escapes_are_read_as_documented(tmp_path: Path) -> None:
    (tmp_path / "x.tsv").write_text(
        "# a comment\ntext\tnote\n\\#1\\t2\\n3\\r\\\\\tplain\n\n", encoding="utf-8"
    )
    assert corpus.load("x", "text", "note", folder=tmp_path) == [
        ("#1\t2\n3\r\\", "plain")
    ]
    (tmp_path / "y.tsv").write_text("text\n\\q\n", encoding="utf-8")
    with pytest.raises(KeyError):
        corpus.load("y", "text", folder=tmp_path)


@pytest.mark.parametrize(
    "path", sorted(corpus.DATA.glob("*.tsv")), ids=lambda p: p.name
)
def test_each_file_names_its_source_and_its_columns(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert any(line.startswith("# source:") for line in lines)
    header = next(line for line in lines if line and not line.startswith("#"))
    assert header.split("\t")[0] == "text"
