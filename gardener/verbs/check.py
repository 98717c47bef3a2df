"""The ``check`` verb: what is wrong in a workspace's files (parse errors,
conflicts, secrets, the size budget, held entries, misnamed notes); or only
the secrets staged for a commit (the pre-commit hook), or in all of history.
Nothing is written."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from gardener.errors import GardenerError, ParseError
from gardener.files.layout import PURGE_PENDING, misnamed_notes
from gardener.files.read import read_text
from gardener.formats.entryline import FUTURE_SLACK_S
from gardener.formats.memoryfile import parse_memory
from gardener.formats.rules import unknown_settings
from gardener.git.run import lock_holders
from gardener.model.config import Config
from gardener.model.facts import Note, Problem
from gardener.model.marks import HELD, fingerprints, review_id
from gardener.neverstore.decision import Spans
from gardener.planning.check import (
    conflict_problems,
    fence_problems,
    front_problems,
    memory_problems,
    sort_problems,
)
from gardener.store import refused
from gardener.store import retired as retired_notes
from gardener.verbs import reading
from gardener.verbs.guard import QUARANTINE, purged_scrubber, quarantined
from gardener.verbs.secrets import (
    file_secrets,
    history_problems,
    name_problems,
    purged_problems,
    staged_problems,
)


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
        return sort_problems(staged_problems(root, config, purged))
    if history:
        problems += history_problems(root, config)
    remembered = refused.finder(str(root))
    problems += setting_problems(root)
    problems += _state_problems(root)
    notes, note_problems = reading.read_notes(root, config)
    problems += note_problems
    for note in notes:
        text = read_text(root / note.path)
        problems += file_secrets(note.path, text, config, remembered)
        problems += fence_problems(note.path, text)
        problems += front_problems(note.path, text)
        problems += conflict_problems(note.path, text)
        problems += purged_problems(note.path, purged(text))
        problems += name_problems(note.path, config, purged)
        problems += _duplicates(note.path, text)
    problems += _memory_problems(root, config, now, purged, remembered)
    problems += _future_notes(notes, now())
    problems += _misnamed(root, config)
    problems += _held(notes, reading.read_ledger(root))
    problems += _backlog(root, config, notes, now())
    problems += _quarantined(root)
    problems += _lost(root, config)
    return sort_problems(problems)


def _lost(root: Path, config: Config) -> list[Problem]:
    """Entries a merge of MEMORY.md dropped (``gardener.verbs.merge.lost_entries``)."""
    from gardener.git.repo import Repo
    from gardener.model.config import multi_valued
    from gardener.verbs.merge import lost_entries, lost_problems

    try:
        with Repo.open(root) as repo:
            lost = lost_entries(
                repo, config.memory_file, lambda k: multi_valued(k, config)
            )
    except GardenerError:
        return []  # not a git work tree's top: other problems say so
    return lost_problems(lost, config.memory_file)


def _duplicates(rel: str, text: str) -> list[Problem]:
    """Exact duplicate blocks in a note (``gardener.planning.duplicates``)."""
    from gardener.planning.duplicates import repeated_blocks

    return [
        Problem(
            "duplicate",
            rel,
            first,
            f"lines {first}-{last} repeat lines {origin}-{origin + last - first}"
            " exactly: a second flush of the same block?",
        )
        for first, last, origin in repeated_blocks(text)
    ]


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
    problems += purged_problems(config.memory_file, purged(text))
    problems += conflict_problems(config.memory_file, text)
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
