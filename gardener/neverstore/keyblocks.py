"""Private key blocks: how far a key runs after its BEGIN line.

The ``private-key`` rule matches the BEGIN line; ``key_blocks`` extends each match
over the key's body (base64 lines, maybe quoted, listed, grouped or split by blank
lines, known PEM headers first) through its END line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gardener.neverstore.regex import Span, lazy

_KEY_END = lazy(r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
# what a key's lines may carry before them in a note: indentation, "> " quotes,
# a list marker ("- ", "1. ")
_KEY_PREFIX = lazy(r"[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?")
# a line of a key's body, once the prefix is off: base64, maybe in groups
_KEY_LINE = lazy(r"[A-Za-z0-9+/]+(?:[ \t]+[A-Za-z0-9+/]+)*={0,2}[ \t]*\r?")
# the headers PEM and PuTTY keys have, before their body
_PEM_HEADER = lazy(
    r"(?:Proc-Type|DEK-Info|Comment|Encryption|Public-Lines|Private-Lines"
    r"|Private-MAC|Key-Derivation|Argon2-[A-Za-z]+):[^\n]*"
)


_BODY_MAX = (
    16384  # characters from a BEGIN line within which its END line is looked for
)


def key_blocks(text: str, begin: re.Pattern[str]) -> Iterator[Span]:
    """Each BEGIN line through its key: the lines after it that hold a key's
    body (base64, maybe in groups or behind a quote or list marker; known PEM
    headers first, and the blank lines between), up to and including an END
    line; and whatever lies between it and an END line within ``_BODY_MAX``
    characters. A line that is not key material ends the block without an END: a
    BEGIN line quoted in a note takes no entry after it."""
    reach = 0
    for m in begin.finditer(text):
        if m.start() < reach:
            continue
        reach = _key_block_end(text, m.end())
        yield m.start(), reach


def _body_line(line: str, inside: bool) -> bool:
    """Whether ``line`` (its prefix taken off) is a line of a key's body. The
    first must look like one (16+ characters, a digit or "+" and both cases);
    after it, a shorter one (the last) will do."""
    if not _KEY_LINE.fullmatch(line):
        return False
    if inside:
        return True
    bare = "".join(line.split())
    return (
        len(bare) >= 16
        and any(c.isdigit() or c == "+" for c in bare)
        and not bare.islower()
        and not bare.isupper()
    )


def _key_block_end(text: str, pos: int) -> int:
    """Where the key whose BEGIN line ends at ``pos`` ends (see ``key_blocks``)."""
    eol = text.find("\n", pos)
    eol = len(text) if eol < 0 else eol
    same = _KEY_END.search(text, pos, eol)  # a key pasted on one line
    if same:
        return same.end()
    # an END line close below: the block runs to it, whatever its body holds
    # (a key re-wrapped, escaped or not base64 at all is a key all the same)
    window = min(len(text), pos + _BODY_MAX)
    close = _KEY_END.search(text, pos, window)
    if close and "-----BEGIN" not in text[pos : close.start()]:
        return close.end()
    rest = text[pos:eol].strip()
    inside = bool(rest) and _body_line(rest, False)
    reach = eol if inside else pos
    headers, blank = not inside, False
    while eol < len(text):
        start = eol + 1
        eol = text.find("\n", start)
        eol = len(text) if eol < 0 else eol
        line = text[start:eol]
        lead = _KEY_PREFIX.match(line)
        body = line[lead.end() if lead else 0 :]
        close = _KEY_END.match(body)
        if close:
            return start + (lead.end() if lead else 0) + close.end()
        if not body.strip():
            blank = True  # a key may have blank lines; what follows must look it
            continue
        if _body_line(body, inside and not blank):
            reach, headers, inside, blank = eol, False, True, False
        elif headers and _PEM_HEADER.fullmatch(body.rstrip("\r")):
            reach = eol
        else:
            break
    return reach
