"""Where the note tails (``gardener.store.notetail``) are kept, and what they are checked against.

``.git/gardener/note-tails`` (marshal): never committed, safe to delete (the
next pass parses whole notes and keeps their tails again). A tail is used
only when the month's ledger files hold what the pass that kept it left
(``ledger_state``), and only by the version of the parser that made it.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import time
from array import array
from collections.abc import Mapping
from contextlib import suppress
from functools import cache
from pathlib import Path

from gardener.formats import dailynote
from gardener.model import marks as marks_module
from gardener.store import noteparts, notetail
from gardener.store.ledger import appendix_file, month_file
from gardener.store.notetail import LedgerState, Tail
from gardener.store.statcache import stamp_of

FILE = "note-tails"
_VERSION = ("gardener note tails", 3, sys.version_info[:2])
_TRUSTED_AFTER_NS = 2_000_000_000  # a stamp this old vouches for a file's bytes


def ledger_state(
    root: Path, pending: Path | None, month: str, before: LedgerState | None = None
) -> LedgerState:
    """``LedgerState`` of a month's ledger file, appendix and pending marks.

    A file whose stamp is the one ``before`` holds for it is not read again
    (the month's file of a big note holds 500,000 marks); a stamp is kept
    only when the file is older than ``_TRUSTED_AFTER_NS`` (as git does for
    its index: a file written within the clock's tick may change unseen).
    """
    out = []
    paths = (root / month_file(month), root / appendix_file(month))
    for i, path in enumerate((*paths, pending / month if pending else None)):
        try:
            st = os.stat(path) if path else None
        except FileNotFoundError:
            st = None
        if st is None:
            out.append(("", ""))
            continue
        stamp = stamp_of(st)
        if max(st.st_mtime_ns, st.st_ctime_ns) > time.time_ns() - _TRUSTED_AFTER_NS:
            stamp = ""
        if before is not None and stamp and before[i][0] == stamp:
            out.append(before[i])
            continue
        try:
            data = path.read_bytes() if path is not None else b""
            out.append((stamp, hashlib.sha1(data).hexdigest()))
        except FileNotFoundError:
            out.append(("", ""))
    return tuple(out)


def load(git_dir: Path | None) -> dict[str, Tail]:
    """The tails in ``git_dir/gardener/``, by note path; {} if missing or unreadable."""
    if git_dir is None:
        return {}
    try:
        data = marshal.loads((git_dir / "gardener" / FILE).read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(data, tuple) or len(data) != 3 or data[:2] != (_VERSION, _code()):
        return {}
    out: dict[str, Tail] = {}
    try:
        for rel, row in data[2].items():
            size, prefix, index, offset, headings, front, raw = row[:7]
            repeats, kept, rest, ledger = row[7:]
            digests = array("Q")
            digests.frombytes(raw)
            out[rel] = Tail(
                size, prefix, index, offset, headings, front, digests, repeats,
                kept, rest, ledger,
            )  # fmt: skip
    except (TypeError, ValueError):
        return {}
    return out


def save(git_dir: Path | None, tails: Mapping[str, Tail]) -> None:
    """Keep ``tails`` in place of the file's (a failure to write is ignored)."""
    if git_dir is None or not _code():
        return
    folder = git_dir / "gardener"
    path = folder / FILE
    if not tails:
        with suppress(OSError):
            path.unlink(missing_ok=True)
        return
    rows = {
        rel: (
            t.size, t.prefix, t.index, t.offset, t.headings, t.front,
            t.digests.tobytes(), t.repeats, t.kept, t.rest, t.ledger,
        )
        for rel, t in tails.items()
    }  # fmt: skip
    temp = folder / f"{FILE}.new"
    with suppress(OSError, ValueError):
        data = marshal.dumps((_VERSION, _code(), rows))
        folder.mkdir(exist_ok=True)
        temp.unlink(missing_ok=True)
        # owner-only, as the recall index: it holds notes' text
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, path)


@cache
def _code() -> str:
    """A digest of the sources a tail's meaning rests on (the note parser and
    its reading in parts, the marks and this module): a tail kept by another version is not used."""
    digest = hashlib.sha1()
    for module in (dailynote, marks_module, noteparts, notetail, sys.modules[__name__]):
        try:
            digest.update(Path(str(module.__file__)).read_bytes())
        except (OSError, TypeError):
            return ""
    return digest.hexdigest()
