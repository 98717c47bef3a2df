"""Merge one day's note written on two machines (pure): both sides' lines kept
(the body as git's ``merge=union`` keeps them), and one front matter.

A plain union of two notes that each open with front matter (``---`` /
``agent: atlas`` / ``---`` and ``agent: hermes``) interleaves the two blocks:
one side's ``agent:`` line lands after the other's last entry and reads as
part of it. So the front matter is merged apart: ours, with the lines of
theirs whose key ours lacks (a key both give keeps ours); the body after it
is merged as a union. See docs/design.md, "Several machines".
"""

from __future__ import annotations

from collections.abc import Callable

from gardener.formats.blocks import split_front_matter

# (base, ours, theirs) -> the union of the three texts
Union = Callable[[str, str, str], str]


def split_note(text: str) -> tuple[list[str] | None, str]:
    """(the front matter's lines between its ``---`` lines, or None; the body
    after it, as written)."""
    yaml, count = split_front_matter(text)
    if yaml is None:
        return None, text
    lines = text.split("\n")
    return yaml.split("\n") if yaml else [], "\n".join(lines[count:])


def _key(line: str) -> str | None:
    head, colon, _ = line.partition(":")
    return head.strip() if colon and head.strip() and not line[:1].isspace() else None


def merge_front(ours: list[str] | None, theirs: list[str] | None) -> list[str] | None:
    """Ours, then each line of theirs whose key ours does not give (a line
    with no key of its own, a list item or a continuation, goes with its key's)."""
    if ours is None:
        return theirs
    if theirs is None:
        return ours
    have = {k for k in map(_key, ours) if k}
    out = list(ours)
    taking = False
    for line in theirs:
        key = _key(line)
        if key is not None:
            taking = key not in have
        if taking and line not in out:
            out.append(line)
    return out


def merge_note(base: str, ours: str, theirs: str, union: Union) -> str:
    """The merged note: one front matter (``merge_front``), then the union of
    the three bodies."""
    front_o, body_o = split_note(base)
    front_a, body_a = split_note(ours)
    front_b, body_b = split_note(theirs)
    if front_a is None and front_b is None:
        return union(base, ours, theirs)
    del front_o  # what both sides did to it is in theirs' and ours'
    body = union(body_o, body_a, body_b)
    front = merge_front(front_a, front_b) or []
    newline = "\r\n" if "\r\n" in ours[:200] else "\n"
    head = newline.join(["---", *front, "---"]) + newline
    return head + body
