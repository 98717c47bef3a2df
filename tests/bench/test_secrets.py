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
    # by the salted CRC of ``corpus.part``: the first line is in e's held-out
    # third (e-check), the second and third in its tuned part
    "own-e.tsv": "1\tde\t\teine ganz harmlose Zeile\n1\tde\t\tgar nichts hier\n"
    "0\tde\t\tnoch eine Zeile\n",
    "own-f.tsv": "1\tsv\t\ten helt vanlig rad\n0\tsv\t\tännu en rad\n",
    "own-g.tsv": "1\tpl\t\tzwykła linijka\n0\tpl\t\tjeszcze jedna\n",
}


def _data(tmp: Path, names: tuple[str, ...]) -> Path:
    for name in names:
        (tmp / name).write_text(_ROWS[name], encoding="utf-8")
    return tmp


def test_half_g_is_skipped_when_its_file_is_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ("own.tsv", "own-c.tsv", "own-d.tsv", "own-e.tsv", "own-f.tsv")
    monkeypatch.setattr(corpus, "DATA", _data(tmp_path, names))
    halves = {c.half for c in corpus.load() if c.source == "own"}
    assert halves == {None, "c", "d", "e", "f"}
    table = scores([c for c in corpus.load() if c.source == "own"])
    assert "own/g" not in table


def test_e_check_and_g_misses_are_never_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus, "DATA", _data(tmp_path, tuple(_ROWS)))
    table = scores([c for c in corpus.load() if c.source == "own"])
    assert table["own/c"].missed == ["nothing secret here at all"]
    assert table["own/d"].missed == ["une ligne sans rien"]
    # e's tuned part and half f (tuned on since the sixth pass) list their
    # misses; e's held-out third and half g have their own rows (recall,
    # false refusals) and list nothing
    assert table["own/e"].missed == ["gar nichts hier"]
    assert table["own/f"].missed == ["en helt vanlig rad"]
    check, g = table["own/e-check"], table["own/g"]
    assert (check.secrets, check.refused) == (1, 0)
    assert (g.secrets, g.refused, g.negatives) == (1, 0, 1)
    for held in (check, g):
        assert held.missed == [] and held.falsely_refused == []
    for name in ("own", "own:de", "own:pl"):
        assert "eine ganz harmlose Zeile" not in table[name].missed
        assert "zwykła linijka" not in table[name].missed
