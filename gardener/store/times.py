"""Recorded times: when the untimed entries of the daily notes became true,
as the machine that committed them wrote them (see docs/design.md, Recorded
times; the times come from ``gardener.planning.times``).

``.gardener/times.d/YYYY-MM`` (committed; the month of the note's file name,
as the ledger's) holds one line per entry: its ledger mark (``path<TAB>
digest``), a tab, its valid time (``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM``).
Lines are sorted and set-like, so two machines' files merge as sets
(``gardener merge-union``, declared in ``.gitattributes``). They hold
digests, never a note's text. ``record`` adds the lines of the entries a
commit adds; ``prune`` drops those of the notes it deletes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from gardener.files.layout import STATE_DIR
from gardener.files.read import read_text
from gardener.store.ledger import group, month_of

FOLDER = f"{STATE_DIR}/times.d"


def month_file(month: str) -> str:
    """The workspace-relative path of a month's file of recorded times."""
    return f"{FOLDER}/{month}"


def parse(text: str) -> dict[str, str]:
    """Mark -> valid time of a file's lines; of two times for one mark (both
    machines wrote the same line), the earlier (it was true from then)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        mark, tab, when = line.rpartition("\t")
        if not tab or "\t" not in mark or not when:
            continue
        out[mark] = min(out.get(mark, when), when)
    return out


def render(lines: Iterable[str]) -> str:
    """A file's text: the lines (``mark<TAB>time``) sorted, once each; "" for none."""
    ordered = sorted(set(lines))
    return "\n".join(ordered) + "\n" if ordered else ""


def _read(root: Path, month: str) -> str:
    path = root / month_file(month)
    return read_text(path) if path.is_file() else ""


def read(root: Path, paths: Iterable[str]) -> dict[str, str]:
    """Mark -> recorded time of the entries of the notes at ``paths``
    (workspace-relative): their months' files are read, no others."""
    months = {month_of(f"{p}\t") for p in paths}
    out: dict[str, str] = {}
    for month in sorted(months):
        for mark, when in parse(_read(root, month)).items():
            out[mark] = min(out.get(mark, when), when)
    return out


def added(root: Path, times: Mapping[str, str]) -> dict[str, str]:
    """The files to write for ``times`` (mark -> time) added to what is
    recorded: path -> text; {} when every line is there already."""
    out = {}
    for month, marks in group(times).items():
        old = _read(root, month)
        have = old.splitlines()
        new = render([*have, *(f"{m}\t{times[m]}" for m in marks)])
        if new != old:
            out[month_file(month)] = new
    return out


def without(root: Path, paths: Iterable[str]) -> dict[str, str | None]:
    """The files to write once the notes at ``paths`` are gone: their lines
    dropped (None: a file left empty is deleted); {} when none had any."""
    gone = set(paths)
    out: dict[str, str | None] = {}
    for month in sorted({month_of(f"{p}\t") for p in gone}):
        old = _read(root, month)
        kept = [x for x in old.splitlines() if x.partition("\t")[0] not in gone]
        if old and len(kept) != len(old.splitlines()):
            out[month_file(month)] = render(kept) or None
    return out
