"""The register of purged texts: kept as hashes, so that they are refused if
stored again, on every clone.

``.gardener/purged`` (committed) holds one line per purge: purge id,
``scrypt``, its cost, its salt, the text's shape and the slow hash
(``planning.purge.Sealed``; ``sealed_line``). Lines of the older form (purge
id, length, keyed BLAKE2b hash) are read with this machine's key, the
git-ignored ``.gardener/salt``: they work only on the machine that made them.
``.gardener/purged.local`` (git-ignored) holds that fast form for each
purged text this machine has met (it purged it, or a sealed record matched a
write or its history: ``learn``), so those are checked in every window and
without scrypt. A purge under way keeps its fast line in the git-ignored
``.gardener/purge-pending`` until its tombstone commits it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from gardener.files.atomic import atomic_write, ensure_state_dir
from gardener.files.layout import PURGE_PENDING, SALT, STATE_DIR
from gardener.files.read import read_text
from gardener.planning.purge import (
    SCRYPT_N,
    SCRYPT_P,
    SCRYPT_R,
    SEALED_KIND,
    Register,
    Sealed,
    normalize,
    purge_hash,
    seal,
)

PURGED = f"{STATE_DIR}/purged"  # committed: one sealed record per purged text
LOCAL = f"{STATE_DIR}/purged.local"  # git-ignored: fast hashes of texts met here
PENDING = PURGE_PENDING  # the hash of a purge not finished yet (see ``begin``)
IGNORE = f"{STATE_DIR}/.gitignore"
_PURGED_HEADER = (
    "# Texts purged from this workspace (gardener purge), kept so that every clone\n"
    "# refuses them if stored again: purge id, scrypt, its cost, salt, the text's\n"
    "# shape (length:words:kinds of its first and last character) and the scrypt\n"
    "# hash of the normalized text (casefolded, NFKC, punctuation as spaces).\n"
)
_SALT_BYTES = 16


def _lines(root: Path, rel: str) -> list[list[str]]:
    path = root / rel
    if not path.is_file():
        return []
    return [
        line.split("\t")
        for line in read_text(path).splitlines()
        if line and not line.startswith("#")
    ]


def _sealed(parts: list[str]) -> Sealed | None:
    """The sealed record of a split line of ``purged``; None if it is not one."""
    if len(parts) != 6 or parts[1] != SEALED_KIND:
        return None
    try:
        cost = dict(kv.split("=", 1) for kv in parts[2].split(","))
        n, r, p = int(cost["n"]), int(cost["r"]), int(cost["p"])
        return Sealed(parts[0], bytes.fromhex(parts[3]), parts[4], parts[5], n, r, p)
    except (KeyError, ValueError):
        return None


def read_register(root: Path) -> Register:
    """What this machine can check of the workspace's purged texts; empty if
    nothing was purged. A sealed record whose text this machine has met
    (its id in ``purged.local`` or ``purge-pending``) is checked fast only."""
    root = Path(root)
    salt = b""
    if (root / SALT).is_file():
        try:
            salt = bytes.fromhex((root / SALT).read_text().strip())
        except ValueError:
            salt = b""
    committed = _lines(root, PURGED)
    fast_lines = _lines(root, LOCAL) + _lines(root, PENDING)
    fast_lines += [p for p in committed if len(p) == 3]  # the older form
    pairs, met = set(), set()
    if salt:
        for parts in fast_lines:
            if len(parts) == 3 and parts[1].isdigit():
                pairs.add((int(parts[1]), parts[2]))
                met.add(parts[0])
    sealed = tuple(
        record
        for record in map(_sealed, committed)
        if record is not None and record.purge_id not in met
    )
    return Register(salt, frozenset(pairs), sealed)


def with_sealed(root: Path, register: Register, committed: str) -> Register:
    """``register`` (``read_register(root)``) with the sealed records of
    another copy of ``purged`` (``committed``: its text, e.g. a remote's)
    that it lacks and this machine has not met."""
    have = {r.purge_id for r in register.sealed}
    have |= {parts[0] for parts in _lines(root, LOCAL) + _lines(root, PENDING)}
    extra = [
        record
        for record in (_sealed(line.split("\t")) for line in committed.splitlines())
        if record is not None and record.purge_id not in have
    ]
    return Register(register.salt, register.fast, register.sealed + tuple(extra))


def purge_ids(committed: str) -> set[str]:
    """The purge ids in a text of ``purged`` (both forms)."""
    return {
        line.split("\t", 1)[0]
        for line in committed.splitlines()
        if line and not line.startswith("#") and "\t" in line
    }


def read_purged(root: Path) -> tuple[bytes, frozenset[tuple[int, str]]]:
    """The salt and fast (length, hash) pairs of ``read_register``."""
    register = read_register(root)
    return register.salt, register.fast


def is_refused(root: Path, text: str) -> bool:
    """True if ``text`` holds a purged text; one found by its sealed record
    is remembered here (``learn``), so it is checked fast from then on."""
    register = read_register(root)
    if not register:
        return False
    from gardener.planning.purge import refused_by_purge

    if refused_by_purge(text, register.salt, register.fast):
        return True
    found = register.found(text)
    if found:
        learn(root, found)
    return bool(found)


def learn(root: Path, found: Sequence[tuple[Sealed, str]]) -> None:
    """Keep in ``purged.local`` the fast hash of each (record, normalized
    text) found, under this machine's salt (made if missing)."""
    if not found:
        return
    root = Path(root)
    exclude_locally(root, [SALT, LOCAL])
    salt = make_salt(root)
    target = root / LOCAL
    old = read_text(target) if target.exists() else ""
    lines = [
        f"{record.purge_id}\t{len(norm)}\t{purge_hash(norm, salt)}\n"
        for record, norm in found
    ]
    atomic_write(target, old + "".join(x for x in lines if x not in old))


def sealed_line(text: str, purge_id: str) -> str:
    """The committed line of ``purged`` for ``text``: a sealed record under a
    new random salt."""
    record = seal(text, purge_id, secrets.token_bytes(_SALT_BYTES))
    cost = f"n={SCRYPT_N},r={SCRYPT_R},p={SCRYPT_P}"
    fields = [
        purge_id,
        SEALED_KIND,
        cost,
        record.salt.hex(),
        record.shape,
        record.digest,
    ]
    return "\t".join(fields) + "\n"


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
    """The fast line that remembers ``text`` on this machine: id, length,
    keyed hash (``purge-pending``, ``purged.local``)."""
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
    exclude_locally(root, [SALT, PENDING, LOCAL])
    target = root / PENDING
    old = read_text(target) if target.exists() else ""
    atomic_write(target, old + line)


def exclude_locally(root: Path, paths: Sequence[str]) -> None:
    """Add ``paths`` (workspace-relative) to ``.git/info/exclude`` unless
    there; nothing if the git folder is not ``root/.git`` (a folder, or a
    symlink to one)."""
    info = root / ".git" / "info"
    if not (root / ".git").is_dir():
        return
    info.mkdir(exist_ok=True)
    exclude = info / "exclude"
    rules = read_text(exclude) if exclude.exists() else ""
    missing = [f"/{p}" for p in paths if f"/{p}" not in rules.split()]
    if missing:
        head = rules if rules.endswith("\n") or not rules else rules + "\n"
        # the git folder may be a symlink to a folder outside the workspace
        atomic_write(exclude, head + "\n".join(missing) + "\n", root=info.resolve())


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
    """True if ``purged.local`` (or, older form, ``purged``) already holds the
    fast ``line`` (its tombstone was made)."""
    return any(
        (root / rel).is_file()
        and line in read_text(root / rel).splitlines(keepends=True)
        for rel in (LOCAL, PURGED)
    )


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


def remember(root: Path, text: str, line: str) -> list[str]:
    """Record ``text``: its fast hash ``line`` in ``purged.local``, its sealed
    record in ``purged``; returns the paths to commit."""
    ensure_state_dir(root)
    _ignore(root, "salt", "the key of this machine's fast hashes of purged texts")
    _ignore(root, "purge-pending", "a purge that has not finished (its hash only)")
    _ignore(
        root, "purged.local", "fast hashes of the purged texts this machine has met"
    )
    local = root / LOCAL
    old_local = read_text(local) if local.exists() else ""
    if line not in old_local:
        atomic_write(local, old_local + line)
    target = root / PURGED
    old = read_text(target) if target.exists() else _PURGED_HEADER
    atomic_write(target, old + sealed_line(text, line.split("\t", 1)[0]))
    return [PURGED, IGNORE]
