"""bench.secrets: our own halves, and a held-out half whose misses are never listed.

The files are our own toy rows, written into a scratch data folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.secrets import corpus
from bench.secrets.__main__ import scores

_ROWS = {
    "own.tsv": "# a and b by CRC\n1\ten\tx\tthe wifi password is Kq7vLp2Zr9\n",
    "own-c.tsv": "1\ten\t\tnothing secret here at all\n",
    "own-d.tsv": "1\tfr\t\tune ligne sans rien\n",
    "own-e.tsv": "1\tde\t\teine ganz harmlose Zeile\n0\tde\t\tnoch eine Zeile\n",
}


def _data(tmp: Path, names: tuple[str, ...]) -> Path:
    for name in names:
        (tmp / name).write_text(_ROWS[name], encoding="utf-8")
    return tmp


def test_half_e_is_skipped_when_its_file_is_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ("own.tsv", "own-c.tsv", "own-d.tsv")
    monkeypatch.setattr(corpus, "DATA", _data(tmp_path, names))
    halves = {c.half for c in corpus.load() if c.source == "own"}
    assert halves == {None, "c", "d"}


def test_half_c_and_d_misses_are_listed_half_e_misses_never(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus, "DATA", _data(tmp_path, tuple(_ROWS)))
    table = scores([c for c in corpus.load() if c.source == "own"])
    assert table["own/c"].missed == ["nothing secret here at all"]
    assert table["own/d"].missed == ["une ligne sans rien"]
    # half e has its own row (recall, false refusals) and lists nothing
    e = table["own/e"]
    assert (e.secrets, e.refused, e.negatives) == (1, 0, 1)
    assert e.missed == [] and e.falsely_refused == []
    assert "eine ganz harmlose Zeile" not in table["own"].missed
    assert "eine ganz harmlose Zeile" not in table["own:de"].missed
