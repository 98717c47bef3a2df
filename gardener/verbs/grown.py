"""Committed texts of big files that only grew, read from the files themselves.

A 50 MB note an agent appended a line to: git hands its committed text back
through a pipe (50 MB, a few tenths of a second, twice a pass); the file
holds those bytes already. A file's first N bytes are its committed text
when their git blob id is the one HEAD holds for it (N: that blob's size).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from gardener.errors import GardenerError
from gardener.files.read import read_bytes
from gardener.git.repo import Repo
from gardener.git.run import relative_paths
from gardener.store.statcache import stamp_of

MIN_BYTES = 1 << 20  # a smaller file: git's copy costs less than the check


# (path, stat stamp) -> the committed length in bytes, or None: not grown
Memo = dict[tuple[str, str], "int | None"]


def grown(
    repo: Repo, root: Path, rels: Sequence[str], memo: Memo | None = None
) -> dict[str, tuple[bytes | bytearray | None, int]]:
    """The files of ``rels`` (workspace-relative) of at least ``MIN_BYTES``
    that start with their text at HEAD: path -> (the file's bytes, None when
    ``memo`` answered, the committed text's length in bytes). Others are
    left out. ``memo``: the answers of a call before, for files whose stamp
    is the same (one ``record`` asks twice; HEAD does not move in between);
    it holds no bytes (a 50 MB note would stay in memory)."""
    memo = {} if memo is None else memo
    big: list[tuple[str, tuple[str, str]]] = []
    found: dict[str, tuple[bytes | bytearray | None, int]] = {}
    for rel in relative_paths(rels):
        try:
            st = (root / rel).lstat()
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or st.st_size < MIN_BYTES or "\n" in rel:
            continue
        key = (rel, stamp_of(st))
        if key in memo:
            if (size := memo[key]) is not None:
                found[rel] = (None, size)
        else:
            big.append((rel, key))
    if not big or not repo.has_commits():
        return found
    request = "".join(f"HEAD:./{r}\n" for r, _ in big).encode(
        "utf-8", "surrogateescape"
    )
    _, out = repo.run("cat-file", "--batch-check", stdin=request)
    lines = out.decode("ascii", "replace").splitlines()
    for (rel, key), line in zip(big, lines, strict=False):
        memo[key] = None
        fields = line.split(" ")
        if len(fields) != 3 or fields[1] != "blob":
            continue  # missing at HEAD, or not a file there
        oid, size = fields[0], int(fields[2])
        try:
            data = read_bytes(root / rel)
        except (OSError, GardenerError):
            continue
        if len(data) < size:
            continue
        digest = hashlib.sha1(b"blob %d\0" % size)
        digest.update(memoryview(data)[:size])
        if digest.hexdigest() == oid:
            found[rel] = (data, size)
            memo[key] = size
    return found


def committed_texts(
    repo: Repo, root: Path, rels: Sequence[str], memo: Memo | None = None
) -> dict[str, str | None]:
    """``repo.committed_texts(rels)``, the big files that only grew read
    from the work tree (the same bytes, decoded the same way); ``memo``: as
    ``grown`` takes it."""
    rels = relative_paths(rels)
    held = grown(repo, root, rels, memo)
    out: dict[str, str | None] = {}
    for rel, (data, size) in held.items():
        if data is None:  # vouched for by its stamp: read it again, check that
            try:
                fd = os.open(root / rel, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
                try:
                    data = _read_fd(fd)
                    same = (rel, stamp_of(os.fstat(fd)))
                finally:
                    os.close(fd)
            except OSError:
                continue
            if memo is None or memo.get(same) != size or len(data) < size:
                continue  # changed since: git's copy
        out[rel] = str(memoryview(data)[:size], "utf-8", "surrogateescape")
        del data
    rest = [r for r in rels if r not in out]
    if rest:
        out.update(repo.committed_texts(rest))
    return {rel: out[rel] for rel in rels}


def _read_fd(fd: int) -> bytearray:
    """All of ``fd``'s bytes, grown in one buffer (chunks and their join
    would hold a 50 MB note twice at once)."""
    data = bytearray()
    while chunk := os.read(fd, 1 << 22):
        data += chunk
    return data
