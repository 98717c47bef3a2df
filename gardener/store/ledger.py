"""The promote ledger: which daily-note entries a pass has processed, a file a month.

Each line is a mark (see ``gardener.model.marks``): an
entry's ``path<TAB>digest``, with a suffix when it is held or approved, or a
note's ``path<TAB>settled:<blob id>``. Marks live in ``.gardener/ledger.d/YYYY-MM``
by the month in the note's file name, so a pass rewrites, journals and commits
only the months it touched, not years of marks. Workspaces made before kept
one file, ``.gardener/ledger``: it is still read, and the next write moves its
marks into the month files and deletes it in the same commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from gardener.files.layout import STATE_DIR, note_date
from gardener.files.read import read_text

LEGACY = f"{STATE_DIR}/ledger"  # the single file of workspaces made before
FOLDER = f"{STATE_DIR}/ledger.d"
UNDATED = "undated"  # the file of marks whose path names no date (hand-written)


def month_of(mark: str) -> str:
    """``2026-07`` for a mark of ``memory/2026-07-01.md``; ``UNDATED`` without a date."""
    name = mark.partition("\t")[0].rpartition("/")[2]
    day = note_date(name)
    return f"{day.year:04d}-{day.month:02d}" if day else UNDATED


def month_file(month: str) -> str:
    """The workspace-relative path of a month's ledger file."""
    return f"{FOLDER}/{month}"


def parse(text: str) -> list[str]:
    """A ledger file's marks, in file order (lines without a tab are not marks)."""
    return [line for line in text.splitlines() if "\t" in line]


def render(marks: Iterable[str]) -> str:
    """A ledger file's text: the marks sorted, one a line; "" for none."""
    lines = sorted(marks)
    return "\n".join(lines) + "\n" if lines else ""


def group(marks: Iterable[str]) -> dict[str, set[str]]:
    """Marks by month (``month_of``)."""
    months: dict[str, set[str]] = {}
    month_of_path: dict[str, str] = {}  # a note has a dozen marks: one date parse
    for mark in marks:
        path = mark.partition("\t")[0]
        month = month_of_path.get(path)
        if month is None:
            month = month_of_path[path] = month_of(mark)
        months.setdefault(month, set()).add(mark)
    return months


@dataclass
class Ledger:
    """The ledger files read so far: a view of some months, or of all.

    ``months`` maps each month read to the marks its file held (empty when it
    has no file); ``legacy`` holds the old single file's marks, None if it is
    gone. Marks of months not read are unknown: ``files`` never writes them.
    """

    root: Path
    months: dict[str, frozenset[str]] = field(default_factory=dict)
    legacy: frozenset[str] | None = None

    def marks(self) -> frozenset[str]:
        """Every mark read (the legacy file's too)."""
        out: set[str] = set(self.legacy or ())
        for marks in self.months.values():
            out.update(marks)
        return frozenset(out)

    def read(self, months: Iterable[str]) -> None:
        """Read the files of ``months`` not read yet."""
        for month in months:
            if month not in self.months:
                self.months[month] = frozenset(_read(self.root / month_file(month)))

    def files(self, marks: Iterable[str]) -> dict[str, str | None]:
        """The ledger files to write (None: delete) so that the ledger holds ``marks``.

        ``marks``: the whole ledger of the months read (a pass's new ledger).
        Months whose marks did not change are left out; a month left without
        marks loses its file; the legacy file is split into months and deleted.
        Months that ``marks`` reach but were not read are read first.
        """
        wanted = group(marks)
        self.read(wanted)
        out: dict[str, str | None] = {}
        for month, old in sorted(self.months.items()):
            new = wanted.get(month, set())
            if new != old:
                out[month_file(month)] = render(new) if new else None
        if self.legacy is not None:
            out[LEGACY] = None
        return out


def read_all(root: Path) -> Ledger:
    """Every ledger file of the workspace at ``root``: the month files and the legacy one."""
    book = Ledger(root)
    folder = root / FOLDER
    if folder.is_dir():
        book.read(
            sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
        )
    legacy = root / LEGACY
    if legacy.is_file():
        book.legacy = frozenset(_read(legacy))
    return book


def _read(path: Path) -> list[str]:
    try:
        return parse(read_text(path))
    except FileNotFoundError:
        return []
