"""One decision for both paths: the values ``note`` would refuse a line for are
the values redacted from a file that reached disk another way.

``values(text)`` are the secret values of a text: what ``redact.find`` finds
in it, read as a whole and line by line (as ``note`` reads an entry), in each
pair of lines where a label ends one line and its value starts the next
(YAML, INI) or a token was wrapped across them, each widened to the whole
token it sits in (a finding that covers a prefix of a token covers the
token). ``decide(text)`` redacts every occurrence of each of those values,
and of ``also`` (the values of the other files of the same change, or found
by the memory of refused values), wherever it stands as a token of its own;
then reads the result again and redacts what the filter still flags, until
nothing is (fail closed: a line that keeps being flagged goes whole).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from gardener.neverstore.passes import Remembering
from gardener.neverstore.redact import Finding, find, find_each

Spans = Callable[[str], list[tuple[int, int]]]  # text -> spans that must go
MIN_COPY = 4  # columns: a shorter value is redacted where found, not everywhere
_ROUNDS = 3  # rescans after redaction before a flagged line goes whole
_TOKEN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-")
# a line that ends in a label with nothing after it: its value is on the next one
_DANGLING = re.compile(r"[:=：]\s*[|>]?\s*$")
# a line that goes on the line before (a hard-wrapped list item or paragraph, as
# the note's reader joins them): not a new item, heading, fence, quote or table
_NEW_BLOCK = re.compile(r"^\s*(?:[-*+]\s|\d{1,9}[.)]\s|#|```|~~~|>|\|)")
# a list item's mark, and the time `gardener note` writes after it
_ITEM_MARK = re.compile(
    r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:(?:[01]?\d|2[0-3]):[0-5]\d\s+)?"
)
_SHAPES = frozenset({"high-entropy", "base64-secret", "email", "card-number"})
_TAIL = re.compile(r"[\w+/=-]{8,}$", re.ASCII)  # a token that may go on
_HEAD = re.compile(r"^[\w+/=-]{4,}", re.ASCII)  # ...on the next line


@dataclass(frozen=True)
class Decision:
    """A text's redaction: the clean text, what was taken out (offsets into
    the text given; a later round's into the text as it was then, with the
    same lines), and the values found."""

    text: str
    findings: list[Finding]
    values: frozenset[str]


def widen(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` widened to the whole token it sits in: on each side,
    while both the character inside and the one outside are token characters
    (letters, digits, ``_+-``; also ``/`` and ``=`` when the span holds them,
    and ``=`` after it, base64's padding)."""
    inner = _TOKEN | (frozenset("/=") & frozenset(text[start:end]))
    while start > 0 and text[start] in inner and text[start - 1] in inner - {"="}:
        start -= 1
    right = inner | {"="}  # base64's padding ends a token
    while end < len(text) and text[end - 1] in right and text[end] in right:
        end += 1
    return start, end


def _line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in re.finditer("\n", text))]


def _joined(
    text: str, starts: list[int], extra: Sequence[tuple[str, str]], allow: Sequence[str]
) -> list[tuple[int, int, str]]:
    """Findings that need two lines: a dangling label and its value on the
    next line, and a token wrapped across the line break (spans of ``text``;
    a wrapped token gives one span per line)."""
    out: list[tuple[int, int, str]] = []
    lines = text.split("\n")
    for i in range(len(lines) - 1):
        line, nxt = lines[i].rstrip("\r"), lines[i + 1]
        if not nxt.strip():
            continue
        lead = len(nxt) - len(nxt.lstrip())
        dangling = bool(_DANGLING.search(line))
        if dangling:
            # "- The password for prod:" / "- Tango-Foxtrot-991": the value may
            # be the next list item; read it without its list mark
            mark = _ITEM_MARK.match(nxt)
            lead = mark.end() if mark else lead
        at = starts[i + 1] + lead
        if dangling or not _NEW_BLOCK.match(nxt):
            # read as the reader reads it: "the wifi password is" / "  Tr0ub…"
            joined = line.rstrip() + " " + nxt[lead:].strip()
            cut = len(line.rstrip()) + 1
            for f in find(joined, extra, allow):
                if f.end > cut:
                    out.append((at + max(f.start - cut, 0), at + f.end - cut, f.rule))
            if dangling:
                continue
        tail, head = _TAIL.search(line), _HEAD.match(nxt.lstrip())
        if tail and head:
            joined = tail.group() + nxt.lstrip()
            cut = len(tail.group())
            for f in find(joined, extra, allow):
                # only what the break hid, and of a named format: two runs of
                # characters (a digest, then a path on the next line) make a
                # long random-looking run of no format at all
                if f.start < cut < f.end and f.rule not in _SHAPES:
                    out.append(
                        (
                            starts[i] + tail.start() + f.start,
                            starts[i] + len(line),
                            f.rule,
                        )
                    )
                    out.append((at, at + f.end - cut, f.rule))
    return out


def found_spans(
    text: str, extra: Sequence[tuple[str, str]] = (), allow: Sequence[str] = ()
) -> list[tuple[int, int, str]]:
    """(start, end, rule) of every finding of ``text`` (see the module), widened."""
    with Remembering():  # the lines joined are the text: read once (``passes``)
        spans = [(f.start, f.end, f.rule) for f in find(text, extra, allow)]
        lines = text.split("\n")
        starts = _line_starts(text)
        for n, found in enumerate(find_each(lines, extra, allow)):
            spans += [(starts[n] + f.start, starts[n] + f.end, f.rule) for f in found]
    if len(lines) > 1:
        spans += _joined(text, starts, extra, allow)
    return [(*widen(text, s, e), r) for s, e, r in spans if e > s]


def values(
    text: str, extra: Sequence[tuple[str, str]] = (), allow: Sequence[str] = ()
) -> frozenset[str]:
    """The secret values of ``text``: each finding's text, widened, and what
    follows its last ``=``, ``:`` or quote (``_core``)."""
    return values_of(text, found_spans(text, extra, allow))


def values_of(text: str, spans: Iterable[tuple[int, int, str]]) -> frozenset[str]:
    """``values`` of ``text`` given its ``found_spans``."""
    found = {text[s:e] for s, e, _ in spans}
    return frozenset(found | {_core(v) for v in found if _copyable(_core(v))})


def flagged(
    text: str,
    extra: Sequence[tuple[str, str]] = (),
    allow: Sequence[str] = (),
    remembered: Spans | None = None,
) -> bool:
    """Whether ``decide`` would change ``text``: it holds a secret value."""
    return bool(found_spans(text, extra, allow)) or bool(
        remembered is not None and remembered(text)
    )


def _copies(text: str, value: str) -> list[tuple[int, int]]:
    """Where ``value`` stands in ``text`` as a token of its own (no letter or
    digit right before or after it)."""
    out = []
    at = text.find(value)
    while at >= 0:
        end = at + len(value)
        before = text[at - 1] if at else " "
        after = text[end] if end < len(text) else " "
        if not before.isalnum() and not after.isalnum():
            out.append((at, end))
        at = text.find(value, at + 1)
    return out


_CUT = re.compile(r"""[=:"'`]""")


def _core(value: str) -> str:
    """What follows a value's last ``=``, ``:`` or quote (``user:PASS``,
    ``value="PASS``), the secret itself when a finding took more."""
    return _CUT.split(value)[-1]


def _copyable(value: str) -> bool:
    """Whether every copy of ``value`` goes: ``MIN_COPY`` columns or more, a
    wide (CJK) character counting two: a security answer "王秀英" or "ポチ" is a
    word, as "Rufus" is."""
    if "\n" in value or value.isspace():
        return False
    width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in value)
    return width >= MIN_COPY


def _wrapped_copies(text: str, values: list[str]) -> list[tuple[int, int, str]]:
    """Spans of the copies of ``values`` wrapped across a line break (the end
    of a line's last token and the start of the next line's first), one span
    per side of the break."""
    if "\n" not in text or not values:
        return []
    out: list[tuple[int, int, str]] = []
    starts = _line_starts(text)
    lines = text.split("\n")
    for i in range(len(lines) - 1):
        tail = re.search(r"\S+$", lines[i].rstrip("\r"))
        head = re.match(r"\s*(\S+)", lines[i + 1])
        if not tail or not head:
            continue
        joined, cut = tail.group() + head.group(1), len(tail.group())
        for value in values:
            at = joined.find(value)
            while at >= 0:
                if at < cut < at + len(value):
                    a = starts[i] + tail.start() + at
                    out.append((a, starts[i] + tail.end(), "secret"))
                    b = starts[i + 1] + head.start(1)
                    out.append((b, b + at + len(value) - cut, "secret"))
                at = joined.find(value, at + 1)
    return out


def _redacted(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with each span (merged when they overlap) a marker."""
    merged: list[tuple[int, int, str]] = []
    for s, e, r in sorted(spans):
        if merged and s < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]), merged[-1][2])
        else:
            merged.append((s, e, r))
    parts, pos = [], 0
    for s, e, r in merged:
        parts += [text[pos:s], f"[REDACTED:{r}]"]
        pos = e
    return "".join(parts) + text[pos:]


def _findings(text: str, spans: Iterable[tuple[int, int, str]]) -> list[Finding]:
    starts = _line_starts(text)
    from bisect import bisect_right

    return [Finding(r, s, e, bisect_right(starts, s)) for s, e, r in sorted(set(spans))]


def decide(
    text: str,
    extra: Sequence[tuple[str, str]] = (),
    allow: Sequence[str] = (),
    also: Iterable[str] = (),
    remembered: Spans | None = None,
    known: Sequence[tuple[int, int, str]] | None = None,
) -> Decision:
    """``text`` with every secret value redacted (see the module): its own
    values, the values ``also`` names, and the spans ``remembered`` gives
    (the memory of refused values) in each round. ``known``: ``found_spans``
    of ``text``, when the caller has them already."""
    found = list(known) if known is not None else found_spans(text, extra, allow)
    if remembered is not None:
        found += [(*widen(text, s, e), "secret") for s, e in remembered(text)]
    vals = {text[s:e] for s, e, _ in found}
    rule_of = {text[s:e]: r for s, e, r in found}
    copied = [v for v in {*vals, *map(_core, vals), *also} if _copyable(v)]
    for value in copied:
        rule = rule_of.get(value, "secret")
        found += [(s, e, rule) for s, e in _copies(text, value)]
    found += _wrapped_copies(text, copied)
    if not found:
        return Decision(text, [], frozenset())
    findings = _findings(text, found)
    clean = _redacted(text, found)
    for round_ in range(_ROUNDS + 1):
        more = found_spans(clean, extra, allow)
        if remembered is not None:
            more += [(*widen(clean, s, e), "secret") for s, e in remembered(clean)]
        if not more:
            break
        if round_ == _ROUNDS:  # still flagged: the lines go whole
            more = _whole_lines(clean, more)
        findings += _findings(clean, more)
        vals |= {clean[s:e] for s, e, _ in more}
        clean = _redacted(clean, more)
    return Decision(clean, findings, frozenset(vals))


def _whole_lines(
    text: str, spans: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """The lines ``spans`` touch, each whole (its line break kept)."""
    out = []
    for s, e, r in spans:
        a = text.rfind("\n", 0, s) + 1
        b = text.find("\n", e)
        out.append((a, len(text) if b < 0 else b, r))
    return out
