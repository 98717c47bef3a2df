"""When the server gardens on its own: promote after a quiet spell, prune once a day (pure; the clock is an argument).

Hosts such as Claude Desktop start the server and nothing else, so it does the
watcher's idle jobs itself (``gardener watch`` keeps its own schedule: the
adapters never import each other). Times are monotonic seconds; ``today`` is
the workspace's local date.
"""

from __future__ import annotations

from datetime import date

CHECK_EVERY = 60.0  # seconds between looks once quiet (a new day brings a prune)


class Gardening:
    """The jobs due after ``idle`` seconds without writes: "promote" if
    something was written since the last one (or the server just started),
    "prune" once per local day. Nothing runs before the first quiet spell, so
    a host's start-up and first calls never wait on a pass."""

    def __init__(self, idle: float, now: float) -> None:
        self.idle = idle
        self.last_write = now
        self.dirty = True  # the notes may hold entries written before the start
        self.pruned_on: date | None = None

    def wrote(self, now: float) -> None:
        self.last_write = max(self.last_write, now)
        self.dirty = True

    def due(self, now: float, today: date) -> list[str]:
        """The jobs to run now, in order, each marked done as it is handed out
        (a write during the pass makes the next promote due again)."""
        if now - self.last_write < self.idle:
            return []
        jobs = []
        if self.dirty:
            jobs.append("promote")
            self.dirty = False
        if self.pruned_on != today:
            jobs.append("prune")
            self.pruned_on = today
        return jobs

    def wait(self, now: float) -> float:
        """Seconds to sleep before looking again: until the quiet spell ends,
        else at most ``idle`` (a write while asleep moves nothing forward, so
        its promote comes at most one ``idle`` late)."""
        quiet_at = self.last_write + self.idle
        return (
            max(0.05, quiet_at - now) if quiet_at > now else min(CHECK_EVERY, self.idle)
        )
