"""The ``recall`` verb: ranked current facts and live note entries; or one
key; or what held at a time. Only reads (the recall index aside)."""

from __future__ import annotations

from pathlib import Path

from gardener.errors import UsageError
from gardener.model.config import Config
from gardener.neverstore import redact
from gardener.recall.curated import STATUS, curated_hits
from gardener.recall.hits import Hit
from gardener.recall.rank import as_of, lookup
from gardener.recall.search import search
from gardener.verbs import reading
from gardener.verbs.clock import Clock


def recall(
    root: Path,
    config: Config,
    clock: Clock,
    query: str | None = None,
    *,
    key: str | None = None,
    as_of_time: str | None = None,
    limit: int | None = 10,
    everything: bool = False,
    warnings: list[str] | None = None,
) -> list[Hit]:
    """What ``Workspace.recall`` answers (its arguments are this one's).

    Plain queries go through the recall index (``gardener.recall.search``);
    ``key`` answers MEMORY.md's current values of the key, then its curated
    lines of that key (``gardener.recall.curated``); ``as_of_time`` answers
    from the managed block alone (curated text has no valid time).
    Raises UsageError for a malformed ``as_of_time``.
    """
    reading.check_inside(root, config)
    file = config.memory_file
    if as_of_time or key is not None:
        memory = reading.read_memory(root, config)
    if as_of_time:
        try:
            hits = as_of(as_of_time, memory.facts, file, key=key, query=query)
        except ValueError as exc:
            raise UsageError(
                f"--as-of {as_of_time!r} is not YYYY-MM-DD or YYYY-MM-DDTHH:MM"
            ) from exc
        return hits[:limit] if limit else hits
    now = clock.now()
    if key is not None:
        curated = [hit for hit, _ in curated_hits(memory, file)]
        hits = lookup(key, memory.facts, now, file, curated)
        hits = [_redacted(h, config) if h.status == STATUS else h for h in hits]
        if query:
            hits = [h for h in hits if query.casefold() in h.text.casefold()]
        return hits[:limit] if limit else hits
    return search(str(root), config, query or "", now, limit, everything, warnings)


def _redacted(hit: Hit, config: Config) -> Hit:
    """A curated hit with what the never-store rules find redacted: text outside
    the managed block is often written by hand, and no commit may have
    scanned it yet (the index redacts what it holds the same way)."""
    found = redact.find(hit.text, config.never_store, config.allow)
    if not found:
        return hit
    text = redact.redact(hit.text, config.never_store, config.allow)[0]
    value = hit.value  # its label is in the text: what was found there goes
    for f in found:
        value = value.replace(hit.text[f.start : f.end], f"[REDACTED:{f.rule}]")
    return Hit(**{**hit.as_dict(), "text": text, "value": value})  # type: ignore[arg-type]
