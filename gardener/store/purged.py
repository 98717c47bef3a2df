"""The purged-hash register: the texts a purge erased, kept as keyed hashes so
they are refused if stored again.

``.gardener/purged`` (committed) holds one line per purge: purge id, length
and keyed hash of the normalized text (``planning.purge.purge_hash``). The key
is in the git-ignored ``.gardener/salt``; a purge under way keeps its line in
the git-ignored ``.gardener/purge-pending`` until its tombstone commits it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from gardener.files.atomic import atomic_write, ensure_state_dir
from gardener.files.layout import PURGE_PENDING, SALT, STATE_DIR
from gardener.files.read import read_text
from gardener.planning.purge import normalize, purge_hash

PURGED = f"{STATE_DIR}/purged"  # committed: one keyed hash per purged text
PENDING = PURGE_PENDING  # the hash of a purge not finished yet (see ``begin``)
IGNORE = f"{STATE_DIR}/.gitignore"
_PURGED_HEADER = (
    "# Texts purged from this workspace (gardener purge), kept so that they are\n"
    "# refused if stored again: purge id, length and keyed BLAKE2b hash of the\n"
    "# normalized text (casefolded, NFKC, spaces collapsed). The key is in the\n"
    "# git-ignored .gardener/salt, so these lines alone do not reveal the text.\n"
)


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


def make_salt(root: Path) -> bytes:
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


def hash_line(root: Path, text: str, purge_id: str) -> str:
    """The line of ``purged`` that remembers ``text``: id, length, keyed hash."""
    norm = normalize(text)
    return f"{purge_id}\t{len(norm)}\t{purge_hash(norm, make_salt(root))}\n"


def begin(root: Path, line: str) -> None:
    """Before history is rewritten: keep the hash line in the git-ignored
    ``purge-pending``, so that if the purge is killed half-way, the text is
    still refused and taken out of what agents write (``read_purged`` reads
    it), and ``check`` says to run the purge again. ``remember`` ends it."""
    ensure_state_dir(root)
    # .gardener/.gitignore is reset by the rewrite: until the tombstone commits
    # it, git's local exclude file keeps the salt and this file out of `add -A`
    exclude_locally(root, [SALT, PENDING])
    target = root / PENDING
    old = read_text(target) if target.exists() else ""
    atomic_write(target, old + line)


def exclude_locally(root: Path, paths: Sequence[str]) -> None:
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


def pending_lines(root: Path, text: str) -> list[str]:
    """The lines of ``purge-pending`` that hold ``text``'s hash: purges of it
    that were killed before they finished (``begin``); [] if none."""
    path, salt = root / PENDING, root / SALT
    if not path.is_file() or not salt.is_file():
        return []
    norm = normalize(text)
    try:
        digest = purge_hash(norm, bytes.fromhex(salt.read_text().strip()))
    except ValueError:
        return []
    wanted = [str(len(norm)), digest]
    return [
        line + "\n"
        for line in read_text(path).splitlines()
        if line.split("\t")[1:] == wanted
    ]


def is_remembered(root: Path, line: str) -> bool:
    """True if ``purged`` already holds ``line`` (its tombstone was made)."""
    target = root / PURGED
    return target.is_file() and line in read_text(target).splitlines(keepends=True)


def end_pending(root: Path, lines: Sequence[str]) -> None:
    """Take ``lines`` out of ``purge-pending``; the file goes when it is empty."""
    target = root / PENDING
    if not target.is_file():
        return
    rest = [x for x in read_text(target).splitlines(keepends=True) if x not in lines]
    if rest:
        atomic_write(target, "".join(rest))
    else:
        target.unlink()


def remember(root: Path, line: str) -> list[str]:
    """Record the text's hash ``line`` in ``purged``; returns the paths to commit."""
    ensure_state_dir(root)
    _ignore(root, "salt", "the key of the hashes in purged")
    _ignore(root, "purge-pending", "a purge that has not finished (its hash only)")
    target = root / PURGED
    old = read_text(target) if target.exists() else _PURGED_HEADER
    atomic_write(target, old + line)
    return [PURGED, IGNORE]
