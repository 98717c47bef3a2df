"""Recording: commit what people and agents wrote without the gardener.

Every verb that writes starts here (``Workspace._record_outside_changes``), so
a pass never plans on files git does not hold: an interrupted run is finished
first, secrets are redacted (originals quarantined, never committed), a
committed note rewritten by hand gets its text back, and the rest is one
commit attributed to whoever wrote it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from gardener.errors import GardenerError, ParseError
from gardener.files.layout import inside, note_date
from gardener.files.read import read_text

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from gardener.git.repo import Repo
    from gardener.verbs.guard import Redaction
    from gardener.workspace import Workspace


def record(ws: Workspace, repo: Repo) -> tuple[str | None, list[Redaction]]:
    """Commit what people and agents changed without the gardener, secrets redacted first.

    First the work of an interrupted gardener run is finished and committed
    as its own action. A committed note found rewritten gets its committed
    text back, the rewrite's lines below a marker (a warning says so).
    The author is git's configured user, else the notes' ``agent`` when
    all changed notes name the same one, else the gardener.
    """
    from gardener.git.repo import identity_for
    from gardener.store import journal
    from gardener.verbs.appendonly import restore_notes
    from gardener.verbs.guard import redact_files, remove_purged, rename_secret_names

    ws._refuse_outside()
    commit = functools.partial(ws._commit, repo)
    folders = [ws.memory_path.parent, ws.root / ws.config.notes_dir]
    ws._warnings += journal.recover(ws.root, repo, commit, folders)
    owned = (ws.config.memory_file, "rules.md")
    changed = [
        p for p in repo.changed(ws._owned_paths()) if p in owned or ws._is_note(p)
    ]
    if not changed:
        return None, []
    notes = [p for p in changed if ws._is_note(p)]
    renamed, redacted = rename_secret_names(
        ws.root, notes, ws.config, ws.now(),
        is_new=lambda p: repo.committed_text(p) is None,
    )  # fmt: skip
    repo.unstage(list(renamed))  # a staged name would still reach a commit
    changed = sorted({renamed.get(p, p) for p in changed})
    notes = [renamed.get(p, p) for p in notes]
    kept = restore_notes(ws.root, repo, notes, ws.now(), ws._warnings)
    # DESIGN 2.3: a purged text is refused if stored again (new lines scanned)
    redacted += remove_purged(ws.root, changed, repo.committed_texts)
    redacted += redact_files(ws.root, changed, ws.config, ws.now())
    agents = {_agent_of(ws, p) for p in changed if ws._is_note(p)}
    author = repo.configured_identity() or identity_for(
        agents.pop() if len(agents) == 1 else None
    )
    lines = [f"- {p}" for p in changed]
    lines += [
        f"- {p} was rewritten: its committed text is kept, new lines below a marker"
        for p in kept
    ]
    message_head = "record: changes made outside the gardener\n\n"
    texts, again = _scanned_texts(ws, repo, changed)
    redacted += again
    lines += [f"- {r.summary()}" for r in redacted]
    message = message_head + "\n".join(lines) + "\n\nGardener-Action: record\n"
    moved = _moved_notes(ws, repo, notes)  # read before the commit changes HEAD
    sha = ws._commit(repo, changed, message, author, texts)
    if moved:
        _follow_moves(ws, repo, moved)
    return sha, redacted


def _moved_notes(ws: Workspace, repo: Repo, notes: Sequence[str]) -> dict[str, str]:
    """Notes renamed outside the gardener (``git mv``, a file manager) that
    ``forget`` retired entries of: old path -> new path, when a new note
    holds the old one's committed text (and maybe lines added). Only read
    when the register lists one of the notes gone."""
    from gardener.store import retired

    gone = [p for p in notes if not (ws.root / p).exists()]
    if not gone:
        return {}
    listed = {m.partition("\t")[0] for m in retired.read(ws.root)}
    gone = [p for p in gone if p in listed]
    if not gone:
        return {}
    new = [p for p in notes if (ws.root / p).is_file() and p not in gone]
    committed = repo.committed_texts([*gone, *new])
    moved: dict[str, str] = {}
    for old in gone:
        text = committed.get(old)
        for candidate in new:
            if (
                text
                and committed.get(candidate) is None
                and candidate not in moved.values()
                and read_text(ws.root / candidate).startswith(text)
            ):
                moved[old] = candidate
                break
    return moved


def _follow_moves(ws: Workspace, repo: Repo, moved: dict[str, str]) -> None:
    """Rename ``moved`` notes' entries in ``.gardener/retired``, one commit:
    a retired entry is named by its note's path and would answer again."""
    from gardener.store import retired

    register = retired.REGISTER
    before = ws._state_text(register)
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
    names = ", ".join(f"{old} -> {new}" for old, new in sorted(moved.items()))
    message = f"forget: follow renamed notes\n\n- {names}\n\nGardener-Action: forget\n"
    ws._apply(repo, {register: after}, {register: before}, message, None)


def _scanned_texts(
    ws: Workspace, repo: Repo, changed: Sequence[str]
) -> tuple[dict[str, str] | None, list[Redaction]]:
    """The texts of ``changed`` as last scanned, for the commit to take
    instead of what the files hold when git reads them: a writer appending
    meanwhile would put unscanned text into history. Lines no commit holds
    are scanned once more and redacted if a secret landed since the first
    scan. None when a path is not a plain file (deleted, a link, a folder):
    then git reads the files. Raises GardenerError if they keep taking
    secrets."""
    from gardener.neverstore import redact
    from gardener.verbs.guard import redact_files, remove_purged

    paths = [ws.root / p for p in changed]
    if not all(p.is_file() and not p.is_symlink() for p in paths):
        return None, []
    committed = repo.committed_texts(list(changed))
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
        purged = remove_purged(ws.root, list(grown), lambda _: committed)
        fresh = [
            rel
            for rel, new in grown.items()
            if redact.find(new, ws.config.never_store, ws.config.allow)
        ]
        if not fresh and not purged:
            return texts, redacted
        redacted += purged + redact_files(ws.root, fresh, ws.config, ws.now())
    raise GardenerError(
        f"{', '.join(changed)} kept taking secrets while being recorded; nothing"
        " was committed: run `gardener check`"
    )


def _agent_of(ws: Workspace, rel: str) -> str | None:
    """The ``agent`` a note's front matter names, if it can be read."""
    from gardener.formats.dailynote import parse_note

    day = note_date(Path(rel).name)
    if not inside(ws.root, Path(rel)):
        return None
    try:
        text = read_text(ws.root / rel)
    except (ParseError, FileNotFoundError):
        return None
    agent = parse_note(rel, day, text).front.get("agent") if day else None
    return agent if isinstance(agent, str) else None
