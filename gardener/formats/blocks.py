"""A daily note's headings and code fences, as its parser reads them: the
front matter, which headings are open and whether a fence is, at the end.

``gardener.formats.dailynote`` reads notes with these regexes, and ``gardener
note`` asks ``tail`` where an append would land (docs/design.md, Note), so the
two agree on what is a heading and what is code. ``gardener note`` loads this
module: no dataclasses, typing or pathlib (docs/internals.md, Hot path).
"""

from __future__ import annotations

import re

# ``[^\S\r\n]``: a space or tab that never reaches into the next line, so the
# same regexes read one line (dailynote) or a whole text (``tail``, re.M).
FENCE = re.compile(r"^[^\S\r\n]{0,3}(`{3,}|~{3,})(.*)$", re.MULTILINE)
# Heading text is taken whole and its closing #s stripped afterwards: a lazy
# ``(.*?)\s*#*\s*$`` takes cubic time on a run of spaces.
HEADING = re.compile(r"^[^\S\r\n]{0,3}(#{1,6})[^\S\r\n]+(.*)$", re.MULTILINE)
_CLOSING_HASHES = re.compile(r"(?:^|(?<=\s))#+$")
# a line that may be a heading or a fence: what ``tail`` looks at. It starts
# with the newline before it, a literal the regex engine skips to quickly.
_BLOCK = re.compile(r"\n[^\S\r\n]{0,3}(?:#{1,6}[^\S\r\n]|`{3}|~{3})")
_FRONT_END = re.compile(r"^(---|\.\.\.)\s*$")


def opens_front(text: str) -> bool:
    """Whether the first line of ``text`` (its BOM aside) opens a front matter."""
    first = text.removeprefix("\ufeff").partition("\n")[0]
    return first.rstrip("\r").strip() == "---"


def split_front_matter(text: str) -> tuple[str | None, int]:
    """Return (yaml_text or None, number of lines the front matter takes).

    Front matter is a first line ``---`` and a closing ``---`` (or ``...``) line.
    """
    body = text[1:] if text.startswith("\ufeff") else text
    end = body.find("\n")
    if (body if end < 0 else body[:end]).rstrip("\r").strip() != "---":
        return None, 0  # the common case, without splitting the whole text
    lines = body.split("\n")
    for number in range(1, len(lines)):
        if _FRONT_END.match(lines[number].rstrip("\r")):
            return "\n".join(x.rstrip("\r") for x in lines[1:number]), number + 1
    return None, 0


def heading_title(marks: str) -> str:
    """A heading's text from what follows its ``#``s: closing ``#``s and
    spaces taken off."""
    return _CLOSING_HASHES.sub("", marks.strip()).strip()


def closes(fence: str, line: str) -> bool:
    """True if ``line`` closes a code fence opened by ``fence`` (its backticks
    or tildes): the same character, at least as many, nothing after them."""
    fm = FENCE.match(line)
    return bool(
        fm
        and fm.group(1)[0] == fence[0]
        and len(fm.group(1)) >= len(fence)
        and not fm.group(2).strip()
    )


def tail(text: str) -> tuple[list[tuple[int, str]], tuple[int, str, str] | None]:
    """What is open at the end of a daily note's ``text``, as ``parse_note``
    reads it: the headings, as ``(level, title)`` outermost first, and the code
    fence, as ``(line, indent, marker)`` (its 1-based line, the spaces before
    it, its backticks or tildes), or None.

    Front matter is passed over as ``split_front_matter`` finds it (even if it
    is not YAML, which the parser would read as text: loading YAML costs a note
    ~30 ms). Only the lines that can be a heading or a fence are looked at, so
    the cost is a regex scan of the text.
    """
    # the newline before the first line, which _BLOCK starts with; the BOM off
    text = "\n" + (text[1:] if text.startswith("\ufeff") else text)
    _, skip = split_front_matter(text[1:])
    start = 0
    for _ in range(skip):
        end = text.find("\n", start + 1)
        start = end if end >= 0 else len(text)
    headings: dict[int, str] = {}
    fence: tuple[int, str, str] | None = None
    number, counted = 1, 0  # the line number at text[counted]
    for found in _BLOCK.finditer(text, start):
        at = found.start() + 1
        end = text.find("\n", at)
        line = text[at : end if end >= 0 else len(text)].rstrip("\r")
        if fence is not None:
            if closes(fence[2], line):
                fence = None
            continue
        fm = FENCE.match(line)
        if fm:
            number += text.count("\n", counted + 1, at)
            counted = found.start()
            fence = (number, line[: fm.start(1)], fm.group(1))
            continue
        hm = HEADING.match(line)
        if hm:
            level = len(hm.group(1))
            headings = {lv: t for lv, t in headings.items() if lv < level}
            headings[level] = heading_title(hm.group(2))
    return sorted(headings.items()), fence
