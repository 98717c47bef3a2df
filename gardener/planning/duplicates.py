"""Exact duplicate blocks in a note: what an agent's second flush of the same lines leaves.

Pure: the note's text in, the repeated runs of lines out (``gardener check``
reports them; nothing is removed, since a note is append-only).
"""

from __future__ import annotations

MIN_LINES = 2  # non-blank lines a repeated run must hold to count as a block
MIN_CHARS = 40  # and characters: "- ok" twice is no second flush


def repeated_blocks(text: str) -> list[tuple[int, int, int]]:
    """The runs of lines that repeat an earlier run exactly, each as
    ``(first line, last line, first line of the earlier copy)`` (1-based), in
    order, not overlapping; a run holds at least ``MIN_LINES`` non-blank lines
    and ``MIN_CHARS`` characters. Lines compare without their line ending;
    blank lines at either end of a run are left out of it."""
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    seen: dict[str, list[int]] = {}
    found: list[tuple[int, int, int]] = []
    at = 0
    while at < len(lines):
        best, origin = 0, -1
        for start in seen.get(lines[at], ()) if lines[at].strip() else ():
            size = 0
            while (
                at + size < len(lines)
                and start + size < at
                and lines[start + size] == lines[at + size]
            ):
                size += 1
            while size and not lines[at + size - 1].strip():
                size -= 1
            if size > best:
                best, origin = size, start
        run = lines[at : at + best]
        filled = [line for line in run if line.strip()]
        if len(filled) >= MIN_LINES and sum(map(len, filled)) >= MIN_CHARS:
            found.append((at + 1, at + best, origin + 1))
            for offset in range(best):
                seen.setdefault(lines[at + offset], []).append(at + offset)
            at += best
            continue
        seen.setdefault(lines[at], []).append(at)
        at += 1
    return found
