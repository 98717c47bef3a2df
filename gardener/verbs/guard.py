"""Keep secrets out of git: redact files on disk before anything commits them.

Content that reached disk without the CLI (an agent writing the file itself,
an adopted workspace) is checked here. Each secret value becomes
``[REDACTED:<rule>]`` and the original line goes to a git-ignored, owner-only
quarantine file, so nothing is lost and nothing reaches git history.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from gardener.files import flock
from gardener.files.atomic import atomic_write, ensure_state_dir
from gardener.files.layout import PURGE_PENDING, STATE_DIR
from gardener.model.config import Config
from gardener.neverstore import decision, redact
from gardener.planning.purge import scrub
from gardener.store import refused
from gardener.store.purged import PURGED, learn, read_register

QUARANTINE = f"{STATE_DIR}/quarantine.jsonl"
REFUSED = refused.REFUSED
PURGED_RULE = "purged"  # a Redaction's rule for a purged text found again


@dataclass(frozen=True)
class Redaction:
    """One secret taken out of a file (the secret itself is only in quarantine)."""

    path: str
    line: int  # 0: the secret was in the file's name (the file was renamed)
    rule: str

    def where(self) -> str:
        """``path:line``, or ``the name of path`` for a renamed file."""
        return f"{self.path}:{self.line}" if self.line else f"the name of {self.path}"

    def summary(self) -> str:
        """What was done, in a few words (a commit message's line)."""
        if self.rule == PURGED_RULE:
            return f"removed a purged text from {self.where()}"
        return f"redacted {self.rule} in {self.where()}"

    def notice(self) -> str:
        """What was done and where the original is, for people (output)."""
        if self.rule == PURGED_RULE:
            return f"{self.summary()} (kept nowhere)"
        return f"{self.summary()} (original kept in {QUARANTINE}, never committed)"


def _quarantine(
    root: Path, path: str, text: str, found: Iterable[redact.Finding], now: datetime
) -> None:
    ensure_state_dir(root)
    lines = text.split("\n")
    records = [
        json.dumps(
            {
                "time": now.isoformat(timespec="seconds"),
                "path": path,
                "line": f.line,
                "rule": f.rule,
                "original": lines[f.line - 1] if f.line else text,  # 0: a file name
            },
            ensure_ascii=False,
        )
        for f in found
    ]
    target = root / QUARANTINE
    fd = os.open(
        target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | flock.OPEN_FLAGS, 0o600
    )
    try:
        os.write(fd, ("\n".join(records) + "\n").encode("utf-8", "surrogateescape"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(target, 0o600)


def rename_secret_names(
    root: Path,
    paths: Iterable[str],
    config: Config,
    now: datetime,
    is_new: Callable[[str], bool],
) -> tuple[dict[str, str], list[Redaction]]:
    """Rename each of ``paths`` whose file name holds a never-store match,
    or a text purged from the workspace before (it becomes ``purged``, and
    the original name is not quarantined: it was erased on purpose).

    A path is a commit's path too, so a token in a note's name would reach
    history. The secret part of the name becomes ``redacted`` (``-2``,
    ``-3``... if that name is taken); the original name goes to quarantine.
    Only files ``is_new`` says were never committed are renamed: a committed
    name is already in history (``gardener purge`` erases it).

    Returns ({old path: new path}, one Redaction per renamed file).
    """
    renamed: dict[str, str] = {}
    done: list[Redaction] = []
    purged = purged_scrubber(root)
    for path in paths:
        folder, _, name = path.rpartition("/")
        # a note's name is its ISO date, then "-" or "_" and free text, then .md:
        # only the free text is scanned, so the renamed file stays a note
        day, sep, inner = name[:10], name[10:11], name[11:-3]
        if sep not in ("-", "_") or not name.endswith(".md"):
            continue
        found = redact.find(inner, config.never_store, config.allow)
        if purged and purged(inner)[1]:  # purged before: erased, not quarantined
            found.append(redact.Finding(PURGED_RULE, 0, 0, 0))
        if not found or not (root / path).is_file() or not is_new(path):
            continue
        for f in reversed(found):  # sorted, not overlapping: cut from the end
            if f.rule != PURGED_RULE:
                inner = f"{inner[: f.start]}redacted{inner[f.end :]}"
        if purged:
            inner = purged(inner)[0].replace(*REPLACEMENT_IN_NAMES)
        clean = f"{day}{sep}{inner}.md"
        stem, dot, ext = clean.rpartition(".")
        candidate, n = clean, 1
        while (root / folder / candidate).exists():
            n += 1
            candidate = f"{stem}-{n}{dot}{ext}"
        new = f"{folder}/{candidate}" if folder else candidate
        secret = [f._replace(line=0) for f in found if f.rule != PURGED_RULE]
        if secret:
            _quarantine(root, new, name, secret, now)
        os.rename(root / path, root / new)
        renamed[path] = new
        done.extend(Redaction(new, 0, f.rule) for f in found)
    return renamed, done


Cleaner = Callable[[str], tuple[str, list[redact.Finding]]]
# a purged text in a file name becomes "purged" (brackets make awkward names)
REPLACEMENT_IN_NAMES = ("[PURGED]", "purged")


Scrubber = Callable[..., tuple[str, list[int]]]


def purged_scrubber(root: Path) -> Scrubber | None:
    """A function ``(text, known=())`` giving a text with the texts purged
    from the workspace at ``root`` replaced by ``[PURGED]``, and the lines
    that held one (``planning.purge.scrub``; ``known``: lines known to hold none);
    None if nothing was purged (then nothing is read)."""
    if not any((root / p).is_file() for p in (PURGED, PURGE_PENDING)):
        return None
    register = read_register(root)
    if not register:
        return None

    def scrubber(text: str, known: Collection[str] = ()) -> tuple[str, list[int]]:
        nonlocal register
        if register.sealed:  # a text met here for the first time: kept fast
            found = register.found(
                "\n".join(x for x in text.split("\n") if x not in known)
            )
            learn(root, found)
            register = register.knowing(found)
        return scrub(text, register, known)

    return scrubber


def never_store_for(rel: str, config: Config) -> Sequence[tuple[str, str]]:
    """rules.md's own ``never_store`` patterns that apply to the file ``rel``
    (workspace-relative): none for rules.md itself, whose patterns name what
    they refuse and would otherwise redact themselves."""
    return () if rel == "rules.md" else config.never_store


class ScanMemo:
    """``decision.found_spans`` of the texts one ``record`` scanned, by text.

    Record scans each changed file, then reads the files again for its
    commit and scans what no commit holds yet: for a note never committed
    that is the whole file, the very text just scanned (an 18,000-entry
    adoption scanned twice). The same text with the same rules has the same
    findings, so the second scan is a lookup. Holds at most ``limit``
    characters of text (a bigger one is scanned again, not kept).
    """

    def __init__(self, limit: int = 64_000_000) -> None:
        self.limit = limit
        self.held = 0
        self.found: dict[
            tuple[str, tuple[tuple[str, str], ...], tuple[str, ...]],
            list[tuple[int, int, str]],
        ] = {}

    def spans(
        self, text: str, extra: Sequence[tuple[str, str]], allow: Sequence[str]
    ) -> list[tuple[int, int, str]]:
        """``decision.found_spans(text, extra, allow)``."""
        key = (text, tuple(extra), tuple(allow))
        hit = self.found.get(key)
        if hit is None:
            hit = decision.found_spans(text, extra, allow)
            if self.held + len(text) <= self.limit:
                self.found[key] = hit
                self.held += len(text)
        return list(hit)  # the caller's to change

    def flagged(
        self,
        text: str,
        extra: Sequence[tuple[str, str]],
        allow: Sequence[str],
        remembered: decision.Spans | None,
    ) -> bool:
        """``decision.flagged(text, extra, allow, remembered)``."""
        return bool(self.spans(text, extra, allow)) or bool(
            remembered is not None and remembered(text)
        )


def redact_files(
    root: Path,
    paths: Iterable[str],
    config: Config,
    now: datetime,
    memo: ScanMemo | None = None,
    committed: Mapping[str, str | None] | None = None,
) -> list[Redaction]:
    """Redact never-store content in the given workspace files, in place.

    Args:
        root: the workspace root.
        paths: workspace-relative posix paths; missing files are skipped.
        config: never_store and allow patterns come from rules.md.
        now: local time, recorded in the quarantine.
    Returns one Redaction per secret removed.

    One decision for the whole change (``neverstore.decision``): each value
    found in one of the files is redacted wherever it stands in any of them,
    and so is each value refused or redacted before (``store.refused``); the
    values found are remembered there. Bytes that are not UTF-8 are kept as
    they are and the rest is still scanned. rules.md is scanned with the
    built-in rules only: its own never_store patterns would otherwise redact
    themselves. The file's flock is held (``gardener note`` waits), and lines
    another process appended while the file was being replaced are carried
    over to the new file. While a process holds the file open for writing
    (an agent that appends later through the same descriptor), the file is
    rewritten in place instead, so those later lines land in it, not in a
    replaced copy. ``memo``: keeps the scans for the caller to ask again.

    ``committed``: the files' texts at the last commit (None: not committed),
    which were scanned before that commit. A file whose lines no commit holds
    (with the lines of context ``redact.unscanned`` gives them) hold no
    finding is then not scanned whole: an append to a 50 MB note costs the
    appended lines. Values refused before, and values found in the change,
    are still looked for in the whole file; a finding in the new lines has
    the whole file scanned, as without ``committed``. A rule added since the
    last commit applies from then on (see docs/design.md, "Never store").
    With ``committed``, a file in which nothing is found (and no value is
    looked for) is not read again under its lock: the caller scans what it
    commits once more, as ``record`` does.
    """
    memo = memo or ScanMemo(0)
    paths = [p for p in paths if (root / p).is_file() and not (root / p).is_symlink()]
    remembered = refused.finder(str(root))
    shared: set[str] = set()
    read: dict[str, tuple[str, list[tuple[int, int, str]]]] = {}
    for path in paths:  # the values of the whole change, before any file changes
        text = (root / path).read_bytes().decode("utf-8", "surrogateescape")
        extra = never_store_for(path, config)
        before = committed.get(path) if committed is not None else None
        fresh = text if before is None else redact.unscanned(text, before)
        if fresh is text or memo.spans(fresh, extra, config.allow):
            spans = memo.spans(text, extra, config.allow)
        else:  # the new lines are clean: the rest was scanned when committed
            spans = []
        read[path] = (text, spans)
        shared |= decision.values_of(text, spans)
    done: list[Redaction] = []
    found_values: set[str] = set(shared)
    for path in paths:
        extra = never_store_for(path, config)

        def clean(
            text: str, extra: Sequence[tuple[str, str]] = extra, path: str = path
        ) -> tuple[str, list[redact.Finding]]:
            before, spans = read[path]
            got = decision.decide(
                text, extra, config.allow, shared, remembered,
                known=spans if text == before else None,
            )  # fmt: skip
            found_values.update(got.values)
            return got.text, got.findings

        def keep(text: str, found: list[redact.Finding], path: str = path) -> None:
            _quarantine(root, path, text, found, now)

        if (
            committed is not None
            and not read[path][1]
            and not shared
            and remembered is None
        ):
            # nothing found, nothing to look for: the file stays as it is; a
            # line written since is the caller's to scan (record rescans what
            # it commits), so the file is not read again here
            continue
        done += _rewrite(root, path, clean, keep, read[path][0])
    if done:
        refused.remember(str(root), found_values)
    return done


def remove_purged(
    root: Path,
    paths: Iterable[str],
    committed: Callable[[list[str]], Mapping[str, str | None]] | None = None,
) -> list[Redaction]:
    """Replace texts purged from this workspace (``gardener purge``) by
    ``[PURGED]`` in the given files, as ``redact_files`` rewrites them; the
    original is not quarantined (it was erased on purpose). As docs/design.md says, a
    purged text is refused when stored again, also when an agent writes it
    into a file itself. Returns one Redaction (rule ``PURGED_RULE``) per line.
    Nothing is read unless the workspace has purged something.
    ``committed(paths)`` gives the files' committed texts, whose lines are
    not scanned again (the purge erased the text from every commit).
    """
    scrub = purged_scrubber(root)
    if scrub is None:
        return []
    paths = list(paths)
    # while a purge has not finished, committed lines may still hold its text
    pending = (root / PURGE_PENDING).exists()
    texts = committed(paths) if committed and not pending else {}

    def clean(
        text: str, known: frozenset[str] = frozenset()
    ) -> tuple[str, list[redact.Finding]]:
        out, lines = scrub(text, known)
        starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
        return out, [
            redact.Finding(PURGED_RULE, starts[n - 1], starts[n - 1], n) for n in lines
        ]

    done: list[Redaction] = []
    for path in paths:
        known = frozenset((texts.get(path) or "").split("\n"))
        done += _rewrite(
            root, path, functools.partial(clean, known=known), lambda text, found: None
        )
    return done


def _rewrite(
    root: Path,
    path: str,
    clean: Cleaner,
    keep: Callable[[str, list[redact.Finding]], None],
    like: str | None = None,
) -> list[Redaction]:
    """Rewrite the file at ``path`` as ``clean`` says, under its flock;
    ``keep`` is given each text and its findings first (the quarantine);
    ``like``: the text read before, likely the file's (see ``_read_rest``).
    A missing file, or a symlink, is skipped. See ``redact_files``."""
    target = root / path
    if not target.is_file() or target.is_symlink():
        return []
    done: list[Redaction] = []
    fd = os.open(target, os.O_RDONLY | flock.OPEN_FLAGS)
    try:
        flock.lock(fd)
        text = _read_rest(fd, like)
        cleaned, found = clean(text)
        if not found:
            return []
        if open_for_writing(target):
            found = _rewrite_in_place(root, path, clean, keep)
            return [Redaction(path, f.line, f.rule) for f in found]
        keep(text, found)
        atomic_write(target, cleaned, root=root)
        done.extend(Redaction(path, f.line, f.rule) for f in found)
        lines_before = text.count("\n")
        while late := _read_rest(fd):  # written to the old file after we read it
            cleaned, found = clean(late)
            if found:
                keep(late, found)
            with open(target, "ab") as out:
                out.write(cleaned.encode("utf-8", "surrogateescape"))
            done.extend(Redaction(path, f.line + lines_before, f.rule) for f in found)
            lines_before += late.count("\n")
    finally:
        flock.close(fd)
    return done


def _rewrite_in_place(
    root: Path,
    path: str,
    clean: Cleaner,
    keep: Callable[[str, list[redact.Finding]], None],
) -> list[redact.Finding]:
    """Rewrite the file's bytes from the first change on, same inode.

    Lines appended meanwhile are read and cleaned too; the file is only
    written once its size is what was read. A write that lands in the few
    microseconds between that check and the write can still be overwritten,
    and a killed run can leave that tail half rewritten (``keep`` has the
    original lines first).
    """
    fd = os.open(root / path, os.O_RDWR | flock.OPEN_FLAGS)
    try:
        while True:
            data = b""
            while chunk := flock.pread(fd, 1 << 20, len(data)):
                data += chunk
            text = data.decode("utf-8", "surrogateescape")
            cleaned, found = clean(text)
            new = cleaned.encode("utf-8", "surrogateescape")
            if not found:
                return []
            keep(text, found)  # again after a retry: harmless
            if os.fstat(fd).st_size != len(data):
                continue  # appended to meanwhile: read it all again
            first = min(f.start for f in found)
            start = len(text[:first].encode("utf-8", "surrogateescape"))
            flock.pwrite(fd, new[start:], start)
            if len(new) < len(data):
                os.ftruncate(fd, len(new))
            os.fsync(fd)
            return found
    finally:
        os.close(fd)


def open_for_writing(path: Path) -> bool:
    """True if a process (this one included) has ``path`` open for writing.

    Reads Linux's /proc (False elsewhere, and for processes of other users):
    an agent that keeps a note open and appends to it later would lose those
    lines if the file were replaced by a new one.
    """
    target = os.path.realpath(path)
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            for fd in (proc / "fd").iterdir():
                if os.readlink(fd) != target:
                    continue
                info = (proc / "fdinfo" / fd.name).read_text()
                flags = re.search(r"^flags:\s*([0-7]+)", info, re.MULTILINE)
                if flags and int(flags[1], 8) & (os.O_WRONLY | os.O_RDWR):
                    return True
        except OSError:  # gone meanwhile, or not ours to inspect
            continue
    return False


def _read_rest(fd: int, like: str | None = None) -> str:
    """The rest of ``fd`` from its offset, decoded; the bytes grow in one
    buffer (chunks and their join would hold a 50 MB note twice).

    ``like``: the text the caller read before (ASCII only: a char a byte).
    When the bytes are that text, that very str is returned: a 50 MB note
    is then not held a second and third time (bytes and text) to learn that
    nothing changed."""
    data = bytearray()
    if like is not None and like.isascii():
        at = 0
        while chunk := os.read(fd, 1 << 22):
            if like[at : at + len(chunk)].encode("ascii") != chunk:
                data += like[:at].encode("ascii")  # the same up to here
                data += chunk
                break
            at += len(chunk)
        else:
            if at == len(like):
                return like
            data += like[:at].encode("ascii")
    while chunk := os.read(fd, 1 << 22):
        data += chunk
    return data.decode("utf-8", "surrogateescape")


def quarantined(root: Path) -> list[tuple[Redaction, str]]:
    """What was redacted so far, with when (local ISO time): (Redaction, time)."""
    target = root / QUARANTINE
    if not target.exists():
        return []
    found = []
    for raw in target.read_text(
        encoding="utf-8", errors="surrogateescape"
    ).splitlines():
        try:
            record = json.loads(raw)
            found.append(
                (
                    Redaction(
                        str(record["path"]), int(record["line"]), str(record["rule"])
                    ),
                    str(record["time"]),
                )
            )
        except (ValueError, KeyError, TypeError):
            continue  # a damaged line: the rest still counts
    return found
