"""The ``check`` verb: what is wrong in a workspace's files (parse errors,
conflicts, secrets, the size budget, held entries, misnamed notes); or only
the secrets staged for a commit (the pre-commit hook), or in all of history.
Nothing is written."""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from gardener.errors import GardenerError, ParseError
from gardener.files.layout import PURGE_PENDING, SALT, STATE_DIR, misnamed_notes
from gardener.files.read import read_text
from gardener.formats.entryline import FUTURE_SLACK_S
from gardener.formats.memoryfile import parse_memory
from gardener.formats.rules import unknown_settings
from gardener.git.log import blob_paths, objects
from gardener.git.repo import Repo
from gardener.git.run import lock_holders
from gardener.model.config import Config
from gardener.model.facts import Note, Problem
from gardener.model.marks import HELD, fingerprints, review_id
from gardener.neverstore import decision, redact
from gardener.neverstore.decision import Spans
from gardener.planning.check import (
    fence_problems,
    memory_problems,
    secret_problems,
    sort_problems,
)
from gardener.store import refused
from gardener.store import retired as retired_notes
from gardener.verbs import reading
from gardener.verbs.guard import (
    QUARANTINE,
    REFUSED,
    never_store_for,
    purged_scrubber,
    quarantined,
)
from gardener.verbs.session import open_repo


def setting_problems(root: Path) -> list[Problem]:
    """One problem per name in rules.md's front matter that is no setting
    (``gardener.formats.rules.unknown_settings``), with the closest known name if any.
    [] if there is no rules.md, or it is not UTF-8 (loading it says so)."""
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


def file_secrets(
    path: str, text: str, config: Config, remembered: Spans | None = None
) -> list[Problem]:
    """One problem per line and rule where the direct path would redact
    (``neverstore.decision``: what ``note`` refuses a line for, a label's
    value on the next line, a wrapped token), and per line holding a value
    refused before (``remembered``); never the secret itself."""
    spans = decision.found_spans(text, never_store_for(path, config), config.allow)
    starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
    seen: dict[tuple[int, str], None] = {}
    for s, _, rule in sorted(spans):
        seen[(bisect_right(starts, s), rule)] = None
    problems = [
        Problem(
            "secret",
            path,
            line,
            f"never-store rule '{rule}' matches here; remove it, then run `gardener check`",
        )  # fmt: skip
        for line, rule in seen
    ]
    lines = {
        bisect_right(starts, s) for s, _ in (remembered(text) if remembered else [])
    }
    problems += [
        Problem(
            "secret",
            path,
            line,
            "holds a value refused or redacted before as a secret; remove it,"
            " then run `gardener check`",
        )  # fmt: skip
        for line in sorted(lines)
    ]
    return problems


def _purged_problems(path: str, lines: Iterable[int]) -> list[Problem]:
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


def rules_problem(exc: GardenerError) -> list[Problem]:
    """What ``check`` reports when rules.md cannot be loaded: that alone."""
    return [Problem("parse", exc.path or "rules.md", exc.line, exc.message)]


def check(
    root: Path,
    config: Config,
    now: Callable[[], datetime],
    *,
    history: bool = False,
    staged: bool = False,
) -> list[Problem]:
    """Problems in the workspace at ``root`` (resolved): parse errors (a code
    fence a note never closes among them), conflicts, secrets, size budget, files in the notes folder that look like
    notes but are not read as one (``gardener.files.layout.misnamed_notes``). ``now``: the
    workspace's clock (local, naive).

    ``staged``: only secrets in the files staged for the next commit (the
    pre-commit hook). ``history``: also secrets in every blob git holds.
    """
    problems: list[Problem] = []
    scrub = purged_scrubber(root)

    def purged(text: str) -> list[int]:  # lines holding a text purged before
        return scrub(text)[1] if scrub else []

    if staged:
        return sort_problems(_staged_problems(root, config, purged))
    if history:
        problems += _history_problems(root, config)
    remembered = refused.finder(str(root))
    problems += setting_problems(root)
    problems += _state_problems(root)
    notes, note_problems = reading.read_notes(root, config)
    problems += note_problems
    for note in notes:
        text = read_text(root / note.path)
        problems += file_secrets(note.path, text, config, remembered)
        problems += fence_problems(note.path, text)
        problems += _purged_problems(note.path, purged(text))
        problems += _name_problems(note.path, config, purged)
    problems += _memory_problems(root, config, now, purged, remembered)
    problems += _future_notes(notes, now())
    problems += _misnamed(root, config)
    problems += _held(notes, reading.read_ledger(root))
    problems += _backlog(root, config, notes, now())
    problems += _quarantined(root)
    return sort_problems(problems)


def _staged_problems(
    root: Path, config: Config, purged: Callable[[str], list[int]]
) -> list[Problem]:
    """Secrets and purged texts in the files staged for the next commit, and
    in their names: in the index git names in GIT_INDEX_FILE (the one a
    ``commit -a``, ``commit <path>`` or ``commit --only`` is about to commit),
    else the repository's own. In a repository that holds more than the
    workspace (``guarded``), only the memory files are read."""
    index = os.environ.get("GIT_INDEX_FILE")
    if index:  # git gives it relative to the work tree's top, the hook's folder
        index = os.path.abspath(index)
    found = []
    remembered = refused.finder(str(root))
    with open_repo(root) as repo:
        for path, data in repo.staged(index, guarded(repo, config)):
            if path in NEVER_COMMITTED:
                found.append(
                    Problem(
                        "secret", path, None,
                        "the gardener's own file, kept on this machine only (it holds"
                        " originals of secrets, or the key of their hashes): unstage"
                        f" it with `git rm --cached {path}`",
                    )
                )  # fmt: skip
                continue
            text = data.decode("utf-8", "surrogateescape")
            found += file_secrets(path, text, config, remembered)
            found += _purged_problems(path, purged(text))
            found += _name_problems(path, config, purged)
    return found


# never committed: the originals of redacted secrets, the salt of the hashes
NEVER_COMMITTED = frozenset({QUARANTINE, SALT, PURGE_PENDING, REFUSED})


def workspace_names(config: Config) -> frozenset[str]:
    """The names at a workspace's top that are the workspace's own."""
    tops = {config.memory_file.split("/")[0], config.notes_dir.split("/")[0]}
    return frozenset(tops | {"rules.md", STATE_DIR, ".gitattributes", ".gitignore"})


def guarded(repo: Repo, config: Config) -> list[str] | None:
    """The pathspecs the hook reads: None (every file) in a repository that
    is the workspace alone; the memory files, rules.md and the gardener's
    state when HEAD's top holds other names too (a project's repository with
    a workspace in it, whose code, fixtures and package files are not the
    gardener's to judge)."""
    own = workspace_names(config)
    if all(name in own for name in repo.top_names()):
        return None
    return [config.memory_file, config.notes_dir, "rules.md", STATE_DIR]


def _history_problems(root: Path, config: Config) -> list[Problem]:
    """Secrets in every blob git holds, each named by a path that held it and
    the commits that hold it, with what to do: rotate, then purge."""
    problems = []
    with open_repo(root) as repo:
        paths = blob_paths(repo)
        for sha, kind, data in objects(repo):
            if kind != "blob":
                continue
            where = f"{paths.get(sha, '?')} (history, blob {sha[:10]})"
            found = secret_problems(
                where, data.decode("utf-8", "surrogateescape"), config
            )
            if found:
                advice = _leak_advice(repo.commits_holding(sha))
                problems += [replace(p, message=p.message + advice) for p in found]
    return problems


def _leak_advice(commits: list[str]) -> str:
    """What a problem found in history adds: the commits, rotate, purge."""
    named = ", ".join(c[:10] for c in commits[:5])
    more = f" and {len(commits) - 5} more" if len(commits) > 5 else ""
    held = f"; committed in {named}{more}" if commits else "; in an unreachable object"
    return (
        f"{held}. Treat it as leaked: rotate the credential first (a push or a"
        " clone has copied it already), then erase it from every commit with"
        " `gardener purge TEXT` (lists where it is) and `gardener purge TEXT --yes`"
    )


def _state_problems(root: Path) -> list[Problem]:
    """A git index lock a killed command left, a purge that did not finish,
    a retired register that does not parse."""
    problems = []
    lock = root / ".git" / "index.lock"
    if lock.exists() and not lock_holders(lock, root):
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
    if (root / PURGE_PENDING).exists():
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
        retired_notes.read(root)
    except GardenerError as exc:
        problems.append(Problem("parse", retired_notes.REGISTER, None, exc.message))
    return problems


def _memory_problems(
    root: Path,
    config: Config,
    now: Callable[[], datetime],
    purged: Callable[[str], list[int]],
    remembered: Spans | None,
) -> list[Problem]:
    """MEMORY.md's secrets, purged texts, and what ``planning.check`` finds in it."""
    path = root / config.memory_file
    if not path.exists():
        return []
    text = read_text(path)
    problems = file_secrets(config.memory_file, text, config, remembered)
    problems += _purged_problems(config.memory_file, purged(text))
    try:
        memory = parse_memory(text, config.memory_file)
        problems += memory_problems(memory, config, now(), config.memory_file)
    except ParseError as exc:
        problems.append(Problem("parse", config.memory_file, exc.line, exc.message))
    return problems


def _future_notes(notes: list[Note], now: datetime) -> list[Problem]:
    """The notes named for a day after the one an entry an hour ahead falls
    on (promote files those: its horizon)."""
    latest = (now + timedelta(seconds=FUTURE_SLACK_S)).date()
    return [
        Problem(
            "parse",
            note.path,
            None,
            f"named {note.day}, which is in the future; its entries wait for that day (rename the file if the date is wrong)",
        )
        for note in notes
        if note.day > latest
    ]


def _misnamed(root: Path, config: Config) -> list[Problem]:
    """Files in the notes folder that look like notes but are not read as one."""
    return [
        Problem(
            "parse",
            f"{config.notes_dir}/{rel}",
            None,
            f"{why}: promote and recall skip it; a daily note is named YYYY-MM-DD.md"
            f" (or YYYY-MM-DD-slug.md), directly in {config.notes_dir}/ (rename or move it)",
        )
        for rel, why in misnamed_notes(root, config.notes_dir)
    ]


def _held(notes: list[Note], ledger: frozenset[str]) -> list[Problem]:
    """The note entries promote held for review (see ``gardener.verbs.review``)."""
    problems = []
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
    return problems


def _backlog(
    root: Path, config: Config, notes: list[Note], now: datetime
) -> list[Problem]:
    """The judge's queue, once its oldest entry is older than half the TTL:
    past the TTL and ``review_grace_days`` its note is deleted unjudged."""
    if config.judge == "none" or not notes:
        return []
    from gardener.planning.promote import plan_promotion  # only here: ~40 ms

    try:
        memory = reading.read_memory(root, config)
        plan = plan_promotion(notes, memory, config, now, reading.read_ledger(root))
    except GardenerError:
        return []  # MEMORY.md's own problem, reported above
    if not plan.pending:
        return []
    oldest = plan.pending[0]
    age = (now.date() - oldest.entry.day).days
    if age * 2 < config.note_ttl_days:
        return []
    n = len(plan.pending)
    who = (
        "gardener review, then gardener decide"
        if config.judge == "agent"
        else "the llm judge (judge_model in rules.md)"
    )
    return [
        Problem(
            "backlog", oldest.entry.path, oldest.entry.line,
            f"{n} entr{'y waits' if n == 1 else 'ies wait'} for the judge, the oldest"
            f" since {oldest.entry.day} ({age} days): a note goes"
            f" {config.review_grace_days} days after its TTL, judged or not; answer"
            f" with {who}",
        )
    ]  # fmt: skip


def _quarantined(root: Path) -> list[Problem]:
    """The secrets redacted so far whose originals wait in the quarantine."""
    return [
        Problem(
            "secret",
            redaction.path,
            redaction.line or None,
            f"{'' if redaction.line else 'its file name was '}redacted ({redaction.rule}) on {when}; "
            f"the original is in {QUARANTINE}, never committed: rotate it if it is a credential; "
            f"`check` lists it until that file is deleted",
        )
        for redaction, when in quarantined(root)
    ]
