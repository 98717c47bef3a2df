"""The ``Watcher``: watchdog events -> debounce -> ``Workspace.record()``;
promote when idle, prune daily, rescan now and then.

The decisions it makes are pure (``events``, ``schedule``); this module wires
watchdog to them and calls the ``Workspace`` verbs from one thread. Only this
module imports watchdog, and only when a watcher starts.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from datetime import time as clock_time
from pathlib import Path, PurePosixPath
from types import FrameType
from typing import TYPE_CHECKING, Any

from gardener.errors import GardenerError
from gardener.files.layout import note_files
from gardener.watch.events import (
    RULES,
    Identity,
    Signature,
    event_paths,
    identity,
    relevant,
    signature,
)
from gardener.watch.inotify import inotify_watch_count, limit_advice
from gardener.watch.lock import watch_lock
from gardener.watch.schedule import Debouncer, Schedule
from gardener.workspace import Workspace

if TYPE_CHECKING:
    from watchdog.observers.api import BaseObserver, ObservedWatch

PREFIX = "gardener watch: "


@dataclass(frozen=True)
class Options:
    idle: float = 300.0  # seconds without writes before promote; 0: never
    debounce: float = 1.0  # seconds a path must be quiet before it is recorded
    max_wait: float = 10.0  # seconds a busy path may wait at most
    rescan: float = 180.0  # seconds between full rescans (record everything)
    retry: float = 10.0  # seconds before a failed record is tried again
    # seconds a note's last line without a newline must be quiet before it is
    # committed: an agent may be flushing it in pieces (a token among them)
    grace: float = 30.0
    polling: bool = False  # poll instead of inotify/FSEvents (network file systems)
    poll_interval: float = 1.0  # seconds between polls


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def watch(
    ws: Workspace, *, idle: float, debounce: float, rescan: float, polling: bool
) -> None:
    """Watch ``ws`` until SIGTERM or SIGINT; LockError if a watcher already runs there."""
    options = Options(idle=idle, debounce=debounce, rescan=rescan, polling=polling)
    Watcher(ws, options).run(signals=True)


class Watcher:
    """Watchdog events -> debounce -> ``Workspace.record()``; promote on idle, prune daily."""

    def __init__(
        self,
        ws: Workspace,
        options: Options | None = None,
        log: Callable[[str], None] = _stderr,
    ) -> None:
        self.ws = ws
        self.options = options or Options()
        self._sink = log
        self.ready = threading.Event()  # set once watching and the first rescan is done
        self.calls: dict[str, int] = {"record": 0, "promote": 0, "prune": 0}
        self.backlog = 0  # entries waiting for the judge after the last promote
        self._events: deque[tuple[str, float]] = deque()
        self._wake_r, self._wake_w = os.pipe()
        for fd in (self._wake_r, self._wake_w):
            os.set_blocking(fd, False)
        self._stopping = False
        self._signal: str | None = None  # what stopped us; the loop logs it
        self._known: dict[str, Signature] = {}  # as the watcher last left each file
        self._observer: BaseObserver | None = None
        self._watches: dict[str, ObservedWatch] = {}  # by workspace-relative folder
        self._folder_ids: dict[str, Identity] = {}
        self._polling = False
        self._partial: set[str] = set()  # notes recorded without their last line
        self._retrying: set[str] = set()  # those of them the debouncer holds

    def log(self, line: str) -> None:
        self._sink(PREFIX + line)

    # -- threads -------------------------------------------------------------
    def stop(self) -> None:
        """Ask the loop to finish (safe from any thread and from a signal handler)."""
        self._stopping = True
        self._wake()

    def _wake(self) -> None:
        with suppress(OSError):  # a full pipe: a wake-up is pending anyway
            os.write(self._wake_w, b"\0")

    def _on_event(self, event_type: str, src: str, dest: str | None) -> None:
        """Called on the observer's thread: queue the paths, wake the loop."""
        now = time.monotonic()
        for path in event_paths(event_type, src, dest):
            rel = os.path.relpath(path, self.ws.root)
            if not rel.startswith(".."):
                self._events.append((Path(rel).as_posix(), now))
        self._wake()

    # -- the loop --------------------------------------------------------------
    def run(self, *, signals: bool = False) -> None:
        """Watch until ``stop()`` (or SIGTERM/SIGINT when ``signals``)."""
        with watch_lock(self.ws.root):
            if signals:
                for sig in (signal.SIGTERM, signal.SIGINT):
                    signal.signal(sig, self._on_signal)
            try:
                self._loop()
            finally:
                if self._observer is not None:
                    self._observer.stop()
                    self._observer.join(timeout=5)
                os.close(self._wake_r)
                os.close(self._wake_w)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        # no printing here: the signal may have interrupted a print to stderr
        self._signal = signal.Signals(signum).name
        self.stop()

    def _loop(self) -> None:
        opts = self.options
        debouncer = Debouncer(opts.debounce, opts.max_wait)
        schedule = Schedule(opts.idle, opts.rescan, time.monotonic())
        self._start_observer()
        self._garden("prune")  # records what is already there first
        schedule.done("prune", time.monotonic(), self.ws.now().date())
        mode = "polling" if self._polling else "events"
        self.log(
            f"watching {self.ws.root} ({mode}; debounce {opts.debounce:g} s, "
            f"idle {opts.idle:g} s, rescan {opts.rescan:g} s)"
        )
        self.ready.set()
        while not self._stopping:
            now = time.monotonic()
            # an unfinished last line: looked at again once its grace is over
            for path in self._partial - self._retrying:
                debouncer.add(path, now + opts.grace)
                self._retrying.add(path)
            wake = schedule.deadline(now, self._to_midnight())
            if (pending := debouncer.deadline()) is not None:
                wake = min(wake, pending)
            self._wait(max(wake - now, 0.0))
            folders = set(self._folders()) - {"."}
            while self._events:
                rel, at = self._events.popleft()
                if relevant(rel, *self._names()):
                    debouncer.add(rel, at)
                elif rel in folders:  # the notes folder was moved, removed or made
                    self._refresh_watches()
                    schedule.next_rescan = min(schedule.next_rescan, at + opts.debounce)
            now = time.monotonic()
            popped = debouncer.due(now)
            self._retrying -= set(popped)
            due = [p for p in popped if p in self._partial or self._changed(p)]
            if due:
                schedule.wrote(now)
                if RULES in due:
                    self._reload()
                if not self._record(due):
                    for path in due:
                        debouncer.add(path, now + opts.retry)
            if debouncer or self._stopping:
                continue
            today = self.ws.now().date()
            for job in schedule.due(now, today):
                if job == "rescan":
                    self._refresh_watches()
                    self._record(None)
                else:
                    self._garden(job)
                schedule.done(job, time.monotonic(), today)
        self._record(None)  # whatever arrived last; cheap when nothing did
        self.log(f"stopped ({self._signal})" if self._signal else "stopped")

    def _wait(self, timeout: float) -> None:
        if self._stopping or self._events:
            return
        select.select([self._wake_r], [], [], timeout)
        with suppress(BlockingIOError):
            while os.read(self._wake_r, 4096):
                pass

    def _to_midnight(self) -> float:
        now = self.ws.now()
        midnight = datetime.combine(now.date() + timedelta(days=1), clock_time.min)
        return max((midnight - now).total_seconds(), 1.0)

    def _names(self) -> tuple[str, str]:
        return self.ws.config.memory_file, self.ws.config.notes_dir

    # -- actions ---------------------------------------------------------------
    def _files(self) -> dict[str, Signature]:
        """The signature of every file the watcher records."""
        names = [self.ws.config.memory_file, RULES]
        notes = note_files(self.ws.root, self.ws.config.notes_dir)
        names += [p.relative_to(self.ws.root).as_posix() for p in notes]
        return {name: signature(self.ws.root / name) for name in names}

    def _changed(self, rel: str) -> bool:
        """False if the file is as the watcher last left it (its own write, or no change)."""
        return signature(self.ws.root / rel) != self._known.get(rel)

    def _settle(self, before: dict[str, Signature], written: Iterable[str]) -> None:
        """Remember the files as they were before an action, and as it left the ones it wrote."""
        self._known = dict(before)
        for rel in written:
            self._known[rel] = signature(self.ws.root / rel)

    def _record(self, paths: list[str] | None) -> bool:
        """Commit outside changes (``paths`` for the log; None: a full rescan). False on failure."""
        before = self._files()
        self.calls["record"] += 1
        try:
            result = self.ws.record(grace=self.options.grace)
        except (GardenerError, OSError) as exc:
            self.log(f"error record: {exc}")
            return False
        self._partial = set(result.partial)
        written = {r.path for r in result.redacted}
        self._settle(before, written)
        for warning in result.warnings:
            self.log(f"warning: {warning}")
        for r in result.redacted:
            self.log(r.notice())
        if result.commit:
            renamed = sorted({r.path for r in result.redacted if r.line == 0})
            # an event's path may be a name that held a token: then say the new names
            what = " ".join(renamed or paths or ["(rescan)"])
            self.log(f"commit {result.commit[:12]} record {what}")
        return True

    def _garden(self, job: str) -> None:
        """Run promote or prune; log one line."""
        self._record(None)  # outside changes first, so their redactions are logged
        before = self._files()
        self.calls[job] += 1
        try:
            if job == "promote":
                promoted = self.ws.promote()
                commit, summary = promoted.commit, _promote_summary(promoted.as_dict())
                written = {r.path for r in promoted.redacted}
            else:
                pruned = self.ws.prune()
                commit, summary = pruned.commit, pruned.plan.summary()
                written = set(pruned.plan.notes_removed)
        except (GardenerError, OSError) as exc:
            self.log(f"error {job}: {exc}")
            return
        self._settle(before, {*written, self.ws.config.memory_file})
        self.log(
            f"commit {commit[:12]} {job} {summary}" if commit else f"{job}: no change"
        )
        if job == "promote":
            self._tell_backlog(promoted.as_dict())

    def _tell_backlog(self, data: dict[str, Any]) -> None:
        """Log the judge's queue when it grew since the last pass."""
        waiting = int(data.get("pending") or 0)
        if waiting > self.backlog:
            self.log(
                f"review: {waiting} entr{'y waits' if waiting == 1 else 'ies wait'}"
                f" for the judge (oldest {data.get('pending_oldest')}): gardener review"
            )
        self.backlog = waiting

    def _reload(self) -> None:
        """Read rules.md again (names, timezone, never-store rules); keep the old on error."""
        fresh = Workspace(self.ws.root, self.ws.now_override)
        try:
            _ = fresh.config
        except GardenerError as exc:
            self.log(f"warning: rules.md not reloaded: {exc}")
            return
        self.ws = fresh
        self._refresh_watches()

    # -- watchdog --------------------------------------------------------------
    def _folders(self) -> list[str]:
        """The folders to watch, non-recursively: MEMORY.md's and the notes folder."""
        memory_file, notes_dir = self._names()
        top = PurePosixPath(memory_file).parent.as_posix()
        return sorted({top, PurePosixPath(RULES).parent.as_posix(), notes_dir})

    def _start_observer(self) -> None:
        opts = self.options
        if not opts.polling:
            try:
                self._observer = _native_observer()
                self._observer.start()
                self._refresh_watches()
                self._check_watch_count()
                return
            except OSError as exc:
                if exc.errno not in (errno.ENOSPC, errno.EMFILE):
                    raise
                self._drop_observer()
                self.log(
                    f"warning: {limit_advice(exc.errno)}; polling every {opts.poll_interval:g} s instead"
                )
        from watchdog.observers.polling import PollingObserver

        self._polling = True
        self._observer = PollingObserver(timeout=opts.poll_interval)
        self._observer.start()
        self._refresh_watches()

    def _drop_observer(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
        self._observer = None
        self._watches.clear()

    def _check_watch_count(self) -> None:
        """Raise ENOSPC if the kernel holds fewer inotify watches than were asked for."""
        count = inotify_watch_count()
        if count is not None and count < len(self._watches):
            raise OSError(
                errno.ENOSPC,
                f"only {count} of {len(self._watches)} inotify watches were set up",
            )

    def _refresh_watches(self) -> None:
        """Watch the folders the rules name; watch a re-created folder anew."""
        from watchdog.events import (
            DirCreatedEvent,
            DirDeletedEvent,
            DirMovedEvent,
            FileCreatedEvent,
            FileDeletedEvent,
            FileModifiedEvent,
            FileMovedEvent,
            FileSystemEvent,
            FileSystemEventHandler,
        )

        assert self._observer is not None
        on_event = self._on_event

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                dest = os.fsdecode(event.dest_path) if event.dest_path else None
                on_event(event.event_type, os.fsdecode(event.src_path), dest)

        wanted = {f: identity(self.ws.root / f) for f in self._folders()}
        for folder, watch in list(self._watches.items()):
            if folder not in wanted or wanted[folder] != self._folder_ids.get(folder):
                self._observer.unschedule(watch)
                del self._watches[folder]
        for folder, ident in wanted.items():
            if folder in self._watches or ident is None:
                continue
            # no opened/closed events (git reading a note would wake us for nothing),
            # and no modified events for the folder itself
            self._watches[folder] = self._observer.schedule(
                Handler(),
                str(self.ws.root / folder),
                recursive=False,
                event_filter=[
                    FileCreatedEvent,
                    FileModifiedEvent,
                    FileMovedEvent,
                    FileDeletedEvent,
                    DirCreatedEvent,
                    DirMovedEvent,
                    DirDeletedEvent,
                ],
            )
            self._folder_ids[folder] = ident


def _native_observer() -> BaseObserver:
    """inotify on Linux, FSEvents on macOS (tests replace this to simulate a limit)."""
    from watchdog.observers import Observer

    return Observer()


def _promote_summary(data: dict[str, Any]) -> str:
    parts = [
        f"{len(data[k])} {k}"
        for k in ("added", "superseded", "updated", "rejected", "held")
        if data[k]
    ]
    return ", ".join(parts) or "no change"
