"""What a verb runs inside: the workspace lock, one repository handle, the
clock, the warnings to tell, and the journaled write and commit.

A verb that writes plans on the files, then ``Session.apply``s the plan; if a
file changed under the plan, nothing is written and the verb plans again
(``Session.replan``). ``gardener note`` does not come here (see
``gardener.verbs.note``): this module is ordinary Python.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from gardener.errors import GardenerError
from gardener.files.atomic import ensure_state_dir
from gardener.files.layout import STATE_DIR
from gardener.files.lock import workspace_lock
from gardener.git.repo import Identity, Repo
from gardener.model.config import Config
from gardener.model.facts import Memory, Note, Problem
from gardener.store import journal
from gardener.verbs import reading
from gardener.verbs.clock import Clock
from gardener.verbs.maintenance import maintenance_due

REPLANS = 5  # times a pass re-plans when MEMORY.md or a note changes under it

R = TypeVar("R")


@dataclass(frozen=True)
class Applied:
    """What ``Session.apply`` did: ``stale`` if a file changed since the plan
    (nothing was written: plan again); else the ``commit`` made (None: git
    found nothing to commit)."""

    commit: str | None
    stale: bool = False


@dataclass
class Session:
    """One verb's hold on a workspace (see ``open_session``)."""

    root: Path  # resolved
    config: Config
    repo: Repo
    clock: Clock
    # what the verb has to tell (stale lock, rewritten note...), in order
    warnings: list[str] = field(default_factory=list)

    def now(self) -> datetime:
        return self.clock.now()

    @property
    def memory_path(self) -> Path:
        return self.root / self.config.memory_file

    def warn(self, warning: str) -> None:
        """Tell ``warning`` once, however many passes find it."""
        if warning not in self.warnings:
            self.warnings.append(warning)

    # -- reading -----------------------------------------------------------------
    def check_inside(self) -> None:
        reading.check_inside(self.root, self.config)

    def memory_text(self) -> str | None:
        return reading.memory_text(self.root, self.config)

    def read_memory(self) -> Memory:
        return reading.read_memory(self.root, self.config)

    def read_notes(self) -> tuple[list[Note], list[Problem]]:
        return reading.read_notes(self.root, self.config)

    def state_text(self, rel: str) -> str | None:
        return reading.state_text(self.root, rel)

    def is_note(self, rel: str) -> bool:
        return reading.is_note(self.config, rel)

    def is_backup(self, rel: str) -> bool:
        return reading.is_backup(self.config, rel)

    def owned_paths(self) -> list[str]:
        return reading.owned_paths(self.config)

    # -- writing -----------------------------------------------------------------
    def commit(
        self,
        paths: Sequence[str],
        message: str,
        author: Identity | None = None,
        texts: Mapping[str, str] | None = None,
    ) -> str | None:
        """Commit ``paths`` (``texts``: as ``Repo.commit`` takes them); with a
        fixed clock, dated at that time. git's housekeeping check runs after
        it once every few hours (``maintenance.maintenance_due``)."""
        when = self.now().replace(tzinfo=self.config.zone) if self.clock.fixed else None
        return self.repo.commit(paths, message, author, date=when, texts=texts,
                                maintain=maintenance_due(self.repo.git_folder))  # fmt: skip

    def apply(
        self,
        files: Mapping[str, str | None],
        before: Mapping[str, str | None],
        message: str,
        author: Identity | None = None,
    ) -> Applied:
        """Write ``files`` (None: delete) and commit them, journaled (see
        ``gardener.store.journal.apply``); stale if a file in ``before`` no
        longer holds that text (None: does not exist)."""
        if any(rel.startswith(STATE_DIR + "/") for rel in files):
            ensure_state_dir(self.root)
        done = journal.apply(
            self.root, self.repo, files, before, message, author, self.commit
        )
        return Applied(None, stale=True) if done is False else Applied(done)

    def replan(self, attempt: Callable[[], R | None]) -> R:
        """``attempt()`` until it returns a result, up to ``REPLANS`` times.

        An attempt plans on the files as they are and applies the plan; it
        returns None when a file changed under its plan (``Applied.stale``).
        Raises GardenerError when they kept changing.
        """
        for _ in range(REPLANS):
            result = attempt()
            if result is not None:
                return result
        raise GardenerError(
            f"{self.config.memory_file} or a note kept changing while the gardener planned ({REPLANS} tries); nothing was written: run the command again once the edits stop"
        )


@contextmanager
def open_repo(root: Path) -> Iterator[Repo]:
    """The repository at ``root``, closed after."""
    repo = Repo.open(root)
    try:
        yield repo
    finally:
        repo.close()


@contextmanager
def open_session(
    root: Path, config: Config, clock: Clock, *, lock: bool = True
) -> Iterator[Session]:
    """A session for one verb at ``root`` (resolved). ``lock``: hold the
    workspace lock; a lock its dead owner left is a warning, and the git
    locks that owner's commands left are cleared. Without it (a verb that
    only reads, or a caller that holds the lock), only the repository."""
    if not lock:
        with open_repo(root) as repo:
            session = Session(root, config, repo, clock)
            repo.notices = session.warnings  # an orphan git lock removed
            yield session
        return
    with workspace_lock(root) as stale, open_repo(root) as repo:
        session = Session(root, config, repo, clock, [stale] if stale else [])
        repo.notices = session.warnings  # an orphan git lock removed
        if stale:  # its git commands may have been killed with it
            session.warnings += journal.clear_dead_locks(repo)
        yield session
