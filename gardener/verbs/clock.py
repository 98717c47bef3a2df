"""The workspace's clock: the real one, or a time fixed for tests and replays."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime

from gardener.errors import GardenerError
from gardener.model.validtime import local_now


@dataclass(frozen=True)
class Clock:
    """The workspace's clock: naive local time in ``timezone`` (IANA name).

    ``override`` (ISO 8601), else the env ``GARDENER_NOW``, fixes it; then
    commits are dated at that time too.
    """

    timezone: str
    override: str | None = None

    @property
    def fixed(self) -> str | None:
        """The fixed time (ISO 8601), None for the real clock."""
        return self.override or os.environ.get("GARDENER_NOW")

    def now(self) -> datetime:
        """Local wall-clock time (naive); GardenerError if the fixed time is no ISO 8601."""
        fixed = self.fixed
        try:
            return local_now(self.timezone, fixed)
        except ValueError as exc:
            raise GardenerError(
                f"GARDENER_NOW={fixed!r} is not an ISO 8601 date-time"
            ) from exc
