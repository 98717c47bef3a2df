"""Auditing a workspace: ``why`` (a key's whole history) and ``check``
(what is wrong in its files). Both only read."""

from __future__ import annotations

from datetime import timedelta, tzinfo

from gardener.errors import GardenerError, ParseError
from gardener.files.layout import PURGE_PENDING
from gardener.files.read import read_text
from gardener.formats.entryline import FUTURE_SLACK_S
from gardener.model.record import Record
from gardener.store import retired as retired_notes

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from pathlib import Path

    from gardener.git.log import CommitInfo
    from gardener.git.repo import Repo
    from gardener.model.config import Config
    from gardener.model.facts import Fact, Problem
    from gardener.recall.rank import Hit
    from gardener.verbs.results import WhyRecord
    from gardener.workspace import Workspace


def why(ws: Workspace, key: str) -> list[WhyRecord]:
    """Every value ``key`` has had, with validity, source note and commit."""
    from gardener.git.log import commits_adding
    from gardener.recall.rank import history, identity
    from gardener.verbs.results import WhyRecord

    memory = ws.read_memory()
    records = []
    with ws._repo() as repo:
        gone, removed_in = pruned(repo, ws.config.memory_file)
        edits = hand_edits(repo, ws.config.memory_file)
        hits = history(key, memory.facts, ws.config.memory_file, gone)
        file, zone = ws.config.memory_file, ws.config.zone
        # a line edited since the last commit has no commit yet
        committed = set((repo.committed_text(file) or "").splitlines())
        lines = memory.text.splitlines()
        for hit in _with_edited(hits, edits, file, zone):
            # a hand-written entry has no id: find the commit that wrote its text
            needle = (
                "{#" + hit.id
                if hit.id
                else (f"**{hit.key}**: {hit.value}" if hit.key else hit.value)
            )
            commits = commits_adding(repo, needle, ws.config.memory_file)
            first = commits[0] if commits else None
            # a value a person wrote over another: its commit is that edit's
            made = edits.made.get((hit.id, hit.value)) if hit.id else None
            first = made or first
            on_line = (
                lines[hit.line - 1]
                if hit.path == file and 0 < hit.line <= len(lines)
                else None
            )
            if (
                on_line is not None
                and hit.status != "edited"
                and on_line not in committed
            ):
                first = None  # written since the last commit: none holds it yet
            records.append(
                WhyRecord(
                    hit,
                    first.sha if first else None,
                    first.time.isoformat() if first else None,
                    removed_in.get(identity(hit))
                    if hit.status.endswith("pruned")
                    else None,
                    edits.replaced.get((hit.id, hit.value)) if hit.id else None,
                )
            )
    return records


class HandEdits(Record):
    """Values people wrote over in MEMORY.md, from git: ``made`` maps (entry
    id, value) to the commit whose hand edit wrote that value; ``replaced``
    maps (entry id, value) to the commit sha whose hand edit replaced it;
    ``old`` lists the facts as they were before each edit, newest first."""

    made: dict[tuple[str, str], CommitInfo]
    replaced: dict[tuple[str, str], str]
    old: list[tuple[Fact, CommitInfo]]


def hand_edits(repo: Repo, memory_file: str) -> HandEdits:
    """The values of MEMORY.md entries that a person changed in place (same
    id, another value): in the commits ``record`` made of changes made
    without the gardener, and in people's own commits (no gardener trailer).
    The gardener keeps such an edit; ``why`` shows the value it replaced."""
    from gardener.git.log import line_changes

    made: dict[tuple[str, str], CommitInfo] = {}
    replaced: dict[tuple[str, str], str] = {}
    old: list[tuple[Fact, CommitInfo]] = []
    changes = line_changes(repo, memory_file, "record")
    changes += line_changes(repo, memory_file, None)
    changes.sort(key=lambda change: change[0].time, reverse=True)
    for commit, removed, added in changes:
        after = {f.id: f for f in _facts(added) if f.id}
        for before in _facts(removed):
            now = after.get(before.id or "")
            if now is None or now.value == before.value:
                continue
            made.setdefault((now.id or "", now.value), commit)
            replaced.setdefault((before.id or "", before.value), commit.sha)
            old.append((before, commit))
    return HandEdits(made, replaced, old)


def _with_edited(
    hits: list[Hit], edits: HandEdits, memory_file: str, zone: tzinfo
) -> list[Hit]:
    """``hits`` (a key's history, oldest first) and, before each entry a
    person edited, the values it held before (status ``edited``, valid until
    the edit, in the workspace's ``zone``), oldest first."""
    from gardener.recall.rank import fact_hit, sort_key

    shown = {(h.id, h.value) for h in hits}
    ids = {h.id for h in hits if h.id}
    extra = []
    # oldest first: a value a later edit replaced held from the edit before
    chain = sorted(edits.old, key=lambda pair: pair[1].time)
    last_edit: dict[str, str] = {}  # entry id -> the time of its edit so far
    for fact, commit in chain:
        when = commit.time.astimezone(zone).replace(tzinfo=None)
        stamp = when.isoformat(timespec="minutes")
        since = last_edit.get(fact.id or "", fact.since)
        last_edit[fact.id or ""] = stamp
        if fact.id in ids and (fact.id, fact.value) not in shown:
            shown.add((fact.id, fact.value))
            ended = fact.with_attrs(until=stamp, since=since or "")
            extra.append(fact_hit(ended, memory_file, status="edited"))
    # a value edited away comes just before the entry that holds it now
    held = {h.id: sort_key(h.since) for h in hits if h.id}
    return sorted(
        [*hits, *extra],
        key=lambda h: (
            held.get(h.id or "", sort_key(h.since))
            if h.status == "edited"
            else sort_key(h.since),
            h.status != "edited",
            sort_key(h.since),
        ),
    )


def pruned(repo: Repo, memory_file: str) -> tuple[list[Fact], dict[str, str]]:
    """The entries prune deleted from MEMORY.md, read back from the prune
    commits' diffs (DESIGN 2.2: what is pruned stays in git history), and
    ``recall.identity`` -> the commit that deleted it. A line a prune only rewrote
    (an expired entry moved, a link it dropped) is not one: the same entry
    is among the lines that commit added. A purge erased its content from
    those commits too."""
    from gardener.git.log import line_changes
    from gardener.recall.rank import identity

    facts: list[Fact] = []
    removed_in: dict[str, str] = {}
    for commit, removed, added in line_changes(repo, memory_file, "prune"):
        kept = {identity(f) for f in _facts(added)}
        for fact in _facts(removed):
            # an entry with no id counts if it was superseded (struck, or ended)
            if not (fact.id or fact.struck or fact.until) or identity(fact) in kept:
                continue
            facts.append(fact)
            removed_in.setdefault(identity(fact), commit.sha)
    return facts, removed_in


def _facts(lines: list[str]) -> list[Fact]:
    """The MEMORY.md entries among diff ``lines`` (read as in Superseded)."""
    from gardener.formats.memoryfile import parse_fact
    from gardener.model.kinds import SUPERSEDED

    return [f for f in (parse_fact(line, SUPERSEDED) for line in lines) if f]


def setting_problems(root: Path) -> list[Problem]:
    """One problem per name in rules.md's front matter that is no setting
    (``rules.unknown_settings``), with the closest known name if any.
    [] if there is no rules.md, or it is not UTF-8 (loading it says so)."""
    from gardener.formats.rules import unknown_settings
    from gardener.model.facts import Problem

    try:
        text = (root / "rules.md").read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return []
    return [
        Problem(
            "setting",
            "rules.md",
            line,
            f"unknown setting {name!r}"
            + (f" (did you mean {close!r}?)" if close else "")
            + "; it is ignored and the default stays in force",
        )
        for name, line, close in unknown_settings(text)
    ]


def _name_problems(
    path: str, config: Config, purged: Callable[[str], list[int]]
) -> list[Problem]:
    """A problem if the file name of ``path`` holds a never-store match or a
    text purged before: a path is part of every commit that holds the file."""
    from gardener.model.facts import Problem
    from gardener.neverstore import redact

    name = path.rpartition("/")[2]
    rules = [f.rule for f in redact.find(name, config.never_store, config.allow)]
    if purged(name):
        rules.append("a text purged before")
    return [
        Problem(
            "secret",
            path,
            None,
            f"the file name holds {rule if ' ' in rule else repr(rule)}: rename the"
            " file (the gardener renames a new note's own before committing it)",
        )
        for rule in rules
    ]


def _purged_problems(path: str, lines: Iterable[int]) -> list[Problem]:
    from gardener.model.facts import Problem

    return [
        Problem(
            "secret",
            path,
            line,
            "holds a text purged from this workspace (gardener purge): it must not"
            " be committed; the gardener's next record replaces it by [PURGED]",
        )
        for line in lines
    ]


def check(
    ws: Workspace, *, history: bool = False, staged: bool = False
) -> list[Problem]:
    """Problems in the workspace: parse errors, conflicts, secrets, size budget,
    files in the notes folder that look like notes but are not read as one
    (``layout.misnamed_notes``).

    ``staged``: only secrets in the files staged for the next commit (the
    pre-commit hook). ``history``: also secrets in every blob git holds.
    """
    from gardener.files.layout import misnamed_notes
    from gardener.formats.memoryfile import parse_memory
    from gardener.git.log import blob_paths, objects
    from gardener.model.facts import Problem
    from gardener.model.marks import HELD, fingerprints, review_id
    from gardener.planning.check import memory_problems, secret_problems, sort_problems
    from gardener.verbs.guard import QUARANTINE, purged_scrubber, quarantined

    problems: list[Problem] = []
    try:
        config = ws.config
    except GardenerError as exc:
        return [Problem("parse", exc.path or "rules.md", exc.line, exc.message)]
    scrub = purged_scrubber(ws.root)

    def purged(text: str) -> list[int]:  # lines holding a text purged before
        return scrub(text)[1] if scrub else []

    if staged or history:
        with ws._repo() as repo:
            if staged:
                found = []
                for path, data in repo.staged():
                    text = data.decode("utf-8", "surrogateescape")
                    found += secret_problems(path, text, config)
                    found += _purged_problems(path, purged(text))
                    found += _name_problems(path, config, purged)
                return sort_problems(found)
            paths = blob_paths(repo)
            for sha, kind, data in objects(repo):
                if kind == "blob":
                    where = f"{paths.get(sha, '?')} (history, blob {sha[:10]})"
                    problems += secret_problems(
                        where, data.decode("utf-8", "surrogateescape"), config
                    )
    problems += setting_problems(ws.root)
    lock = ws.root / ".git" / "index.lock"
    if lock.exists():
        from gardener.git.run import lock_holders

        if not lock_holders(lock, ws.root):
            problems.append(
                Problem(
                    "git",
                    ".git/index.lock",
                    None,
                    "left by a git command that was killed (no process holds it):"
                    " every commit waits on it, then fails; remove it with"
                    " `rm .git/index.lock` if no git command is running",
                )
            )
    if (ws.root / PURGE_PENDING).exists():
        problems.append(
            Problem(
                "secret",
                PURGE_PENDING,
                None,
                "a purge did not finish: history may still hold its text (the work"
                " tree no longer takes it); run the same `gardener purge TEXT --yes` again",
            )
        )
    try:
        retired_notes.read(ws.root)
    except GardenerError as exc:
        problems.append(Problem("parse", retired_notes.REGISTER, None, exc.message))
    notes, note_problems = ws.read_notes()
    problems += note_problems
    for note in notes:
        text = read_text(ws.root / note.path)
        problems += secret_problems(note.path, text, config)
        problems += _purged_problems(note.path, purged(text))
        problems += _name_problems(note.path, config, purged)
    if ws.memory_path.exists():
        text = read_text(ws.memory_path)
        problems += secret_problems(config.memory_file, text, config)
        problems += _purged_problems(config.memory_file, purged(text))
        try:
            problems += memory_problems(
                parse_memory(text, config.memory_file),
                config,
                ws.now(),
                config.memory_file,
            )
        except ParseError as exc:
            problems.append(Problem("parse", config.memory_file, exc.line, exc.message))
    # the day an entry an hour ahead falls on: promote files those (its horizon)
    latest = (ws.now() + timedelta(seconds=FUTURE_SLACK_S)).date()
    for note in notes:
        if note.day > latest:
            problems.append(
                Problem(
                    "parse",
                    note.path,
                    None,
                    f"named {note.day}, which is in the future; its entries wait for that day (rename the file if the date is wrong)",
                )
            )
    for rel, why in misnamed_notes(ws.root, config.notes_dir):
        problems.append(
            Problem(
                "parse",
                f"{config.notes_dir}/{rel}",
                None,
                f"{why}: promote and recall skip it; a daily note is named YYYY-MM-DD.md"
                f" (or YYYY-MM-DD-slug.md), directly in {config.notes_dir}/ (rename or move it)",
            )
        )
    ledger = ws.read_ledger()
    for note in notes:
        for entry, mark in fingerprints(note).items():
            if mark + HELD in ledger:
                problems.append(
                    Problem(
                        "held",
                        note.path,
                        entry.line,
                        f"held for review ({review_id(mark)}): reads like an instruction to the model; run `gardener approve {review_id(mark)}` or `gardener reject {review_id(mark)}`",
                    )
                )
    for redaction, when in quarantined(ws.root):
        problems.append(
            Problem(
                "secret",
                redaction.path,
                redaction.line or None,
                f"{'' if redaction.line else 'its file name was '}redacted ({redaction.rule}) on {when}; "
                f"the original is in {QUARANTINE}, never committed: rotate it if it is a credential; "
                f"`check` lists it until that file is deleted",
            )
        )
    return sort_problems(problems)
