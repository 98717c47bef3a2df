"""The workspace's files as the verbs read them: MEMORY.md, the daily notes,
the ledger and the gardener's state files. Read only; nothing is locked."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

from gardener.errors import GardenerError, ParseError
from gardener.files.layout import dated_notes, note_date, refuse_outside
from gardener.files.read import decode_text, read_files, read_text
from gardener.formats.dailynote import parse_note
from gardener.formats.memoryfile import NEW_FILE, parse_memory
from gardener.model.config import Config
from gardener.model.facts import Memory, Note, Problem
from gardener.model.marks import note_digest, settled_mark
from gardener.store.ledger import read_all
from gardener.store.linememo import LineMemo


def check_inside(root: Path, config: Config) -> None:
    """Raise GardenerError if MEMORY.md or the notes folder lead out of ``root``."""
    names = {config.memory_file: "file", config.notes_dir: "folder"}
    refuse_outside(root, names)


def memory_text(root: Path, config: Config) -> str | None:
    """MEMORY.md's text; None if the file does not exist."""
    check_inside(root, config)
    path = root / config.memory_file
    if not path.exists():
        return None
    return read_text(path)


def read_memory(root: Path, config: Config, memo: LineMemo | None = None) -> Memory:
    """MEMORY.md parsed (``memo``: lines parsed before); a new empty one if
    the file does not exist."""
    text = memory_text(root, config)
    return parse_memory(NEW_FILE if text is None else text, config.memory_file, memo)


def read_notes(
    root: Path,
    config: Config,
    since: date | None = None,
    *,
    unless: frozenset[str] = frozenset(),
) -> tuple[list[Note], list[Problem]]:
    """Every daily note (from ``since`` on, if given), and the files that could not be read.

    A note whose settled line (``gardener.model.marks.settled_mark`` of its path and
    bytes) is in ``unless`` (a ledger) is left out unparsed: a pass has
    nothing left to do with it. Each note carries its bytes' ``digest``.
    """
    notes: list[Note] = []
    problems: list[Problem] = []
    check_inside(root, config)
    folder = root / config.notes_dir
    base = folder.relative_to(root).as_posix()
    days = {
        name: day
        for day, name in dated_notes(root, config.notes_dir)
        if since is None or day >= since
    }
    for name, data in read_files(folder, days):
        rel = f"{base}/{name}"
        digest = note_digest(data)
        if unless and settled_mark(rel, digest) in unless:
            continue
        day = days[name]
        try:
            text = decode_text(data, folder / name)
        except ParseError as exc:
            problems.append(Problem("parse", rel, exc.line, exc.message))
            continue
        note = replace(parse_note(rel, day, text), digest=digest)
        notes.append(note)
        problems.extend(note.problems)
    return notes, problems


def read_ledger(root: Path) -> frozenset[str]:
    """Every mark of the ledger (``gardener.store.ledger``; see
    ``gardener.model.marks.fingerprints``)."""
    return read_all(root).marks()


def state_text(root: Path, rel: str) -> str | None:
    """The text of the workspace file ``rel`` (UTF-8, line ends as they
    are), None if there is none. Raises GardenerError if it cannot be read."""
    try:
        with open(root / rel, encoding="utf-8", errors="surrogateescape",
                  newline="") as file:  # fmt: skip
            return file.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise GardenerError(f"{rel} cannot be read: {exc.strerror}") from None


def is_note(config: Config, rel: str) -> bool:
    """A daily note: directly in the notes folder (not archive/), with a dated name."""
    path = Path(rel)
    return (
        path.parent.as_posix() == config.notes_dir and note_date(path.name) is not None
    )


def owned_paths(config: Config) -> list[str]:
    """The paths the gardener keeps in git: MEMORY.md, the notes folder,
    rules.md, and the backups (``is_backup``) at the top."""
    return [config.memory_file, config.notes_dir, "rules.md", *TOP_BACKUPS]


# Files kept in git as backups, never read as notes (docs/design.md, Backups):
# OpenClaw's dream diary at the top, and everything in a sub-folder of the
# notes folder (its dreaming/ reports, important/ pinned notes, hidden
# .dreams/ state; an archive/ of old notes)
TOP_BACKUPS = ("DREAMS.md",)
HIDDEN_BACKUP_FOLDERS = frozenset({".dreams"})
BACKUP_MAX_BYTES = 5 << 20  # a larger file is not backed up: a warning says so
_SCRATCH_SUFFIXES = ("~", ".tmp", ".swp", ".swx", ".swo", ".lock")


def is_backup(config: Config, rel: str) -> bool:
    """A file the gardener commits as a backup (``rel`` workspace-relative,
    POSIX): ``DREAMS.md``, or a file in a sub-folder of the notes folder,
    any depth; hidden folders other than ``.dreams`` and hidden, temp and
    backup-suffixed files are not."""
    if rel in TOP_BACKUPS:
        return True
    prefix = config.notes_dir + "/"
    if not rel.startswith(prefix):
        return False
    *folders, name = rel[len(prefix) :].split("/")
    if (
        not folders
        or not name
        or name.startswith(".")
        or name.endswith(_SCRATCH_SUFFIXES)
    ):
        return False
    return all(
        not part.startswith(".") or (depth == 0 and part in HIDDEN_BACKUP_FOLDERS)
        for depth, part in enumerate(folders)
    )
