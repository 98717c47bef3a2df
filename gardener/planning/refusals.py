"""Why a durable entry may not be filed: a never-store rule matches it, or it
holds a secret already redacted (pure).

A refused entry is not filed and stays in its note: the next pass reads it
again (one already redacted is reported once).
"""

from __future__ import annotations

from collections.abc import Sequence

from gardener.model.config import Config
from gardener.neverstore import redact

REDACTED = "holds a redacted secret"


def refusals(texts: Sequence[str], config: Config) -> list[str | None]:
    """Why each entry text may not be promoted for never-store reasons, or None."""
    # a redacted secret was taken out before commit: no fact is left
    scanned = [t for t in texts if "[REDACTED:" not in t]
    found = iter(redact.find_each(scanned, config.never_store, config.allow))
    out: list[str | None] = []
    for text in texts:
        if "[REDACTED:" in text:
            out.append(REDACTED)
            continue
        rules = sorted({f.rule for f in next(found)})
        out.append("never-store: " + ", ".join(rules) if rules else None)
    return out
