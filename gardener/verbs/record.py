"""The ``record`` verb: commit what people and agents wrote without the gardener.

Every verb that writes starts here, so a pass never plans on files git does
not hold: an interrupted run is finished first, secrets are redacted
(originals quarantined, never committed), a committed note rewritten by hand
gets its text back, and the rest is one commit attributed to whoever wrote it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from gardener.errors import GardenerError
from gardener.files.atomic import atomic_write, ensure_state_dir
from gardener.files.layout import (
    escaped,
    inside,
    note_date,
    odd_name_warning,
    utf8_name,
)
from gardener.files.read import read_bytes, read_head, read_text
from gardener.formats.dailynote import note_front, parse_note, split_front_matter
from gardener.git.repo import identity_for
from gardener.neverstore import redact
from gardener.planning.times import recorded_times
from gardener.store import journal, refused, retired
from gardener.store import times as store_times
from gardener.store.notetail import MIN_BYTES as TAIL_BYTES
from gardener.verbs import grown
from gardener.verbs.appendonly import restore_deleted, restore_notes
from gardener.verbs.guard import (
    Redaction,
    ScanMemo,
    never_store_for,
    redact_files,
    remove_purged,
    rename_secret_names,
)
from gardener.verbs.messages import moves_message, record_message
from gardener.verbs.nottext import not_text_files
from gardener.verbs.reading import BACKUP_MAX_BYTES
from gardener.verbs.results import RecordResult
from gardener.verbs.rewrites import accept_held, hold_rewrite, restore_promoted
from gardener.verbs.session import Session


def record_changes(
    session: Session, *, accept: bool = False, grace: float | None = None
) -> RecordResult:
    """``record`` as a verb: its commit (None if nothing changed), the
    redactions, the session's warnings, and the notes whose last line was
    left out. ``accept``: a person's decision to commit the held rewrite of
    MEMORY.md (``gardener record --accept``); ``grace``: see ``record``."""
    partial: list[str] = []
    sha, redacted = record(session, accept=accept, grace=grace, partial=partial)
    return RecordResult(sha, tuple(redacted), tuple(session.warnings), tuple(partial))


def record(
    session: Session,
    *,
    accept: bool = False,
    grace: float | None = None,
    partial: list[str] | None = None,
) -> tuple[str | None, list[Redaction]]:
    """Commit what people and agents changed without the gardener, secrets redacted first.

    First the work of an interrupted gardener run is finished and committed
    as its own action. A committed note found rewritten gets its committed
    text back, the rewrite's lines below a marker (a warning says so).
    A committed note deleted is restored (only prune deletes one), and a
    change to MEMORY.md removing more than ``max_loss`` of its current
    entries is held aside (``gardener.verbs.rewrites``), each with a
    warning; ``accept`` commits the held one instead. ``grace`` (seconds,
    ``watch``): a note whose last line has no newline yet and that was
    written less than that long ago is left alone, neither redacted nor
    committed (a writer may be flushing the line in pieces, and a prefix of
    a secret is no secret to the scan); its path is added to ``partial``.
    The author is git's configured user, else the notes' ``agent`` when
    all changed notes name the same one, else the gardener.
    """
    s, repo = session, session.repo
    s.check_inside()
    repo.refuse_mid_merge()
    folders = [s.memory_path.parent, s.root / s.config.notes_dir]
    s.warnings += journal.recover(s.root, repo, s.commit, folders)
    accepted = accept_held(s) if accept else None
    changed = _changed(s)
    memory = s.config.memory_file
    if memory in changed and not accept and (back := restore_promoted(s, memory)):
        s.warn(back)  # a copy read before promote: what it filed since comes back
    if memory in changed and not accept and (held := hold_rewrite(s, memory)):
        s.warn(held)
        changed.remove(memory)
    if grace is not None:  # a writer may be flushing a line in pieces
        waiting = _unfinished(s, changed, grace)
        changed = [p for p in changed if p not in waiting]
        if partial is not None:
            partial += waiting
    notes = [p for p in changed if s.is_note(p)]
    gone = restore_deleted(s.root, repo, notes, s.warnings)
    changed = [p for p in changed if p not in gone]
    notes = [p for p in notes if p not in gone]
    odd, binary_secrets = not_text_files(s.root, changed, s.config)  # never rewritten
    for warning in binary_secrets.values():
        s.warn(warning)
    changed = [p for p in changed if p not in binary_secrets]
    if not changed:
        return None, []
    renamed, redacted = rename_secret_names(
        s.root, notes, s.config, s.now(),
        is_new=lambda p: repo.committed_text(p) is None,
    )  # fmt: skip
    repo.unstage(list(renamed))  # a staged name would still reach a commit
    changed = sorted({renamed.get(p, p) for p in changed})
    notes = [renamed.get(p, p) for p in notes]
    big: grown.Memo = {}  # a big note that only grew is hashed once, not twice
    kept = restore_notes(s.root, repo, notes, s.now(), s.warnings, big)
    # a purged text is refused if stored again (new lines scanned)
    text = [p for p in changed if p not in odd]
    redacted += remove_purged(s.root, text, repo.committed_texts)
    memo = ScanMemo()  # the commit's rescan of a text scanned here is a lookup
    # scanned then: only new lines are; a big note that only grew: from its file
    committed = grown.committed_texts(repo, s.root, changed, big)
    redacted += redact_files(s.root, text, s.config, s.now(), memo, committed)
    agents = {_agent_of(s.root, p) for p in changed if s.is_note(p)}
    author = repo.configured_identity() or identity_for(
        agents.pop() if len(agents) == 1 else None
    )
    texts, again = _scanned_texts(s, changed, memo, committed)
    redacted += again
    times = _recorded(s, notes, texts, committed)
    if times:  # the times of the untimed lines this commit adds (store.times)
        ensure_state_dir(s.root)
        for rel, text in times.items():
            atomic_write(s.root / rel, text, root=s.root)
        changed = sorted({*changed, *times})
        texts = None if texts is None else {**texts, **times}
    summaries = [r.summary() for r in redacted]
    message = record_message(changed, kept, summaries, accepted)
    moved = _moved_notes(s, notes)  # read before the commit changes HEAD
    sha = s.commit(changed, message, author, texts)
    if moved:
        _follow_moves(s, moved)
    return sha, redacted


def _recorded(
    s: Session,
    notes: Sequence[str],
    texts: Mapping[str, str] | None,
    committed: Mapping[str, str | None],
) -> dict[str, str]:
    """The files of recorded times to write for the untimed entries that
    the notes at ``notes`` gain in this commit (``texts``: what it commits,
    None: the files' own text): path -> text, {} if none."""
    found: dict[str, str] = {}
    for rel in notes:
        day = note_date(rel.rpartition("/")[2])
        path = s.root / rel
        if day is None or (texts is None and not path.is_file()):
            continue
        try:
            text = texts[rel] if texts is not None else read_text(path)
            if len(text) >= TAIL_BYTES:
                # a big note is parsed from where the last pass left it, never
                # whole per commit: its untimed lines keep the inherited time
                # (docs/design.md, Several machines, Recorded times)
                continue
            new = parse_note(rel, day, text)
            was = committed.get(rel)
            old = parse_note(rel, day, was) if was is not None else None
        except (GardenerError, OSError, KeyError):
            continue
        found |= recorded_times(old, new, s.config.zone)
    return store_times.added(s.root, found) if found else {}


def _unfinished(s: Session, changed: Sequence[str], grace: float) -> list[str]:
    """The notes of ``changed`` whose last line has no newline yet and that
    were written less than ``grace`` seconds ago."""
    now = time.time()
    waiting = []
    for rel in changed:
        path = s.root / rel
        if not s.is_note(rel) or path.is_symlink() or not path.is_file():
            continue
        try:
            with path.open("rb") as file:
                file.seek(-1, 2)
                last = file.read(1)
        except OSError:  # empty (seek before the start), or gone meanwhile
            continue
        if last != b"\n" and now - path.stat().st_mtime < grace:
            waiting.append(rel)
    return waiting


def _changed(s: Session) -> list[str]:
    """MEMORY.md, rules.md, the notes and the backups (OpenClaw's folders:
    ``reading.is_backup``) that differ from HEAD. A note named
    in bytes that are not UTF-8, or that is a symlink, is left out with a
    warning: neither is ever committed as a note."""
    owned = (s.config.memory_file, "rules.md")
    changed = []
    folder = s.config.notes_dir + "/"
    for p in s.repo.changed(s.owned_paths()):
        name = p.removeprefix(folder)
        if p.startswith(folder) and "/" not in name and not utf8_name(name):
            s.warn(odd_name_warning(s.config.notes_dir, name))
        elif s.is_note(p) and (s.root / p).is_symlink():
            s.warn(
                f"{p} is a symlink; the gardener commits only plain note files and"
                " skips it: replace the link with the file"
            )
        elif p in owned or s.is_note(p) or s.is_backup(p) and _backed_up(s, p):
            changed.append(p)
    return changed


def _backed_up(s: Session, rel: str) -> bool:
    """Whether the backup ``rel`` (``reading.is_backup``) goes into the
    commit: a plain file, or one deleted; not a link, a name that is not
    UTF-8 or a file over ``BACKUP_MAX_BYTES`` (each with a warning)."""
    path = s.root / rel
    if not utf8_name(rel):
        s.warn(f"{escaped(rel)}: its name is not valid UTF-8; not backed up in git")
        return False
    if path.is_symlink():
        s.warn(f"{rel} is a symlink; the gardener backs up only plain files")
        return False
    if not path.exists():
        return True  # deleted: recorded as such, git keeps what it held
    if not path.is_file():
        return False
    if path.stat().st_size > BACKUP_MAX_BYTES:
        s.warn(
            f"{rel} is over {BACKUP_MAX_BYTES >> 20} MB; not backed up in git"
            " (move it out of the notes folder if it is not memory)"
        )
        return False
    return True


def _moved_notes(s: Session, notes: Sequence[str]) -> dict[str, str]:
    """Notes renamed outside the gardener (``git mv``, a file manager) that
    ``forget`` retired entries of: old path -> new path, when a new note
    holds the old one's committed text (and maybe lines added). Only read
    when the register lists one of the notes gone."""
    gone = [p for p in notes if not (s.root / p).exists()]
    if not gone:
        return {}
    listed = {m.partition("\t")[0] for m in retired.read(s.root)}
    gone = [p for p in gone if p in listed]
    if not gone:
        return {}
    new = [p for p in notes if (s.root / p).is_file() and p not in gone]
    committed = s.repo.committed_texts([*gone, *new])
    moved: dict[str, str] = {}
    for old in gone:
        text = committed.get(old)
        for candidate in new:
            if (
                text
                and committed.get(candidate) is None
                and candidate not in moved.values()
                and read_text(s.root / candidate).startswith(text)
            ):
                moved[old] = candidate
                break
    return moved


def _follow_moves(s: Session, moved: dict[str, str]) -> None:
    """Rename ``moved`` notes' entries in ``.gardener/retired``, one commit:
    a retired entry is named by its note's path and would answer again."""
    register = retired.REGISTER
    before = s.state_text(register)
    if before is None:
        return
    entries = retired.parse(before)
    renamed = {
        moved.get(m.partition("\t")[0], m.partition("\t")[0])
        + "\t"
        + m.partition("\t")[2]: v
        for m, v in entries.items()
    }
    after = retired.render(renamed)
    if after == before:
        return
    s.apply({register: after}, {register: before}, moves_message(moved))


def _scanned_texts(
    s: Session,
    changed: Sequence[str],
    memo: ScanMemo,
    committed: Mapping[str, str | None],
) -> tuple[dict[str, str] | None, list[Redaction]]:
    """The texts of ``changed`` as last scanned, for the commit to take
    instead of what the files hold when git reads them: a writer appending
    meanwhile would put unscanned text into history. Lines no commit holds
    are scanned once more and redacted if a secret landed since the first
    scan. None when a path is not a plain file (deleted, a link, a folder):
    then git reads the files. Raises GardenerError if they keep taking
    secrets."""
    paths = [s.root / p for p in changed]
    if not all(p.is_file() and not p.is_symlink() for p in paths):
        return None, []
    redacted: list[Redaction] = []
    for _ in range(3):
        texts = {
            rel: path.read_bytes().decode("utf-8", "surrogateescape")
            for rel, path in zip(changed, paths, strict=True)
        }
        grown = {
            rel: new
            for rel, text in texts.items()
            if (new := redact.unscanned(text, committed.get(rel)))
        }
        purged = remove_purged(s.root, list(grown), lambda _: committed)
        remembered = refused.finder(str(s.root))
        fresh = [
            rel
            for rel, new in grown.items()
            if memo.flagged(
                new, never_store_for(rel, s.config), s.config.allow, remembered
            )
        ]
        if not fresh and not purged:
            return texts, redacted
        redacted += purged + redact_files(s.root, fresh, s.config, s.now(), memo)
    raise GardenerError(
        f"{', '.join(changed)} kept taking secrets while being recorded; nothing"
        " was committed: run `gardener check`"
    )


def _agent_of(root: Path, rel: str) -> str | None:
    """The ``agent`` a note's front matter names, if it can be read."""
    day = note_date(Path(rel).name)
    if not inside(root, Path(rel)):
        return None
    if not day:
        return None
    try:
        # the head and a check of the rest a MB at a time: a 50 MB note is
        # not held whole for its front matter (record holds its texts then)
        data, size, utf8 = read_head(root / rel, _HEAD_BYTES + 1)
    except FileNotFoundError:
        return None
    if not utf8:  # read_text would refuse it
        return None
    # the front matter is at the top: a big note is not decoded whole for it
    # whole lines only: a cut "---" of a "----" line would read as its end
    head = data[: data.rfind(b"\n", 0, _HEAD_BYTES) + 1].decode("utf-8")
    opens = head.removeprefix("\ufeff").partition("\n")[0].strip() == "---"
    if size > _HEAD_BYTES and opens and split_front_matter(head)[0] is None:
        try:  # opened, and its end further down
            head = read_bytes(root / rel).decode("utf-8")
        except (FileNotFoundError, UnicodeDecodeError):
            return None
    elif size <= _HEAD_BYTES:
        head = data.decode("utf-8")
    agent = note_front(head).get("agent")
    return agent if isinstance(agent, str) else None


_HEAD_BYTES = 1 << 16
