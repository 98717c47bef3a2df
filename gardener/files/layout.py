"""Where things are in a workspace: which files are daily notes, the
gardener's own paths (``STATE_DIR``, ``SALT``, ``PURGE_PENDING``), whether a
path stays inside the workspace, and paths spelled as pathlib spells them.

Plain strings and ``os.path`` (no pathlib, which costs ~5 ms to import):
a warm ``gardener recall`` lists the notes on every call and loads this module.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from datetime import date

from gardener.errors import GardenerError

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from pathlib import Path

# memory/YYYY-MM-DD.md, and the -slug, -HHMM and _slug forms agents also write.
NOTE_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[-_][^/]*)?\.md$", re.ASCII)


def note_date(name: str) -> date | None:
    """The date in a note's file name; None if not a note name, not a real
    day, or not valid UTF-8 (its bad bytes read as surrogates: see
    ``misnamed_notes``)."""
    if NOTE_NAME.fullmatch(name) is None or not utf8_name(name):
        return None
    try:
        return date.fromisoformat(name[:10])
    except ValueError:  # 2026-02-30, month 13, year 0
        return None


def utf8_name(name: str) -> bool:
    """True if the file name ``name`` (as ``os`` decodes names) is valid UTF-8."""
    if name.isascii():
        return True
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # a byte that is not UTF-8, kept as a surrogate
        return False
    return True


def odd_name_warning(notes_dir: str, name: str) -> str:
    """The warning for a note ``name`` in ``notes_dir`` that is not valid
    UTF-8 (``utf8_name``): every verb that meets it skips it so."""
    return (
        f"{notes_dir}/{escaped(name)}: its name is not valid UTF-8; the note is"
        " skipped (not read, not committed) until it is renamed"
    )


def escaped(name: str) -> str:
    """``name`` printable: a byte that is not UTF-8 as ``\\xNN``."""
    raw = name.encode("utf-8", "surrogateescape")
    return raw.decode("utf-8", "backslashreplace")


# a name an agent meant as a note's: a date, however written, at its start
_DATED = re.compile(r"^\d{4}[-_.]?\d{1,2}[-_.]?\d{1,2}(?!\d)", re.ASCII)
_NOTE_SUFFIXES = (".md", ".markdown")
# sub-folders put away on purpose: an archive, and OpenClaw's own (its dreaming
# reports and pinned notes; its hidden .dreams/ is passed over as hidden)
_KEPT_FOLDERS = frozenset({"archive", "dreaming", "important"})


def misnamed_notes(
    root: str | os.PathLike[str], notes_dir: str = "memory"
) -> list[tuple[str, str]]:
    """The files in ``root/notes_dir`` that look like daily notes but are not
    read as one (``note_names``), each as ``(path under the notes folder,
    why)``, sorted by path; what ``gardener check`` reports.

    A file looks like a note if its name starts with a date in any spelling
    (``20260310.md``, ``2026-3-10.md``, ``2026-02-30.md``) or it is a
    ``.md``/``.markdown`` file with a digit in its name; a file with no digit
    in its name (``README.md``, ``template.md``) is taken as the folder's own
    document and left alone. A note-like file is reported if its name is not
    a note name (``NOTE_NAME`` with a real day, ``note_date``) or it lies in a
    sub-folder (``2026-03/2026-03-10.md``), and a note name on a folder or on a
    link out of ``root``. Hidden files and folders, editor
    backups (``~``) and the ``archive/``, ``dreaming/`` and ``important/``
    sub-folders are passed over. Returns
    [] if the folder does not exist or leads out of ``root``.
    """
    folder = os.path.join(root, notes_dir)
    if not inside(root, folder) or not os.path.isdir(folder):
        return []
    found: list[tuple[str, str]] = []
    for top, dirs, files in os.walk(folder):
        rel_top = os.path.relpath(top, folder)
        nested = rel_top != "."
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(".")
            and not (not nested and d.casefold() in _KEPT_FOLDERS)
        ]
        for name in files:
            if name.startswith(".") or name.endswith("~"):
                continue
            dated = _DATED.match(name) is not None
            if not dated and not (
                name.casefold().endswith(_NOTE_SUFFIXES)
                and any(ch.isdigit() for ch in name)
            ):
                continue
            rel = name if not nested else f"{rel_top}/{name}".replace(os.sep, "/")
            if nested:
                why = "is in a sub-folder"
            elif note_date(name) is not None:
                continue  # a note: note_names reads it
            elif not utf8_name(name):  # 2026-02-07-caf\xe9.md
                rel, why = escaped(rel), "has a name that is not valid UTF-8: rename it"
            elif NOTE_NAME.fullmatch(name) is not None:  # 2026-02-30.md
                why = f"is named {name[:10]}, which is not a day"
            else:
                why = "is not named as a note"
            found.append((rel, why))
    # a note name on what is not a plain file in the workspace: skipped too
    with os.scandir(folder) as entries:
        for entry in entries:
            if note_date(entry.name) is None:
                continue
            if entry.is_symlink() and not inside(root, entry.path):
                found.append((entry.name, "is a link out of the workspace"))
            elif entry.is_dir():
                found.append((entry.name, "is a folder"))
    return sorted(found)


def note_names(
    root: str | os.PathLike[str],
    notes_dir: str = "memory",
    since: str = "",
    *,
    links: list[str] | None = None,
    odd: list[str] | None = None,
) -> list[str]:
    """The names of the note files directly in ``root/notes_dir`` dated
    ``since`` (ISO) or later, sorted by name, which sorts by date (a note's
    name starts with its ISO date).

    Sub-folders (``archive/``) and other files are left out, and so is a
    symlink that points outside ``root``. Older names are passed over
    unchecked, because recall lists ten years of notes on every call.
    Returns [] if the folder does not exist or leads out of ``root``. The
    names of note-named symlinks (kept or not) are added to ``links``, and
    note names that are not valid UTF-8 (left out) to ``odd``.
    """
    folder = os.path.join(root, notes_dir)
    if not inside(root, folder) or not os.path.isdir(folder):
        return []
    kept: list[str] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if name < since:
                continue
            if note_date(name) is None:
                if (
                    odd is not None
                    and not utf8_name(name)
                    and NOTE_NAME.fullmatch(name)
                ):
                    odd.append(name)
                continue
            if entry.is_symlink():
                if links is not None:
                    links.append(name)
                if not inside(root, entry.path):
                    continue
            if entry.is_file():
                kept.append(name)
    return sorted(kept)


def inside(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> bool:
    """True if ``path`` (relative paths are taken from ``root``) resolves inside ``root``.

    Symlinks are followed, in ``root`` as in ``path``; ``root`` itself
    counts; a symlink loop is not inside.
    """
    try:
        top = os.path.realpath(root)
        real = os.path.realpath(os.path.join(root, path))
        os.stat(real)
    except OSError as exc:  # realpath leaves a loop unresolved; stat names it
        if exc.errno == errno.ELOOP:
            return False
    except ValueError:  # a NUL in the name
        return False
    return os.path.commonpath([top, real]) == top


def path_text(path: str | os.PathLike[str]) -> str:
    """``str(PurePosixPath(path))`` without pathlib: repeated slashes and
    ``.`` parts dropped, a trailing slash too; ``..`` kept; "" is ``.``."""
    text = os.fspath(path)
    body = text.lstrip("/")
    # POSIX: two leading slashes may mean something else; three or more are one
    top = "//" if len(text) - len(body) == 2 else "/" if body != text else ""
    return top + "/".join(p for p in body.split("/") if p and p != ".") or "."


def absolute(path: str | os.PathLike[str]) -> str:
    """``str(Path(path).absolute())`` without pathlib: ``path_text`` of the
    path, taken from the working folder if relative (``..`` is not resolved)."""
    text = path_text(path)
    return text if text.startswith("/") else path_text(os.path.join(os.getcwd(), text))


# pathlib's exists/is_file/is_dir/is_symlink, for paths as strings: False when
# the path is missing (or loops, or is not a valid name), but unlike os.path's
# an error such as "permission denied" is raised, not read as "no"
_MISSING = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


def _mode(path: str | os.PathLike[str], follow: bool = True) -> int:
    """The path's st_mode; 0 if pathlib would say it does not exist."""
    try:
        return os.stat(path, follow_symlinks=follow).st_mode
    except OSError as exc:
        if exc.errno in _MISSING:
            return 0
        raise
    except ValueError:  # a NUL in the name, or a name the file system cannot encode
        return 0


def exists(path: str | os.PathLike[str]) -> bool:
    """``Path(path).exists()``: a symlink counts if its target exists."""
    return _mode(path) != 0


def is_file(path: str | os.PathLike[str]) -> bool:
    """``Path(path).is_file()``: a regular file, or a symlink to one."""
    return stat.S_ISREG(_mode(path))


def is_dir(path: str | os.PathLike[str]) -> bool:
    """``Path(path).is_dir()``: a folder, or a symlink to one."""
    return stat.S_ISDIR(_mode(path))


def is_symlink(path: str | os.PathLike[str]) -> bool:
    """``Path(path).is_symlink()``."""
    return stat.S_ISLNK(_mode(path, follow=False))


STATE_DIR = ".gardener"  # the gardener's own files in a workspace
SALT = f"{STATE_DIR}/salt"  # git-ignored: the key of purge's hashes (exists once a purge ran)
PURGE_PENDING = f"{STATE_DIR}/purge-pending"  # git-ignored: a purge not finished yet
REFUSED = f"{STATE_DIR}/refused"  # git-ignored: keyed hashes of refused secret values


def note_files(root: Path, notes_dir: str = "memory") -> list[Path]:
    """The note files directly in ``root/notes_dir``, sorted by (date, name):
    ``layout.note_names`` as paths. Returns [] if the folder does not exist."""
    from pathlib import Path

    folder = Path(root) / notes_dir
    return [folder / name for name in note_names(root, notes_dir)]


def dated_notes(root: Path, notes_dir: str = "memory") -> list[tuple[date, str]]:
    """``(date, file name)`` of each of ``note_files``, in the same order."""
    return [
        (day, name)
        for name in note_names(root, notes_dir)
        if (day := note_date(name)) is not None
    ]


def refuse_outside(root: str | os.PathLike[str], names: dict[str, str]) -> None:
    """Raise GardenerError if one of ``names`` (relative path -> "file" or "folder")
    leads out of ``root``, through a symlink or otherwise, or is there but is
    not a ``what`` (a file where the notes folder goes: every verb would fail
    with an error of the operating system's instead)."""
    for name, what in names.items():
        path = path_text(os.path.join(root, name))
        if not inside(root, name):
            how = f"a symlink to {os.readlink(path)}" if is_symlink(path) else "a path"
            raise GardenerError(
                f"{path} is {how} outside the workspace {path_text(root)}; the gardener never reads or writes outside it: replace the link with the real {what}"
            )
        if os.path.lexists(path) and (os.path.isdir(path) != (what == "folder")):
            found = "a folder" if os.path.isdir(path) else "a file"
            raise GardenerError(
                f"{path} is {found}; the gardener needs a {what} there: move it"
                " away, or name another in rules.md"
            )


def git_dir_of(root: str) -> str | None:
    """The git folder of the work tree at ``root``: ``root/.git``, or where a
    ``.git`` file points; None if it has none."""
    dot_git = os.path.join(root, ".git")
    if os.path.isdir(dot_git):
        return dot_git
    if os.path.isfile(dot_git):
        with open(dot_git, encoding="utf-8", errors="replace") as file:
            first = file.read().partition("\n")[0]
        if first.startswith("gitdir:"):
            pointed = first.removeprefix("gitdir:").strip()
            return os.path.realpath(os.path.join(root, pointed))
    return None
