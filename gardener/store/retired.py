"""The register of daily-note entries that ``forget`` retired, on disk:
``.gardener/retired`` (see docs/design.md). Recall and promote pass over
those entries; the note and its history keep them, for audit.

Its lines are parsed and rendered by ``gardener.formats.retired``; the pure
functions are named here too, for the verbs that read and rewrite the file.
Loaded by a plain ``recall``: no import beyond ``os`` until a register exists.
"""

from __future__ import annotations

import os

from gardener.formats.retired import (
    HEADER,
    before,
    entry_text,
    mark,
    parse,
    render,
    without_paths,
)

__all__ = [
    "HEADER",
    "REGISTER",
    "before",
    "entry_text",
    "mark",
    "parse",
    "read",
    "render",
    "without_paths",
]

REGISTER = ".gardener/retired"  # workspace-relative (workspace.STATE_DIR)


def read(root: str | os.PathLike[str]) -> dict[str, str]:
    """The register of ``root``: mark -> when it was retired (local ISO
    time, "" if the line does not say); empty if there is none. Raises
    GardenerError, naming the file, if it exists but cannot be read."""
    path = os.path.join(root, REGISTER)
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            return {m: when for m, (when, _) in parse(f.read()).items()}
    except FileNotFoundError:
        return {}
    except OSError as exc:
        from gardener.errors import GardenerError

        raise GardenerError(
            f"{REGISTER} cannot be read ({exc.strerror}): it lists the note entries"
            " forget retired; put the file back (git checkout -- .gardener/retired)"
            " or move what is there away"
        ) from None
