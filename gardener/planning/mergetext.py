"""MEMORY.md's text merged: the block entry by entry (``gardener.planning.merge``),
the text around it line by line; and set-like files merged as sets of lines
(pure; see docs/design.md, Several machines)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gardener.formats.memoryfile import (
    BEGIN,
    END,
    parse_memory,
    render_block,
    render_fact,
)
from gardener.model.facts import Fact, Memory
from gardener.planning.merge import OURS, THEIRS, Conflict, merge_facts, merge_set

# the line that stands for the managed block while the text around it merges
PLACEHOLDER = "<!-- gardener:merge the managed block goes here -->"


def merge_lines(base: str, ours: str, theirs: str) -> str:
    """Set-like files (the ledger's months, the retired register) merged as sets
    of lines: a line either side added is kept, one either side removed goes;
    ours' order, then theirs' new lines, sorted if ours was."""
    o, a, b = (text.splitlines() for text in (base, ours, theirs))
    lines = merge_set([("", x) for x in o], [("", x) for x in a],
                         [("", x) for x in b])  # fmt: skip
    out = [line for _, line in lines]
    if a == sorted(a):
        out.sort()
    return "".join(line + "\n" for line in out)


@dataclass(frozen=True)
class MemoryMerge:
    """The merged MEMORY.md text, and its conflicts (in the block, and the
    number of conflicting hunks outside it)."""

    text: str
    conflicts: tuple[Conflict, ...]
    outside_conflicts: int
    renamed: tuple[tuple[str, str], ...] = ()

    @property
    def clean(self) -> bool:
        return not self.conflicts and not self.outside_conflicts


def merge_memory(
    base: str,
    ours: str,
    theirs: str,
    merge_text: Callable[[str, str, str], tuple[str, int]],
    multi: Callable[[str], bool] = lambda key: False,
    path: str = "MEMORY.md",
) -> MemoryMerge:
    """Three versions of MEMORY.md -> the merged text.

    ``merge_text(base, ours, theirs)``: the text outside the block merged as
    ``git merge-file`` does, and its number of conflicts. The block is merged
    by ``merge_facts`` and rendered canonically, a conflicting entry between
    ``<<<<<<< ours`` and ``>>>>>>> theirs`` lines. Raises ParseError when a
    side's block cannot be read (a begin marker without an end).
    """
    o, a, b = (parse_memory(text, path) for text in (base, ours, theirs))
    block = merge_facts(o.facts, a.facts, b.facts, multi, o.stray, a.stray, b.stray)
    outside, hunks = merge_text(*(_outside(m) for m in (o, a, b)))
    head, found, tail = outside.partition(PLACEHOLDER + "\n")
    if not found:  # the block's place was lost: it goes at the end
        head, tail = outside, ""
        if head and not head.endswith("\n"):
            head += "\n"
    nl = a.newline
    lines = render_block(block.facts, block.stray, nl)
    lines = _with_markers(lines, block.conflicts)
    begin = a.begin or b.begin or o.begin
    end = a.end or b.end or o.end
    if begin is None or end is None:
        begin, end = BEGIN, END
    body = nl.join([begin, *lines, end]) + nl
    return MemoryMerge(head + body + tail, block.conflicts, hunks, block.renamed)


def _outside(memory: Memory) -> str:
    """The text outside the block, with one placeholder line where it is."""
    if not memory.has_block:
        text = memory.head
        if not text.strip():
            return PLACEHOLDER + "\n"
        sep = "" if text.endswith("\n") else "\n"
        return text + sep + PLACEHOLDER + "\n"
    return memory.head + PLACEHOLDER + "\n" + memory.tail


def _with_markers(lines: list[str], conflicts: Sequence[Conflict]) -> list[str]:
    """The block's lines with each conflicting entry (rendered as ours', or as
    theirs' when ours deleted it) replaced by both versions between markers."""
    out = list(lines)
    for conflict in conflicts:
        shown = conflict.shown
        first = render_fact(shown)
        if first not in out:  # pragma: no cover - every merged fact is rendered
            continue
        at = out.index(first)
        out[at : at + 1 + len(shown.tail)] = [
            f"<<<<<<< {OURS}",
            *_lines(conflict.ours),
            "=======",
            *_lines(conflict.theirs),
            f">>>>>>> {THEIRS}",
        ]
    return out


def _lines(fact: Fact | None) -> list[str]:
    return [] if fact is None else [render_fact(fact), *fact.tail]
