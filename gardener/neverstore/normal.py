"""The text as a reader sees it: what a disguised token looks like once NFKC
folds it (``ｇｈｐ＿...`` is ``ghp_...``), zero-width characters and soft
hyphens are dropped, and a bare carriage return no longer splits it.

``suspect`` picks the lines worth a second reading (most are not: CJK text
and its full-width punctuation fold to nothing a rule looks for); ``view``
gives a line's normal form and, for each of its characters, the offset of
the original character it came from, so that what a rule finds in the normal
form is redacted in the original characters. ``encoded`` gives the
percent-encoded and hex-encoded runs of a text with the text they decode to:
a finding there takes the whole run.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# invisible characters a reader never sees: zero-width space, non-joiner,
# joiner, word joiner, BOM, soft hyphen, Mongolian vowel separator, marks
DROPPED = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u200e\u200f\u2061")
_TOKEN = re.compile(r"[\w+/=@.-]", re.ASCII)  # what a folded character may add


@functools.cache
def _folds_to_token(ch: str) -> bool:
    """Whether the character ``ch`` (not ASCII) is dropped, or folds under
    NFKC to a letter, digit or token punctuation of ASCII."""
    if ch in DROPPED:
        return True
    folded = unicodedata.normalize("NFKC", ch)
    return folded != ch and any(c.isascii() and _TOKEN.match(c) for c in folded)


def suspect(line: str) -> bool:
    """Whether ``line`` reads otherwise once normal: a bare CR inside it, or
    a character that is dropped or folds to an ASCII token character."""
    cr = line.find("\r")
    if 0 <= cr < len(line) - 1:
        return True
    if line.isascii():
        return False
    return any(_folds_to_token(c) for c in set(line) if not c.isascii())


def view(line: str) -> tuple[str, list[int]]:
    """``line`` in normal form, and per character of it the offset in ``line``
    of the character it came from, with ``len(line)`` appended."""
    out: list[str] = []
    origin: list[int] = []
    last = len(line) - 1
    for i, ch in enumerate(line):
        if ch in DROPPED or (ch == "\r" and i < last):
            continue
        folded = ch if ch.isascii() else unicodedata.normalize("NFKC", ch)
        out.append(folded)
        origin.extend([i] * len(folded))
    origin.append(len(line))
    return "".join(out), origin


def back(origin: list[int], start: int, end: int) -> tuple[int, int]:
    """The span of the original line that ``[start, end)`` of its view covers."""
    return origin[start], origin[end - 1] + 1 if end > start else origin[start]


# two %XX or more; or one that is a label's separator between words:
# "password%3DPctEnc123abc" is password=PctEnc123abc (%3D =, %3A :, %40 @)
_PERCENT = re.compile(
    r"(?:[\w.~+/=-]*%[0-9A-Fa-f]{2}){2,}[\w.~+/=-]*"
    r"|[\w.~+/-]+%(?:3[Dd]|3[Aa]|40)[\w.~+/=-]+",
    re.ASCII,
)
_HEX = re.compile(r"(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}){16,}(?![0-9A-Za-z])", re.ASCII)


def _unpercent(run: str) -> str:
    return re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), run)


def encoded(text: str) -> list[tuple[int, int, str]]:
    """(start, end, decoded text) of each run of ``text`` that is percent-encoded
    (two ``%XX`` or more, or one ``=``, ``:`` or ``@`` between words) or hex-encoded (32+ hex digits) and decodes to
    printable text holding a letter (a SHA or a UUID decodes to bytes that are
    not text)."""
    out: list[tuple[int, int, str]] = []
    if "%" in text:
        for m in _PERCENT.finditer(text):
            plain = _unpercent(m.group())
            if plain.isprintable():
                out.append((m.start(), m.end(), plain))
    for m in _HEX.finditer(text):
        try:
            plain = bytes.fromhex(m.group()).decode("ascii")
        except ValueError:  # UnicodeDecodeError is one
            continue
        if plain.isprintable() and any(c.isalpha() for c in plain):
            out.append((m.start(), m.end(), plain))
    return out
