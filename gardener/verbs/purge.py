"""Purge: erase a text from the work tree and from every commit (DESIGN 2.3).

For a right-to-erasure request or a leaked secret. ``purge_text`` rewrites the
whole history with git-filter-repo (file contents and names, commit and tag
messages, author and committer names), replacing the text with ``[PURGED]``,
scrubs the work-tree files, expires every reflog and prunes every unreachable
object, then commits a tombstone that says a purge happened, when and by whom,
never what. A keyed hash of the text (key in the git-ignored
``.gardener/salt``, hashes in the committed ``.gardener/purged``) lets
``refused_by_purge`` refuse it if someone tries to store it again.

Git-specific work lives in ``gitlog`` (object scans) and ``gitrewrite``
(filter-repo, reflogs, gc).
"""

from __future__ import annotations

import getpass
import hashlib
import os
import re
import secrets
import shutil
import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from gardener.errors import GardenerError, UsageError
from gardener.files.io import (
    PURGE_PENDING,
    SALT,
    STATE_DIR,
    atomic_write,
    ensure_state_dir,
    read_text,
)
from gardener.git import log as gitlog
from gardener.git import rewrite as gitrewrite
from gardener.verbs.messages import purge_message

if TYPE_CHECKING:
    from gardener.git.log import HistoryScan, Holder
    from gardener.git.repo import Identity, Repo

REPLACEMENT = "[PURGED]"
MIN_LENGTH = 4  # shorter texts are too broad to erase everywhere
PURGED = f"{STATE_DIR}/purged"  # committed: one keyed hash per purged text
PENDING = PURGE_PENDING  # the hash of a purge not finished yet (see _begin)
IGNORE = f"{STATE_DIR}/.gitignore"
_MAX_FILE = 64 << 20  # work-tree files larger than this are reported, not scanned
_SHOWN_COMMITS = 20
_PURGED_HEADER = (
    "# Texts purged from this workspace (gardener purge), kept so that they are\n"
    "# refused if stored again: purge id, length and keyed BLAKE2b hash of the\n"
    "# normalized text (casefolded, NFKC, spaces collapsed). The key is in the\n"
    "# git-ignored .gardener/salt, so these lines alone do not reveal the text.\n"
)

Commit = Callable[[Sequence[str], str, "Identity | None"], "str | None"]


# -- matching ------------------------------------------------------------------


CUT = "…"  # what ``noting.short`` ends a cut commit subject with
_SHORTEST_CUT = 4  # characters of the text a cut form keeps, at least


def variants(text: str) -> list[str]:
    """``text``, then each cut form a commit message may hold: a prefix of it
    (spaces squeezed, as ``noting.short`` writes subjects) of at least
    ``_SHORTEST_CUT`` characters ending in ``…`` (a note's commit subject is
    its text cut at 60 characters, a promote message's lines at 90). Longest
    first, so a match takes the most it can."""
    squeezed = " ".join(text.split())
    cuts = range(len(squeezed) - 1, min(_SHORTEST_CUT, len(squeezed)) - 1, -1)
    return [text, *(squeezed[:k] + CUT for k in cuts)]


def needle_regex(text: str) -> str:
    """The regex (source) purge erases: any of ``variants(text)``, a run of
    white space in them matching any run (a subject squeezes "A  B" to
    "A B"; a person may type "A B" for a file's "A  B")."""
    forms = dict.fromkeys(variants(text))
    return "|".join(
        r"\s+".join(re.escape(word) for word in re.split(r"\s+", form.strip()))
        for form in forms
        if form.strip()
    )


@dataclass(frozen=True)
class Needle:
    """The text to purge, matched in bytes: exactly but for runs of white
    space, or ignoring letter case too; with its cut forms (``needle_regex``),
    which only commit messages hold.

    gitrewrite.rewrite_history's filter-repo driver matches the same way.
    """

    text: str
    ignore_case: bool = False

    @cached_property
    def _pattern(self) -> re.Pattern[str]:
        flags = re.IGNORECASE if self.ignore_case else 0
        return re.compile(needle_regex(self.text), flags)

    @cached_property
    def _bytes_pattern(self) -> re.Pattern[bytes]:
        return re.compile(needle_regex(self.text).encode("utf-8", "surrogateescape"))

    def count(self, data: bytes) -> int:
        """How often the text (or a cut form of it) occurs in ``data``."""
        if not self.ignore_case:
            return len(self._bytes_pattern.findall(data))
        return len(self._pattern.findall(data.decode("utf-8", "surrogateescape")))

    def sub(self, data: bytes) -> bytes:
        """``data`` with every occurrence replaced by ``[PURGED]``."""
        if not self.ignore_case:
            return self._bytes_pattern.sub(REPLACEMENT.encode(), data)
        return self.mask(data.decode("utf-8", "surrogateescape")).encode(
            "utf-8", "surrogateescape"
        )

    def mask(self, text: str) -> str:
        return self._pattern.sub(lambda _m: REPLACEMENT, text)


# -- refusing purged text again ---------------------------------------------------


def normalize(text: str) -> str:
    """Casefolded, NFKC, runs of whitespace made one space, ends trimmed."""
    folded = unicodedata.normalize(
        "NFKC", unicodedata.normalize("NFKC", text).casefold()
    )
    return " ".join(folded.split())


def purge_hash(text: str, salt: bytes) -> str:
    """The keyed hash of an already normalized text (hex)."""
    digest = hashlib.blake2b(
        text.encode("utf-8", "surrogateescape"), key=salt, digest_size=32
    )
    return digest.hexdigest()


def refused_by_purge(
    text: str, salt: bytes, hashes: Collection[tuple[int, str]]
) -> bool:
    """True if ``text`` holds a purged text (case, width and spacing ignored).

    ``hashes`` are (length, hash) pairs of normalized purged texts, as
    ``read_purged`` returns them. Every window of each purged length over the
    normalized ``text`` is hashed: linear in ``len(text)`` per distinct length.
    """
    if not hashes or not salt:
        return False
    norm = normalize(text)
    wanted = {digest for _, digest in hashes}
    for length in {n for n, _ in hashes}:
        for start in range(len(norm) - length + 1):
            if purge_hash(norm[start : start + length], salt) in wanted:
                return True
    return False


def scrub(
    text: str,
    salt: bytes,
    hashes: Collection[tuple[int, str]],
    known: Collection[str] = (),
) -> tuple[str, list[int]]:
    """``text`` with each purged text in it replaced by ``[PURGED]``, and the
    1-based numbers of the lines that held one (none: the same ``text``).

    For a purged text that came back another way than ``note`` (an agent
    writing the file itself): only keyed hashes are kept, so each line that
    ``refused_by_purge`` flags is narrowed to the shortest stretch that still
    holds it (two binary searches over its ends), and that is replaced;
    again until the line holds none. Then each two lines in a row, for a
    text split across them (an agent wrapping a line): the line break inside
    goes with it. A text split over three lines or more is not found.
    ``known``: lines known to hold none (a file's committed lines: the purge
    erased it from every commit), passed over, so the cost follows the new
    lines: every window of every line is hashed.
    """
    if not hashes or not salt:
        return text, []
    lines = text.split("\n")
    fresh = [line not in known for line in lines]
    hit: list[int] = []
    for i, line in enumerate(lines):
        if fresh[i]:
            cleaned = _scrub_one(line, salt, hashes)
            if cleaned != line:
                lines[i] = cleaned
                hit.append(i + 1)
    # a text wrapped onto the next line: the pair is narrowed as one, and what
    # replaces it takes the first line's place (normalizing makes "\n" a space)
    i = 0
    while i + 1 < len(lines):
        if fresh[i] or fresh[i + 1]:
            pair = lines[i] + "\n" + lines[i + 1]
            cleaned = _scrub_one(pair, salt, hashes)
            if cleaned != pair:
                head, _, tail = cleaned.partition("\n")
                lines[i : i + 2] = [head, tail] if _ else [head]
                fresh[i : i + 2] = [True, True] if _ else [True]
                hit.append(i + 1)
                continue
        i += 1
    return ("\n".join(lines), sorted(set(hit))) if hit else (text, [])


def _scrub_one(text: str, salt: bytes, hashes: Collection[tuple[int, str]]) -> str:
    """``text`` with each purged text replaced, narrowed one at a time."""
    for _ in range(len(text)):
        if not refused_by_purge(text, salt, hashes):
            return text
        start, end = _narrow(text, salt, hashes)
        text = text[:start] + REPLACEMENT + text[end:]
    # the marker itself completes a purged text: the whole of it goes
    return REPLACEMENT if refused_by_purge(text, salt, hashes) else text


def _narrow(
    line: str, salt: bytes, hashes: Collection[tuple[int, str]]
) -> tuple[int, int]:
    """The shortest ``line[start:end]`` that still holds a purged text (the
    line holds one): the last start that does, then the first end."""

    def holds(start: int, end: int) -> bool:
        return refused_by_purge(line[start:end], salt, hashes)

    start = _last_true(0, len(line), lambda i: holds(i, len(line)))
    return start, _first_true(start, len(line), lambda j: holds(start, j))


def _last_true(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The largest i in [low, high] with ``holds(i)``, for a ``holds`` true up
    to some point and false after it, and true at ``low``."""
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _first_true(low: int, high: int, holds: Callable[[int], bool]) -> int:
    """The smallest j in [low, high] with ``holds(j)``, for a ``holds`` false up
    to some point and true after it, and true at ``high``."""
    while low < high:
        middle = (low + high) // 2
        if holds(middle):
            high = middle
        else:
            low = middle + 1
    return low


def read_purged(root: Path) -> tuple[bytes, frozenset[tuple[int, str]]]:
    """The workspace's salt and (length, hash) pairs; (b"", empty) if none.

    Without the salt (a fresh clone) the hashes cannot be checked: empty too.
    """
    salt_path, purged_path = Path(root) / SALT, Path(root) / PURGED
    pending_path = Path(root) / PENDING
    if not salt_path.is_file() or not (purged_path.is_file() or pending_path.is_file()):
        return b"", frozenset()
    try:
        salt = bytes.fromhex(salt_path.read_text().strip())
    except ValueError:
        return b"", frozenset()
    pairs = set()
    lines = [
        line
        for path in (purged_path, pending_path)  # pending: a purge killed half-way
        if path.is_file()
        for line in read_text(path).splitlines()
    ]
    for line in lines:
        parts = line.split("\t")
        if len(parts) == 3 and not line.startswith("#") and parts[1].isdigit():
            pairs.add((int(parts[1]), parts[2]))
    return salt, frozenset(pairs)


def _salt(root: Path) -> bytes:
    """The workspace's salt, made (32 random bytes, owner-only) on first use."""
    path = root / SALT
    if not path.exists():
        ensure_state_dir(root)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, (secrets.token_hex(32) + "\n").encode())
            os.fsync(fd)
        finally:
            os.close(fd)
    return bytes.fromhex(path.read_text().strip())


def _hash_line(root: Path, text: str, purge_id: str) -> str:
    """The line of ``purged`` that remembers ``text``: id, length, keyed hash."""
    norm = normalize(text)
    return f"{purge_id}\t{len(norm)}\t{purge_hash(norm, _salt(root))}\n"


def _begin(root: Path, line: str) -> None:
    """Before history is rewritten: keep the hash line in the git-ignored
    ``purge-pending``, so that if the purge is killed half-way, the text is
    still refused and taken out of what agents write (``read_purged`` reads
    it), and ``check`` says to run the purge again. ``_remember`` ends it."""
    ensure_state_dir(root)
    # .gardener/.gitignore is reset by the rewrite: until the tombstone commits
    # it, git's local exclude file keeps the salt and this file out of `add -A`
    _exclude(root, [SALT, PENDING])
    target = root / PENDING
    old = read_text(target) if target.exists() else ""
    atomic_write(target, old + line)


def _exclude(root: Path, paths: Sequence[str]) -> None:
    """Add ``paths`` (workspace-relative) to ``.git/info/exclude`` unless
    there; nothing if the git folder is not ``root/.git``."""
    info = root / ".git" / "info"
    if not (root / ".git").is_dir():
        return
    info.mkdir(exist_ok=True)
    exclude = info / "exclude"
    rules = read_text(exclude) if exclude.exists() else ""
    missing = [f"/{p}" for p in paths if f"/{p}" not in rules.split()]
    if missing:
        head = rules if rules.endswith("\n") or not rules else rules + "\n"
        atomic_write(exclude, head + "\n".join(missing) + "\n")


def _ignore(root: Path, name: str, why: str) -> None:
    """Add ``name`` to ``.gardener/.gitignore`` unless it is there."""
    ignore = root / IGNORE
    rules = read_text(ignore)
    if name not in rules.split():
        head = rules if rules.endswith("\n") or not rules else rules + "\n"
        atomic_write(ignore, head + f"# {why}\n{name}\n")


def _remember(root: Path, line: str) -> list[str]:
    """Record the text's hash ``line`` in ``purged``; returns the paths to commit."""
    ensure_state_dir(root)
    _ignore(root, "salt", "the key of the hashes in purged")
    _ignore(root, "purge-pending", "a purge that has not finished (its hash only)")
    target = root / PURGED
    old = read_text(target) if target.exists() else _PURGED_HEADER
    atomic_write(target, old + line)
    return [PURGED, IGNORE]


# -- purging -------------------------------------------------------------------


@dataclass(frozen=True)
class FileHit:
    path: str  # workspace-relative POSIX
    count: int


@dataclass(frozen=True)
class _Survey:
    files: tuple[FileHit, ...]
    history: HistoryScan
    git_files: tuple[str, ...]  # in .git, objects aside
    too_large: tuple[str, ...]

    @property
    def found(self) -> bool:
        return bool(self.files or self.history.holding or self.git_files)


@dataclass(frozen=True)
class PurgeResult:
    """What held the text (before the purge) and what the purge did.

    Never holds the text: commit subjects are shown with it masked.
    """

    found: bool
    dry_run: bool
    files: tuple[FileHit, ...]  # work-tree files that held it
    commits: tuple[Holder, ...]  # commits reachable from a ref that held it
    objects: int  # objects in the store that held it (reachable or not)
    objects_scanned: int  # in the last scan: after the purge, if one ran
    remotes: tuple[str, ...]
    purge_id: str | None = None
    commit: str | None = None  # the tombstone
    warnings: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, object]:
        return {
            "found": self.found,
            "dry_run": self.dry_run,
            "files": [{"path": f.path, "count": f.count} for f in self.files],
            "commits": [
                {
                    "sha": c.sha,
                    "time": c.time.isoformat(),
                    "subject": c.subject,
                    "in_files": c.in_files,
                    "in_commit": c.in_commit,
                }
                for c in self.commits
            ],
            "objects": self.objects,
            "objects_scanned": self.objects_scanned,
            "remotes": list(self.remotes),
            "purge_id": self.purge_id,
            "commit": self.commit,
            "warnings": list(self.warnings),
        }

    def lines(self) -> list[str]:
        """The human report: what holds (held) the text, then what was done."""
        if not self.found:
            return [
                "not found in the work tree, any commit or the git folder: nothing to do"
            ]
        out = [
            f"found in {len(self.commits)} commit(s), {len(self.files)} work-tree "
            f"file(s) and {self.objects} git object(s)"
        ]
        out += [f"  {f.path}: {f.count}" for f in self.files]
        for c in self.commits[:_SHOWN_COMMITS]:
            where = [f"{n} in {what}" for n, what in ((c.in_files, "files"), (c.in_commit, "commit")) if n]  # fmt: skip
            out.append(
                f"  {c.sha[:8]} {c.time:%Y-%m-%d} {c.subject}  ({', '.join(where)})"
            )
        if len(self.commits) > _SHOWN_COMMITS:
            out.append(f"  ... and {len(self.commits) - _SHOWN_COMMITS} more commits")
        if self.dry_run:
            out.append(
                "dry run: nothing changed; run again with --yes to erase it from the "
                "files and the whole history (irreversible)"
            )
        else:
            out.append(
                f"purged: every occurrence is now {REPLACEMENT}; {self.objects_scanned} "
                f"objects checked afterwards, none holds it; tombstone commit "
                f"{(self.commit or '')[:8]} (purge id {self.purge_id})"
            )
        return out


def check_text(text: str) -> None:
    """Raise UsageError (exit 2) for a text too short or too broad to purge."""
    if len(text.strip()) < MIN_LENGTH or len(normalize(text)) < MIN_LENGTH:
        raise UsageError(
            f"refusing to purge a text shorter than {MIN_LENGTH} characters: it is too broad (it would erase it inside other words everywhere)"
        )


def purge_text(
    root: Path,
    repo: Repo,
    text: str,
    *,
    dry_run: bool,
    now: datetime,
    commit: Commit,
    by: str | None = None,
    ignore_case: bool = False,
) -> PurgeResult:
    """Erase ``text`` from the work tree and the whole history of ``repo``.

    ``dry_run`` only reports where it is. ``commit(paths, message, author)``
    makes the tombstone commit; ``by`` is who asked (default: the OS user);
    ``now`` (local time) goes in the tombstone. The caller holds the
    workspace lock and has committed the gardener's own changes.

    Raises UsageError for a text shorter than 4 characters, GardenerError when
    tracked files have uncommitted changes or git is mid-merge/rebase (nothing
    is changed then), or when anything still holds the text afterwards.
    """
    check_text(text)
    root = Path(root)
    needle = Needle(text, ignore_case)
    before = _survey(root, repo, needle)
    commits = tuple(c._replace(subject=needle.mask(c.subject)) for c in before.history.commits)  # fmt: skip
    remotes = tuple(gitrewrite.remotes(repo))
    warnings = [f"{p} is too large to scan ({_MAX_FILE >> 20} MiB or more): check it by hand" for p in before.too_large]  # fmt: skip
    if remotes and before.found:
        warnings.append(_remote_warning(remotes, dry_run))
    result = PurgeResult(
        found=before.found,
        dry_run=dry_run,
        files=before.files,
        commits=commits,
        objects=len(before.history.holding),
        objects_scanned=before.history.objects,
        remotes=remotes,
    )
    if not before.found:
        return result
    if dry_run:
        blocked = _blockers(root, repo)
        if blocked:
            warnings.append(f"--yes would refuse now: {blocked}")
        return replace(result, warnings=tuple(warnings))
    blocked = _blockers(root, repo)
    if blocked:
        raise GardenerError(blocked)
    purge_id = secrets.token_hex(6)
    line = _hash_line(root, text, purge_id)
    _begin(root, line)  # from here on, the text is refused, even if this is killed
    retired_before = _retired_values(root, [f.path for f in before.files])
    if before.history.commits:
        gitrewrite.rewrite_history(repo, needle_regex(text), REPLACEMENT, ignore_case)
    gitrewrite.forget_old_history(repo, needle.sub)
    _scrub_work_tree(root, before.files, needle)
    rekeyed = _rekey_retired(root, retired_before)
    # the recall index and the settings cache: caches that may hold the text
    shutil.rmtree(repo.git_dir / "gardener", ignore_errors=True)
    paths = _remember(root, line) + rekeyed
    who = needle.mask(by or _os_user())  # who asked may be whom it is about
    from gardener.git.repo import identity_for

    sha = commit(paths, _tombstone(len(commits), len(before.files), purge_id, who, now), identity_for(who))  # fmt: skip
    (root / PENDING).unlink(missing_ok=True)
    after = _survey(root, repo, needle)
    if after.files or after.history.holding:
        where = [f.path for f in after.files] + [f"object {s}" for s in after.history.holding[:5]]  # fmt: skip
        raise GardenerError(
            f"purge incomplete: these still hold the text: {', '.join(where)}"
        )
    warnings += [
        f".git/{p} still holds the text (a remote URL or a setting?): edit it by hand"
        for p in after.git_files
    ]
    return replace(
        result,
        objects_scanned=after.history.objects,
        purge_id=purge_id,
        commit=sha,
        warnings=tuple(warnings),
    )


def _entry_values(root: Path, path: str) -> dict[int, str]:
    """Line -> value of each entry of the daily note at ``path``; {} if it is
    not a dated note or cannot be read."""
    from gardener.files.layout import note_date
    from gardener.formats.dailynote import parse_note

    day = note_date(path.rpartition("/")[2])
    try:
        text = read_text(root / path)
    except (OSError, GardenerError):
        return {}
    if day is None:
        return {}
    return {e.line: e.value for e in parse_note(path, day, text).entries}


def _retired_values(root: Path, paths: Sequence[str]) -> dict[str, dict[int, str]]:
    """Of the files a purge is about to scrub, the notes with entries
    ``forget`` retired: path -> their entries' values by line (see
    ``_rekey_retired``)."""
    from gardener.store import retired

    if not (root / retired.REGISTER).is_file():
        return {}
    listed = {m.partition("\t")[0] for m in retired.read(root)}
    return {p: _entry_values(root, p) for p in paths if p in listed}


def _rekey_retired(root: Path, before: dict[str, dict[int, str]]) -> list[str]:
    """Rename, in ``.gardener/retired``, the entries the purge edited: they
    are named by their words, which now hold ``[PURGED]``, and would answer
    recall again under the new words. Returns the register's path if it
    changed (to commit with the tombstone), else []."""
    from gardener.store import retired

    if not before:
        return []
    register = root / retired.REGISTER
    text = register.read_text(encoding="utf-8", errors="surrogateescape")
    entries = retired.parse(text)
    for path, old_values in before.items():
        new_values = _entry_values(root, path)
        for line, old in old_values.items():
            new = new_values.get(line)
            was = retired.mark(path, old)
            if new is not None and new != old and was in entries:
                entries[retired.mark(path, new)] = entries.pop(was)
    rendered = retired.render(entries)
    if rendered == text:
        return []
    atomic_write(register, rendered, root=root)
    return [retired.REGISTER]


def _survey(root: Path, repo: Repo, needle: Needle) -> _Survey:
    files: list[FileHit] = []
    too_large: list[str] = []
    for path in _work_tree_files(root):
        rel = path.relative_to(root).as_posix()
        try:
            if path.stat().st_size >= _MAX_FILE:
                too_large.append(rel)
                continue
            n = needle.count(path.read_bytes())
        except OSError:
            continue  # gone meanwhile, or unreadable
        if n:
            files.append(FileHit(rel, n))
    history = gitlog.scan_history(repo, needle.count)
    git_files = tuple(gitlog.state_files_holding(repo, needle.count))
    return _Survey(tuple(files), history, git_files, tuple(too_large))


def _work_tree_files(root: Path) -> list[Path]:
    """Regular files under ``root`` (symlinks not followed, ``.git`` folders skipped)."""
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(names):
            path = Path(folder, name)
            if name != ".git" and path.is_file() and not path.is_symlink():
                found.append(path)
    return found


def _scrub_work_tree(root: Path, files: Sequence[FileHit], needle: Needle) -> None:
    """Replace the text in the files that held it (tracked ones were already reset)."""
    for hit in files:
        path = root / hit.path
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            continue
        if needle.count(data):
            atomic_write(path, needle.sub(data).decode("utf-8", "surrogateescape"), root=root)  # fmt: skip


def _blockers(root: Path, repo: Repo) -> str | None:
    """Why a history rewrite cannot run now, or None."""
    busy = gitrewrite.operation_in_progress(repo)
    if busy:
        return f"git is in the middle of {busy} in {root}: finish or abort it, then purge again"
    dirty = repo.uncommitted()
    if dirty:
        shown = ", ".join(dirty[:10]) + (" ..." if len(dirty) > 10 else "")
        return (
            f"uncommitted changes to tracked files ({shown}): purge rewrites the history and resets "
            f"the work tree to it, so they would be lost; commit them first "
            f"(`git -C {root} commit -m '...' -- <files>`) or stash them (`git -C {root} stash`), then purge again"
        )
    return None


def _remote_warning(remotes: Sequence[str], dry_run: bool) -> str:
    names = ", ".join(remotes)
    verb = "will still hold" if dry_run else "still hold"
    return (
        f"remote copies ({names}) {verb} the text: after checking the result, "
        f"force-push every branch and tag (`git push --force --all <remote>` and "
        f"`git push --force --tags <remote>`), ask the host to drop cached views "
        f"and every clone to be made anew"
    )


def _tombstone(commits: int, files: int, purge_id: str, who: str, now: datetime) -> str:
    return purge_message(commits, files, purge_id, who, now, PURGED)


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "unknown"
