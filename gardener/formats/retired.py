"""The register of daily-note entries ``forget`` retired: its lines, parsed
and rendered (pure; ``gardener.store.retired`` reads the file).

A daily note is append-only, so one of its entries cannot take ``until`` and
a reason as a MEMORY.md entry does. ``forget`` writes them in a register
instead, ``.gardener/retired`` (committed with the forget), a line an entry::

    memory/2026-11-30.md<TAB>3f2a9c0d1e4b5a6f<TAB>2026-11-30T10:05<TAB>retired

the note's path, the digest of the entry's value (``mark``: its words without
time, kind and key; not its line, so lines written above it, a nested line
added below it or a time fixed do not unpin it; the same words twice in a
note are one entry), the time it was retired (local time) and the reason.
The register holds no text of its own, so there is nothing in it for
``purge`` to erase (``purge`` updates the digests of the entries it edits).

Loaded by a plain ``recall``: no import until a mark is made (hashlib costs
~4 ms).
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

HEADER = (
    "# Daily-note entries `gardener forget` retired: recall and promote pass over\n"
    "# them. path<TAB>digest of the entry's value<TAB>retired at<TAB>reason\n"
)


def entry_text(text: str, nested: Sequence[str]) -> str:
    """What recall shows of a note entry, and what its digest is of: the
    item's first line and its nested lines, stripped, joined by spaces."""
    return " ".join([text, *(n.strip() for n in nested)])


def mark(path: str, value: str) -> str:
    """``path<TAB>digest``: names the entry of the note at ``path`` whose
    value (``Entry.value``, a recall hit's ``value``) is ``value`` (16 hex
    of the SHA-1 of its words: case, runs of spaces and a closing stop
    ignored)."""
    import hashlib

    # case, runs of spaces and a closing stop do not make another entry
    words = " ".join(value.casefold().split()).rstrip(".!;, ")
    digest = hashlib.sha1(words.encode("utf-8", "surrogateescape")).hexdigest()
    return f"{path}\t{digest[:16]}"


def parse(text: str) -> dict[str, tuple[str, str]]:
    """The register's entries: mark -> (retired at, reason). Comment lines
    and lines without a path and digest are passed over."""
    out: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) >= 2 and fields[0] and fields[1]:
            when = fields[2] if len(fields) > 2 else ""
            reason = fields[3] if len(fields) > 3 else "retired"
            out[f"{fields[0]}\t{fields[1]}"] = (when, reason)
    return out


def render(entries: dict[str, tuple[str, str]]) -> str:
    """The register's text for ``entries`` (as ``parse`` gives them), sorted;
    "" when there are none."""
    if not entries:
        return ""
    lines = [f"{m}\t{when}\t{reason}" for m, (when, reason) in sorted(entries.items())]
    return HEADER + "\n".join(lines) + "\n"


def without_paths(text: str, paths: Iterable[str]) -> str:
    """The register ``text`` less the entries of the notes at ``paths`` (a
    prune deleted them); the same text if none was there."""
    gone = set(paths)
    entries = parse(text)
    kept = {m: v for m, v in entries.items() if m.partition("\t")[0] not in gone}
    return text if len(kept) == len(entries) else render(kept)


def before(since: str | None, retired_at: str) -> bool:
    """Whether an entry written at ``since`` (a valid-time string; None or a
    bare date for an untimed one) was there when it was retired at
    ``retired_at``: a forget retires what was written until then, and the
    same words written later answer again. Both are local ISO times, which
    sort as text; an unknown time counts as before."""
    return not retired_at or (since or "") <= retired_at
