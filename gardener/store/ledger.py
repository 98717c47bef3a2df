"""The promote ledger: which daily-note entries a pass has processed, a file a month.

Each line is a mark (see ``gardener.model.marks``): an
entry's ``path<TAB>digest``, with a suffix when it is held or approved, or a
note's ``path<TAB>settled:<blob id>``. Marks live in ``.gardener/ledger.d/YYYY-MM``
by the month in the note's file name, so a pass rewrites, journals and commits
only the months it touched, not years of marks. Workspaces made before kept
one file, ``.gardener/ledger``: it is still read, and the next write moves its
marks into the month files and deletes it in the same commit.

A month may also have an appendix, ``YYYY-MM+``: marks a pass added without
reading the month's file (see ``Ledger.vouch``: a big note parsed from where
the last pass left it, ``gardener.store.notetail``), so that it writes and
commits a few lines, not the 500,000 marks of a 50 MB note. It is read with
its month, and the next pass that reads the whole month moves its marks into
the month's file and deletes it (git merges both as sets of lines).

In memory a month is a ``gardener.model.markset.Marks`` (8 bytes an entry's
mark; docs/internals.md, "The ledger in memory"); the files are as before.

A pass that changes no belief makes no commit of its own (see docs/internals.md,
Pending ledger marks): the marks it adds wait in ``<git folder>/gardener/ledger-pending/
YYYY-MM`` (only the marks that month's committed file lacks), are read as part
of the ledger, and go into the month files with the next commit that writes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from gardener.files.atomic import atomic_write
from gardener.files.layout import STATE_DIR, note_date
from gardener.files.read import read_text
from gardener.git.run import git_dir_of
from gardener.model.marks import SETTLED
from gardener.model.markset import Marks

LEGACY = f"{STATE_DIR}/ledger"  # the single file of workspaces made before
FOLDER = f"{STATE_DIR}/ledger.d"
UNDATED = "undated"  # the file of marks whose path names no date (hand-written)
PENDING = "ledger-pending"  # in the git folder's gardener/: marks no commit holds yet
APPENDIX = "+"  # a month's appendix file: ``ledger.d/YYYY-MM+``
# the line breaks of str.splitlines (a mark never holds one of them)
_NEWLINE = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def pending_folder(git_dir: str | Path | None) -> Path | None:
    """Where a workspace's pending marks wait (None: no git folder, none used)."""
    return Path(git_dir) / "gardener" / PENDING if git_dir else None


def month_of(mark: str) -> str:
    """``2026-07`` for a mark of ``memory/2026-07-01.md``; ``UNDATED`` without a date."""
    name = mark.partition("\t")[0].rpartition("/")[2]
    day = note_date(name)
    return f"{day.year:04d}-{day.month:02d}" if day else UNDATED


def month_file(month: str) -> str:
    """The workspace-relative path of a month's ledger file."""
    return f"{FOLDER}/{month}"


def appendix_file(month: str) -> str:
    """The workspace-relative path of a month's appendix (see the module's docstring)."""
    return f"{FOLDER}/{month}{APPENDIX}"


def parse(text: str) -> list[str]:
    """A ledger file's marks, in file order (lines without a tab are not marks)."""
    return [line for line in text.splitlines() if "\t" in line]


def render(marks: Iterable[str]) -> str:
    """A ledger file's text: the marks sorted, one a line; "" for none."""
    lines = sorted(marks)
    return "\n".join(lines) + "\n" if lines else ""


def group(marks: Iterable[str]) -> dict[str, Marks]:
    """Marks by month (``month_of``), each month's a compact ``Marks``."""
    return Marks(marks).split(month_of)


@dataclass
class Ledger:
    """The ledger files read so far: a view of some months, or of all.

    ``months`` maps each month read to its marks: what its file and its
    appendix hold (none when it has neither) and its pending marks
    (``pending``: their folder, None if not used); ``filed`` holds, for each
    month read that has pending marks, what its files alone hold;
    ``appendix``, for each month read that has one, what its appendix holds.
    A month in ``partial`` was read without its file (``vouch``): its marks
    are its appendix's, its pending ones, and those of its file a caller
    vouched for (``partial[month]``, the file's share); no other mark of the
    file is asked for. ``legacy`` holds the old single file's marks, None if
    it is gone. Marks of months not read are unknown: ``files`` never writes
    them.
    """

    root: Path
    months: dict[str, Marks] = field(default_factory=dict)
    legacy: Marks | None = None
    pending: Path | None = None
    filed: dict[str, Marks] = field(default_factory=dict)
    appendix: dict[str, Marks] = field(default_factory=dict)
    partial: dict[str, Marks] = field(default_factory=dict)

    def marks(self) -> Marks:
        """Every mark read (the legacy file's too), compact (``Marks``)."""
        return Marks().union(self.legacy or (), *self.months.values())

    def read(self, months: Iterable[str]) -> None:
        """Read the files of ``months`` not read yet, their appendices and
        their pending marks."""
        for month in months:
            if month in self.months:
                continue
            self._rest(month, _read(self.root / month_file(month)))

    def vouch(self, month: str, held: Iterable[str]) -> None:
        """Read ``month`` without its file: its appendix and pending marks,
        and ``held``, marks the caller knows its files hold (the rest of the
        file is never asked for). Nothing if the month was read."""
        if month in self.months:
            return
        added = _read(self.root / appendix_file(month))
        waiting = _read(self.pending / month) if self.pending else []
        # the file's share: what the appendix or the pending marks hold
        # is written (or waits) as they are
        known = Marks(held).difference(added, waiting)
        self.partial[month] = known
        self._rest(month, known)

    def _rest(self, month: str, marks: Marks) -> None:
        """Take ``month``'s file marks (``marks``) with its appendix and pending ones."""
        added = _read(self.root / appendix_file(month))
        if added:
            self.appendix[month] = added
            marks = marks.union(added)
        waiting = _read(self.pending / month) if self.pending else Marks()
        if waiting:
            self.filed[month] = marks
            marks = marks.union(waiting)
        self.months[month] = marks

    def read_pending(self, skip: Iterable[str] = ()) -> None:
        """Read every month that has pending marks (a few: those of the passes
        since the last commit), so the next commit takes them all; but those
        of ``skip`` (a caller reads them otherwise: ``vouch``)."""
        try:
            names = [p.name for p in self.pending.iterdir()] if self.pending else []
        except FileNotFoundError:
            return
        skip = set(skip)
        self.read(sorted(n for n in names if not n.startswith(".") and n not in skip))

    def files(self, marks: Iterable[str]) -> dict[str, str | None]:
        """The ledger files to write (None: delete) so that the ledger holds ``marks``.

        ``marks``: the whole ledger of the months read (a pass's new ledger).
        Months whose files already hold them are left out; a month left without
        marks loses its file; a month read whole takes its appendix's marks
        into its file; a month read in part (``vouch``) writes its appendix
        alone, or is read whole first when a mark of its file is to go (a
        stale ``settled`` line may stay: harmless); the legacy file is split
        into months and deleted. Months that ``marks`` reach but were not
        read are read first. Pending marks are written with the rest: call
        ``committed`` once committed.
        """
        wanted = group(marks)
        self.read(wanted)
        for month, known in list(self.partial.items()):
            gone = known.difference(wanted.get(month, Marks()))
            if any(SETTLED not in m for m in gone):
                self._whole(month, wanted)
        out: dict[str, str | None] = {}
        for month, held in sorted(self.months.items()):
            new = wanted.get(month, Marks())
            if month in self.partial:
                added = new.difference(self.partial[month])
                if added != self.appendix.get(month, Marks()):
                    out[appendix_file(month)] = render(added) if added else None
                continue
            if month in self.appendix:
                out[appendix_file(month)] = None
                out[month_file(month)] = render(new) if new else None
            elif new != self.filed.get(month, held):
                out[month_file(month)] = render(new) if new else None
        if self.legacy is not None:
            out[LEGACY] = None
        return out

    def _whole(self, month: str, wanted: dict[str, Marks]) -> None:
        """Read the month read in part whole, and make ``wanted``'s marks of
        it the whole month's: what the part view dropped and added, applied
        to the file's other marks."""
        view = self.months.pop(month)
        self.partial.pop(month)
        self.filed.pop(month, None)
        self.appendix.pop(month, None)
        self.read([month])
        new = wanted.get(month, Marks())
        wanted[month] = self.months[month].difference(view.difference(new)).union(new)

    def committed(self) -> None:
        """The files ``files`` gave are committed: their pending marks are in
        history now, so their pending files go."""
        for month in sorted(self.filed):
            if self.pending:
                (self.pending / month).unlink(missing_ok=True)
        self.filed.clear()

    def stash(self, marks: Iterable[str]) -> set[str]:
        """Keep ``marks`` (as for ``files``) without a commit: each month read
        keeps, as pending, the marks its file lacks. Marks ``marks`` drops
        stay in the files until a commit writes them (stale ones: harmless).
        Returns the months whose pending marks changed. Raises ValueError
        without a pending folder or with the legacy file (a commit splits it).
        """
        if self.pending is None or self.legacy is not None:
            raise ValueError("marks cannot wait: commit them (Ledger.files)")
        wanted = group(marks)
        self.read(wanted)
        changed: set[str] = set()
        for month, held in sorted(self.months.items()):
            filed = self.filed.get(month, held)
            extra = wanted.get(month, Marks()).difference(filed)
            if extra == held.difference(filed) and (extra or month not in self.filed):
                continue  # as it is (a pending file all in its month's goes)
            if filed.union(extra) != held:
                changed.add(month)
            if extra:
                atomic_write(self.pending / month, render(extra), root=self.pending)
                self.filed[month] = filed
            else:
                (self.pending / month).unlink(missing_ok=True)
                self.filed.pop(month, None)
            self.months[month] = filed.union(extra)
        return changed


def read_all(root: Path, git_dir: str | Path | None = None) -> Ledger:
    """Every ledger file of the workspace at ``root``: the month files, their
    pending marks (in ``git_dir``, by default the work tree's) and the legacy file."""
    book = Ledger(root, pending=pending_folder(git_dir or git_dir_of(str(root))))
    folder = root / FOLDER
    if folder.is_dir():
        names = (p.name for p in folder.iterdir() if not p.name.startswith("."))
        # an appendix without its month's file is read as the month's
        book.read(sorted({name.removesuffix(APPENDIX) for name in names}))
    book.read_pending()
    legacy = root / LEGACY
    if legacy.is_file():
        book.legacy = _read(legacy)
    return book


def _read(path: Path) -> Marks:
    """A ledger file's marks, compact; none if it is gone."""
    try:
        text = read_text(path)
    except FileNotFoundError:
        return Marks()
    # line by line into the compact form: no list of the file's strings
    return Marks(line for line in _lines(text) if "\t" in line)


def _lines(text: str) -> Iterator[str]:
    """``text.splitlines()`` one line at a time (a month file is 19 MB)."""
    start = 0
    for found in _NEWLINE.finditer(text):
        yield text[start : found.start()]
        start = found.end()
    if start < len(text):
        yield text[start:]
