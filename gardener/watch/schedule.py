"""When the watcher acts: per-path debounce, and the idle-time jobs (pure; the clock is an argument)."""

from __future__ import annotations

from datetime import date


class Debouncer:
    """Per-path quiet timers: a path is due once it has had no event for ``delay`` seconds.

    A path written without pause is still due ``max_wait`` seconds after its
    first event, so a busy file gets committed now and then.
    """

    def __init__(self, delay: float, max_wait: float) -> None:
        self.delay = delay
        self.max_wait = max_wait
        self._first: dict[str, float] = {}
        self._last: dict[str, float] = {}

    def add(self, path: str, now: float) -> None:
        self._first.setdefault(path, now)
        self._last[path] = max(now, self._last.get(path, now))

    def _due_at(self, path: str) -> float:
        return min(self._last[path] + self.delay, self._first[path] + self.max_wait)

    def due(self, now: float) -> list[str]:
        """Pop and return the paths that are due at ``now``, sorted."""
        ready = sorted(p for p in self._last if self._due_at(p) <= now)
        for path in ready:
            del self._first[path], self._last[path]
        return ready

    def deadline(self) -> float | None:
        """When the next path becomes due; None if none is waiting."""
        return min((self._due_at(p) for p in self._last), default=None)

    def __bool__(self) -> bool:
        return bool(self._last)


class Schedule:
    """When the idle-time jobs are due. Times are monotonic seconds; ``today`` is local."""

    def __init__(self, idle: float, rescan: float, now: float) -> None:
        self.idle = idle  # seconds without writes before promote; 0: never
        self.rescan = rescan  # seconds between full rescans
        self.last_write = now
        self.dirty = True  # notes may hold something to promote
        self.next_rescan = now + rescan
        self.pruned_on: date | None = None

    def wrote(self, now: float) -> None:
        self.last_write = now
        self.dirty = True

    def due(self, now: float, today: date) -> list[str]:
        """The jobs to run now, in order: promote, prune, rescan."""
        jobs = []
        if self.idle and self.dirty and now - self.last_write >= self.idle:
            jobs.append("promote")
        if self.pruned_on != today:
            jobs.append("prune")
        if now >= self.next_rescan:
            jobs.append("rescan")
        return jobs

    def done(self, job: str, now: float, today: date) -> None:
        if job == "promote":
            self.dirty = False
        elif job == "prune":
            self.pruned_on = today
        elif job == "rescan":
            self.next_rescan = now + self.rescan

    def deadline(self, now: float, to_midnight: float) -> float:
        """When the next job is due (a new day starts ``to_midnight`` seconds from now)."""
        times = [self.next_rescan, now + to_midnight]
        if self.idle and self.dirty:
            times.append(self.last_write + self.idle)
        return min(times)
