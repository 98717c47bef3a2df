"""The ``init`` verb: create a workspace, or adopt the memory files already
in a folder, in one first commit; and install the pre-commit hook."""

from __future__ import annotations

import sys
from pathlib import Path

from gardener.files.atomic import atomic_write, ensure_state_dir
from gardener.files.layout import STATE_DIR, note_files
from gardener.files.lock import workspace_lock
from gardener.files.read import read_text
from gardener.formats.memoryfile import NEW_FILE
from gardener.git.repo import Repo
from gardener.git.setup import (
    MEMORY_DRIVER,
    NOTE_DRIVER,
    UNION_DRIVER,
    register_drivers,
)
from gardener.model.config import Config
from gardener.store import settings as configuration
from gardener.store.ledger import FOLDER as LEDGER_FOLDER
from gardener.store.purged import PURGED
from gardener.store.retired import REGISTER as RETIRED
from gardener.store.times import FOLDER as TIMES_FOLDER
from gardener.verbs.clock import Clock
from gardener.verbs.follow import PRE_PUSH
from gardener.verbs.guard import (
    Redaction,
    redact_files,
    remove_purged,
    rename_secret_names,
)
from gardener.verbs.messages import init_message
from gardener.verbs.results import InitResult
from gardener.verbs.session import Session

PRE_COMMIT = """#!/bin/sh
# memory-gardener: refuse a commit that would put a secret into history.
# (Bypass once, knowingly: git commit --no-verify)
python="{python}"
if [ ! -x "$python" ]; then
  echo "memory-gardener hook: $python is gone, secrets are not checked" >&2
  exit 0
fi
exec "$python" -m gardener -w "$(git rev-parse --show-toplevel)" check --staged
"""

NOTES_COMMENT = "# daily notes are append-only: merge them by keeping both sides"
STATE_COMMENT = (
    "# MEMORY.md merges entry by entry, the gardener's state as sets of lines"
    " (drivers: gardener init .)"
)


def attribute_lines(config: Config) -> list[tuple[str, str]]:
    """The .gitattributes lines a workspace needs, each with the comment that
    goes above it when it is added."""
    return [
        (NOTES_COMMENT, f"{config.notes_dir}/*.md merge=union"),
        # a later line wins: where the driver is set up, one front matter
        (NOTES_COMMENT, f"{config.notes_dir}/*.md merge={NOTE_DRIVER}"),
        (STATE_COMMENT, f"{config.memory_file} merge={MEMORY_DRIVER}"),
        (STATE_COMMENT, f"{LEDGER_FOLDER}/* merge={UNION_DRIVER}"),
        (STATE_COMMENT, f"{TIMES_FOLDER}/* merge={UNION_DRIVER}"),
        (STATE_COMMENT, f"{RETIRED} merge={UNION_DRIVER}"),
        (STATE_COMMENT, f"{PURGED} merge={UNION_DRIVER}"),
    ]


def attributes_text(text: str, config: Config) -> str:
    """``text`` (a .gitattributes file, "" if none) with the lines of
    ``attribute_lines`` it lacks appended, each comment once; the same text
    when nothing lacks."""
    have = {line.strip() for line in text.splitlines()}
    out = text if not text or text.endswith("\n") else text + "\n"
    for comment, line in attribute_lines(config):
        if line in have:
            continue
        if comment not in have:
            out += comment + "\n"
            have.add(comment)
        out += line + "\n"
        have.add(line)
    return out


def init(root: Path, now_override: str | None = None) -> tuple[Config, InitResult]:
    """Create a workspace in ``root`` (resolved, existing), or adopt the memory files there.

    Nothing that exists is changed, except secrets, which are redacted
    (originals kept in ``.gardener/quarantine.jsonl``, never committed).
    The first commit records the adopted state. ``now_override``: as
    ``Clock.override``. Returns the settings as loaded then, and what it did.
    """
    adopted = (root / "MEMORY.md").exists() or (root / "memory").is_dir()
    repo = Repo.init(root)
    try:
        with workspace_lock(root):
            if not (root / "rules.md").exists():
                atomic_write(
                    root / "rules.md", read_text(configuration.packaged("rules.md"))
                )
                created = ["rules.md"]
            else:
                created = []
            config = configuration.load(root)
            session = Session(root, config, repo, Clock(config.timezone, now_override))
            created += _create_files(root, config)
            paths, redacted = _adopted_files(session)
            sha = session.commit(
                paths, init_message(adopted, [r.summary() for r in redacted])
            )
            repo.install_hook("pre-commit", PRE_COMMIT.format(python=sys.executable))
            register_drivers(repo, sys.executable)
            repo.install_hook("pre-push", PRE_PUSH.format(python=sys.executable))
    finally:
        repo.close()
    return config, InitResult(str(root), adopted, tuple(created), tuple(redacted), sha)


def _create_files(root: Path, config: Config) -> list[str]:
    """Create MEMORY.md, the notes folder, .gitattributes and the state folder
    where missing; the files created."""
    created = []
    memory_path = root / config.memory_file
    if not memory_path.exists():
        atomic_write(memory_path, NEW_FILE)
        created.append(config.memory_file)
    notes_dir = root / config.notes_dir
    if not notes_dir.exists():
        notes_dir.mkdir(parents=True)
    attributes = root / ".gitattributes"
    old = read_text(attributes) if attributes.exists() else None
    new = attributes_text(old or "", config)
    if new != old:
        atomic_write(attributes, new)
        if old is None:
            created.append(".gitattributes")
    ensure_state_dir(root)
    return created


def _adopted_files(s: Session) -> tuple[list[str], list[Redaction]]:
    """The paths of the first commit, the notes' among them with secret names
    renamed, and the redactions made in them."""
    paths = [
        s.config.memory_file,
        "rules.md",
        ".gitattributes",
        f"{STATE_DIR}/.gitignore",
    ]
    notes = [
        p.relative_to(s.root).as_posix() for p in note_files(s.root, s.config.notes_dir)
    ]
    renamed, redacted = rename_secret_names(
        s.root, notes, s.config, s.now(),
        is_new=lambda p: s.repo.committed_text(p) is None,
    )  # fmt: skip
    paths += [renamed.get(p, p) for p in notes]
    redacted += remove_purged(s.root, paths)
    redacted += redact_files(s.root, paths, s.config, s.now())
    return paths, redacted
