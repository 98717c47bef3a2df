"""The ``note`` verb: append one entry to a daily note and commit it (see docs/design.md).

``write_note`` is the verb. ``Workspace.note`` calls it with the settings of
rules.md; a plain ``gardener note`` calls it through ``note_fresh`` with the
settings cached, without building a ``Workspace``, because interpreter start
and imports are most of what a note costs (bench/README.md). So this module
and what it imports on the common path (``gardener.neverstore``,
``gardener.git``, ``gardener.store.journal``, ``gardener.files``,
``gardener.verbs.messages``, and ``gardener.formats.blocks`` and
``gardener.planning.headingwords`` to see where an append lands) use no dataclasses (creating one costs ~0.5 ms at
import), and import no pathlib (~6 ms with what it loads), typing (~4 ms:
records are ``gardener.model.record.Record``), contextlib or threading: paths
are ``os.path`` strings. tests/test_imports.py checks that a note loads none
of them (docs/internals.md, Hot path).
"""

from __future__ import annotations

import os
import re
import stat
from datetime import date, datetime

from gardener.errors import GardenerError, RefusedError, UsageError
from gardener.files.append import append_entry, appended_text
from gardener.files.layout import (
    REFUSED,
    SALT,
    STATE_DIR,
    exists,
    is_file,
    is_symlink,
    refuse_outside,
)
from gardener.files.lock import workspace_lock
from gardener.formats.entryline import (
    FUTURE_SLACK_S,
    bare_value,
    no_value,
    render_entry,
    too_long,
)
from gardener.model.record import Record
from gardener.model.validtime import zone_named
from gardener.verbs.maintenance import maintenance_due
from gardener.verbs.messages import note_message

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Mapping

    from gardener.git.repo import Identity, Repo
    from gardener.model.config import Config


class NoteSettings(Record):
    """What ``note`` needs of rules.md (see ``config.Config``)."""

    notes_dir: str
    memory_file: str
    timezone: str  # IANA name
    never_store: tuple[tuple[str, str], ...]  # (name, regex)
    allow: tuple[str, ...]  # regexes
    # rules.md's ``headings``, in order: (kind, heading words)
    headings: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @classmethod
    def of(cls, config: Config) -> NoteSettings:
        """The settings of a parsed ``Config``."""
        from gardener.planning.headings import heading_words

        headings = tuple(heading_words(config).items())
        return cls(config.notes_dir, config.memory_file, config.timezone,
                   tuple(config.never_store), tuple(config.allow), headings)  # fmt: skip

    @classmethod
    def from_values(cls, values: Mapping[str, object]) -> NoteSettings | None:
        """The settings from ``gardener.model.config.as_values`` as cached
        (``gardener.store.settings``); None if they do not have the expected
        shape."""
        try:
            pairs = values["never_store"]
            allow = values["allow"]
            # rules.md's heading words and the lexicon's, as the cache holds them
            headings = values.get("note_headings", values["headings"])
            if not isinstance(pairs, list) or not isinstance(allow, list):
                return None
            if not isinstance(headings, dict):
                return None
            return cls(
                str(values["notes_dir"]),
                str(values["memory_file"]),
                str(values["timezone"]),
                tuple((str(name), str(regex)) for name, regex in pairs),
                tuple(str(a) for a in allow),
                tuple((str(k), tuple(str(w) for w in v)) for k, v in headings.items()),
            )
        except (KeyError, TypeError, ValueError):
            return None


class NoteResult(Record):
    """What ``note`` did: the note (workspace-relative path), the entry line as
    written, the commit (None if git found nothing to commit), warnings."""

    path: str
    line: str
    commit: str | None
    warnings: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The JSON object ``gardener note --json`` prints."""
        return {**self._asdict(), "warnings": list(self.warnings)}


def write_note(
    root: str | os.PathLike[str],
    settings: NoteSettings,
    text: str,
    now: datetime,
    *,
    fixed_clock: bool = False,
    kind: str | None = None,
    key: str | None = None,
    source: str | None = None,
    by: str | None = None,
    expires: str | None = None,
    day: str | None = None,
    time: str | None = None,
) -> NoteResult:
    """Append one entry to a daily note (``day``, ISO, else today's) and commit it.

    ``root`` is the workspace (the top of a git work tree); ``now`` is naive
    local time in ``settings.timezone``, and with ``fixed_clock`` (env
    GARDENER_NOW) the commit is dated then too. ``time`` is ``HH:MM`` (default:
    now's), ``expires`` a date. Raises RefusedError (exit 3) if a never-store
    rule matches, or the text was purged from this workspace: nothing is
    written then. Raises UsageError for a bad kind, date, time or option, a
    kind or key with no value after it, or a value over
    ``entryline.MAX_ENTRY_CHARS``.
    """
    from gardener.git.repo import identity_for

    root = os.fspath(root)
    text, line, when, clock = _entry(
        text, now, kind, key, source, by, expires, day, time
    )
    _refuse_secret(root, line, settings)
    rel = f"{settings.notes_dir}/{when.isoformat()}.md"
    # a section of our own, should the note end under a heading that gives
    # its entries a kind (docs/design.md, Note): the entry's time, or now's
    section = clock or now.strftime("%H:%M")
    message = note_message(text, rel)
    sha, warnings, line = _append(
        root, settings, rel, (f"# {when.isoformat()}", section), line, message,
        identity_for(by), now, fixed_clock,
    )  # fmt: skip
    return NoteResult(rel, line, sha, tuple(warnings))


def _entry(
    text: str,
    now: datetime,
    kind: str | None,
    key: str | None,
    source: str | None,
    by: str | None,
    expires: str | None,
    day: str | None,
    time: str | None,
) -> tuple[str, str, date, str]:
    """The note's text (a repeated kind or key taken off), its entry line,
    its day and its time (``HH:MM``, or "" for none), as ``write_note`` takes
    them; UsageError if one is bad."""
    if not text.strip():
        raise UsageError("the note is empty: give the fact to write down")
    text = _without_repeated_prefix(text, kind, key)
    value = bare_value(text)
    # "fact: **city**: " or "**city**: **": a key, and nothing to remember
    if no_value(value):
        raise UsageError(
            "the note has a kind or key but no value: write the fact after it"
            " (nothing was written)"
        )
    long = too_long(value)
    if long:
        raise UsageError(f"the note is {long} (nothing was written)")
    when = _parse_day(day) if day else now.date()
    written = _LEADING_CLOCK.match(text) if key is None else None
    if written and time is None:
        # "10:20 raised the timeout to 60s": the agent wrote when it happened;
        # with --key the text is the value ("10:15 Berlin time" for standup)
        time, text = written.group(1), text[written.end() :]
    clock = time if time is not None else now.strftime("%H:%M")
    if clock and not _is_clock(clock):
        raise UsageError(f"--time {clock!r} is not HH:MM")
    if clock:
        clock = f"{int(clock.split(':')[0]):02d}:{clock.split(':')[1]}"
    hour, minute = (int(part) for part in (clock or "00:00").split(":"))
    valid = datetime(when.year, when.month, when.day, hour, minute)
    if (valid - now.replace(tzinfo=None)).total_seconds() > FUTURE_SLACK_S:
        raise UsageError(
            f"{when} {clock or ''} is later than now ({now:%Y-%m-%d %H:%M}): a note"
            " records what happened, and promote would hold its entry until then"
        )
    for name, given in (("--key", key), ("--source", source), ("--by", by)):
        if given is not None and (not given.strip() or not given.isprintable()):
            raise UsageError(f"{name} must be one line of printable text")
    if expires is not None and _parse_day(expires) <= max(now.date(), when):
        raise UsageError(
            f"--expires {expires} is not after today ({now.date()}) and the note's"
            " day: the entry would never be current"
        )
    try:
        line = render_entry(
            text, time=clock, kind=kind, key=key, source=source, by=by, expires=expires
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    return text, line, when, clock


def _refuse_secret(root: str, line: str, settings: NoteSettings) -> None:
    """RefusedError if the entry ``line`` holds a text purged from the
    workspace, a never-store match (whose values are then remembered, see
    ``gardener.store.refused``), or a value refused or redacted before."""
    from gardener.neverstore import redact

    found = redact.find(line, settings.never_store, settings.allow)
    # purged: committed, every clone checks it; purge-pending: a purge under way
    purges = (os.path.join(root, STATE_DIR, n) for n in ("purged", "purge-pending"))
    if any(is_file(p) for p in purges) and _purged(root, line):
        raise RefusedError(
            "refused: it holds a text purged from this workspace; nothing was written"
        )
    if found:
        from gardener.neverstore.decision import values_of, widen
        from gardener.store import refused

        spans = [(*widen(line, f.start, f.end), f.rule) for f in found]
        refused.remember(root, values_of(line, spans))
        rules = ", ".join(sorted({f.rule for f in found}))
        raise RefusedError(
            f"refused by never-store rule: {rules}; nothing was written (write the fact without it)"
        )
    salted = is_file(os.path.join(root, SALT))  # a purge ran, or a secret was refused
    if salted and is_file(os.path.join(root, REFUSED)) and _remembered(root, line):
        raise RefusedError(
            "refused: it holds a value refused or redacted before as a secret;"
            " nothing was written (write the fact without it)"
        )


def _remembered(root: str, line: str) -> bool:
    """True if ``line`` holds a value refused or redacted before (its keyed
    hash is in ``.gardener/refused``: ``gardener.store.refused``)."""
    from gardener.store import refused

    lookup = refused.finder(root)
    return lookup is not None and bool(lookup(line))


def _refuse_odd(rel: str, target: str) -> None:
    """Raise GardenerError if the note at ``target`` is there but is not a plain
    file of its own: a FIFO would hang the append, and a hard link would
    write through to a file elsewhere (like a symlink)."""
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(info.st_mode):
        raise GardenerError(
            f"{rel} is not a plain file; the gardener appends only to a plain note"
            " file: move it away"
        )
    if info.st_nlink > 1:
        raise GardenerError(
            f"{rel} is a hard link ({info.st_nlink} names for one file); the"
            " gardener appends only to a note of its own: replace it with a copy"
        )


def _append(
    root: str,
    settings: NoteSettings,
    rel: str,
    headings: tuple[str, str],
    line: str,
    message: str,
    author: Identity,
    now: datetime,
    fixed_clock: bool,
) -> tuple[str | None, list[str], str]:
    """Append ``line`` to the note ``rel`` under the workspace lock, journaled,
    and commit it; the commit, the warnings and the line as committed (a
    redaction may have changed it: never shown as it was). ``headings``: the
    title a new note starts with, and the text of the heading ``_placed`` may
    write."""
    from gardener.git.repo import Repo
    from gardener.store import journal

    with workspace_lock(root) as stale, Repo.open(root) as repo:
        repo.refuse_mid_merge()
        warnings = [stale] if stale else []
        repo.notices = warnings  # an orphan git lock removed
        if stale:  # its git commands may have been killed with it
            warnings += journal.clear_dead_locks(repo)
        refuse_outside(
            root, {settings.memory_file: "file", settings.notes_dir: "folder"}
        )
        target = os.path.join(root, rel)
        if is_symlink(target):  # an append would land in the link's target
            raise GardenerError(
                f"{rel} is a symlink; the gardener appends only to a plain note file:"
                " replace the link with the file"
            )
        _refuse_odd(rel, target)
        committed = repo.committed_text(rel)
        current = _text(target) if exists(target) else None
        if current != committed:  # deleted counts: that is its writer's change too
            # written without the gardener since its last commit: that is its
            # writer's change, committed as theirs first (see docs/design.md),
            # secrets redacted; this note's commit then holds only its own line
            warnings += _record(root, now if fixed_clock else None)
            committed = repo.committed_text(rel)
            current = _text(target) if exists(target) else None
        if current is not None and current == committed and _ends_with(current, line):
            # the same entry, same minute, already ends the note: the retry of
            # a note killed before its commit (the journal finished it above)
            # or of one whose answer was lost; written once (docs/design.md, Note)
            warnings.append(
                f"{rel} already ends with this entry, written at the same minute"
                " (a retry of a note killed before its commit?): not written twice"
            )
            return repo.head(), warnings, line
        # a new day's note in one append (heading, blank line, entry): a kill
        # never leaves half of it; so are a closing fence and a heading
        title, section = headings
        if current is None:
            added, lines = f"{title}\n\n{line}", {title}
        else:
            added, lines = _placed(current, line, section, settings)
        expected = appended_text(current, added)
        # journaled before the append: a kill after it is finished as this note
        # (not committed later as someone's hand edit)
        journal.begin(repo.git_folder, {rel: expected}, message, author)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        append_entry(target, added)
        dated = (
            now.replace(tzinfo=zone_named(settings.timezone)) if fixed_clock else None
        )
        try:
            # what is scanned is what is committed (a writer may append meanwhile)
            written = _scanned(root, rel, committed, {line, "", *lines}, settings, now)
            if written != expected:  # another writer, or a redaction: journal what is
                if line not in written:  # the entry itself was redacted: so is its
                    message = note_message("(an entry redacted on its way in)", rel)
                    at = expected.rstrip("\n").count("\n")  # its line, redacted
                    line = written.split("\n")[at] if at < written.count("\n") else line
                journal.begin(repo.git_folder, {rel: written}, message, author)
            sha = repo.commit([rel], message, author, date=dated, texts={rel: written},
                              maintain=maintenance_due(repo.git_folder))  # fmt: skip
        except GardenerError as exc:
            # a failed note leaves no trace: its line comes back out, so that
            # the retry the error invites writes it once (docs/design.md, Note)
            if _take_back(root, repo, rel, committed, current, expected):
                exc.message += (
                    "; the note was not written (its line was taken back out):"
                    " run it again"
                )
                exc.args = (exc.location_message(),)
            raise
        journal.done(repo.git_folder)
    return sha, warnings, line


def _ends_with(text: str, line: str) -> bool:
    """Whether the last line of ``text`` is the entry ``line`` (line endings
    and trailing spaces aside)."""
    text = text.replace("\r\n", "\n").rstrip()
    line = line.replace("\r\n", "\n").rstrip()
    return text == line or text.endswith("\n" + line)


def _take_back(
    root: str,
    repo: Repo,
    rel: str,
    committed: str | None,
    before: str | None,
    after: str,
) -> bool:
    """Take a failed note's append back out of ``rel`` (``append.take_back``)
    and forget its journal, unless its commit did land (HEAD's text is no
    longer ``committed``); True if it was taken back."""
    from gardener.files.append import take_back
    from gardener.store import journal

    try:
        if repo.committed_text(rel) != committed:
            return False
    except GardenerError:
        return False
    if not take_back(os.path.join(root, rel), before, after, root):
        return False
    journal.done(repo.git_folder)
    # a commit git refused may have staged the line (a merge in progress); with
    # the index busy, git staged nothing
    if not os.path.lexists(os.path.join(repo.git_dir, "index.lock")):
        repo.run("reset", "-q", "--", rel, index=True)
    return True


def _placed(
    current: str, line: str, section: str, settings: NoteSettings
) -> tuple[str, set[str]]:
    """What to append to a note holding ``current`` so that ``line`` lands as
    an entry of its own kind (docs/design.md, Note), and the lines that adds
    besides ``line``.

    A code fence left open is closed first (a line it holds would be code); a
    heading left open whose words give a kind (rules.md's ``headings``) is
    followed by ``## HH:MM`` (``section``), at that heading's level, which no
    heading rule reads as a kind. The text before is never changed.
    """
    from gardener.formats.blocks import tail
    from gardener.planning.headingwords import heading_kind

    open_headings, fence = tail(current)
    parts: list[str] = []
    if fence is not None:
        parts.append(fence[1] + fence[2])
    levels = [
        level
        for level, title in open_headings
        if heading_kind(title, settings.headings)
    ]
    if levels:
        parts.append(f"{'#' * min(levels)} {section}")
    if not parts:
        return line, set()
    # a blank line between blocks, as a new note has after its title
    lead = "" if current.endswith(("\n\n", "\n\r\n")) else "\n"
    return lead + "\n\n".join([*parts, line]), set(parts)


def _scanned(
    root: str,
    rel: str,
    committed: str | None,
    scanned: set[str],
    settings: NoteSettings,
    now: datetime,
) -> str:
    """The note's text after the append, a secret another writer put in it
    since its commit redacted; GardenerError if it takes one again."""
    target = os.path.join(root, rel)
    written = _text(target)
    if _unscanned_secret(written, committed, scanned, settings):
        from pathlib import Path

        from gardener.store.settings import load
        from gardener.verbs.guard import redact_files

        redact_files(Path(root), [rel], load(Path(root)), now)
        written = _text(target)
        if _unscanned_secret(written, committed, scanned, settings):
            raise GardenerError(
                f"{rel} took a secret again while it was being redacted; nothing"
                " was committed: run `gardener check`"
            )
    return written


def _unscanned_secret(
    text: str, committed: str | None, scanned: set[str], settings: NoteSettings
) -> bool:
    """True if the note's ``text`` holds a never-store match in what its last
    commit (``committed``) does not hold.

    The committed text was scanned before its commit, so only what was
    written since is read, with a few lines before it (``redact.unscanned``):
    the cost of ``note`` follows the new lines, not the size of the day.
    Lines in ``scanned`` (the entry just checked, the heading) are not
    scanned again when they are all that is new.
    """
    from gardener.neverstore import redact

    fresh = redact.unscanned(text, committed, scanned)
    if not fresh:
        return _after_label(text, settings)
    if redact.find(fresh, settings.never_store, settings.allow):
        return True
    if all(line in scanned for line in fresh.split("\n")):
        return False  # a new note: its title, and the entry note just checked
    # what only the direct path's reading finds (a value's other copies, a
    # label's value on the next line) is its to redact
    from gardener.neverstore import decision

    return decision.flagged(fresh, settings.never_store, settings.allow)


def _after_label(text: str, settings: NoteSettings) -> bool:
    """True if the note's last line gives the value of a label that ends the
    line before it ("- 09:00 The password for prod:" then "- 09:01
    Tango-Foxtrot-991", two notes): the entry alone read as no secret."""
    tail = text[-4096:].rstrip("\n").rsplit("\n", 2)[-2:]
    if len(tail) < 2 or not tail[0].rstrip().endswith((":", "=", "：")):
        return False
    from gardener.neverstore import decision

    return decision.flagged(
        "\n".join(tail) + "\n", settings.never_store, settings.allow
    )


def _text(path: str) -> str:
    """The file's text as git's blobs are read (bad bytes kept as surrogates)."""
    with open(path, "rb") as file:
        return file.read().decode("utf-8", "surrogateescape")


def _record(root: str, now: datetime | None) -> list[str]:
    """Commit what was written in the workspace without the gardener, as
    ``Workspace.record`` does (authored by its writer); its warnings. ``now``:
    the fixed clock, if any. Only when a note was written by hand, so rules.md
    is parsed then and not on every note."""
    from pathlib import Path

    from gardener.store.settings import load
    from gardener.verbs.clock import Clock
    from gardener.verbs.record import record_changes
    from gardener.verbs.session import open_session

    override = now.isoformat() if now is not None else None
    folder = Path(root).resolve()
    config = load(folder)
    with open_session(folder, config, Clock(config.timezone, override)) as session:
        return list(record_changes(session).warnings)


_LEADING_CLOCK = re.compile(r"^\s*([01]?\d:[0-5]\d|2[0-3]:[0-5]\d)\s+(?=\S)")


def _without_repeated_prefix(text: str, kind: str | None, key: str | None) -> str:
    """``--kind decision --key db "decision: **db**: SQLite"`` is written once, not twice."""
    rest = text.strip()
    if kind and rest.casefold().startswith(kind.strip().casefold() + ":"):
        rest = rest[len(kind.strip()) + 1 :].lstrip()
    if key and rest.casefold().startswith(f"**{key.strip()}**:".casefold()):
        rest = rest[len(key.strip()) + 5 :].lstrip()
    return rest or text


def _parse_day(text: str) -> date:
    """``YYYY-MM-DD`` as a date; UsageError otherwise (Python 3.11 would also
    take ``YYYYMMDD``, which the note's parser does not read back)."""
    try:
        if len(text) != 10 or text[4] != "-" or text[7] != "-":
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError as exc:
        raise UsageError(f"{text!r} is not a date (YYYY-MM-DD)") from exc


def _is_clock(text: str) -> bool:
    parts = text.split(":")
    return (
        len(parts) == 2
        and all(p.isdigit() for p in parts)
        and int(parts[0]) < 24
        and int(parts[1]) < 60
        and len(parts[1]) == 2
    )


def _purged(root: str, text: str) -> bool:
    """True if ``text`` holds a text purged from the workspace at ``root``."""
    from pathlib import Path

    from gardener.store.purged import is_refused

    return is_refused(Path(root), text)


def note_fresh(folder: str, text: str, **options: object) -> NoteResult | None:
    """``Workspace(folder).note(text, **options)`` without building the
    Workspace: when the settings are cached (``gardener.store.settings``) and the clock
    reads. Else None, and the Workspace must do it (it parses rules.md and
    says what is wrong). Raises what ``write_note`` raises.
    """
    from gardener.model.validtime import local_now
    from gardener.store import settings as rulecache

    root = os.path.realpath(folder)
    if not os.path.isdir(os.path.join(root, ".git")):
        return None  # not a workspace, or a worktree: Workspace says or copes
    values = rulecache.read(root, rulecache.cache_key(rulecache.rules_bytes(root)))
    settings = NoteSettings.from_values(values) if values is not None else None
    if settings is None:
        return None
    override = os.environ.get("GARDENER_NOW")
    try:
        now = local_now(settings.timezone, override)
    except (KeyError, ValueError, OverflowError):
        return None
    return write_note(
        root,
        settings,
        text,
        now,
        fixed_clock=bool(override),
        **options,  # type: ignore[arg-type]
    )
