"""Never-store detection, the public calls: find and redact what must not be kept.

``find(text)`` returns ``[Finding(rule, start, end, line), ...]``, sorted and
non-overlapping, where ``text[start:end]`` is the secret value itself (``hunter2``
in ``password: hunter2``, ``pw`` in ``scheme://user:pw@host``). ``redact(text)``
returns ``(clean, findings)`` with each span replaced by ``[REDACTED:<rule>]``.
``find_each`` is ``find`` for many short texts; ``unscanned`` is what of a file a
commit does not already vouch for; ``compile_patterns`` reads rules.md's patterns.
Our rules need the stdlib only: the table is ``rules``, the engine ``engine``.

Speed: our rules are linear and read a megabyte in well under a second. Labels are
matched only where a label word starts, base64 and entropy rules only inside runs of
20+ base64 characters, token rules search for their literal prefix, a distinct line
is read once (its repeats get copies), and after redacting only the text near a
marker between other characters than spaces and quotes is read again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from gardener.model.record import Record
from gardener.neverstore.engine import (
    Compiled,
    Context,
    Found,
    per_line,
    spans_in,
)
from gardener.neverstore.passes import engine, hits, runs
from gardener.neverstore.regex import Span, lazy
from gardener.neverstore.rules import TABLE

__all__ = [
    "Compiled",
    "Finding",
    "compile_patterns",
    "find",
    "find_each",
    "redact",
    "unscanned",
]


class Finding(Record):
    """One never-store hit: ``text[start:end]`` is the value, ``line`` is 1-based."""

    rule: str
    start: int
    end: int
    line: int

    def describe(self) -> str:
        """``"<rule> (line <n>)"``: safe to print, it never includes the secret."""
        return f"{self.rule} (line {self.line})"


def unscanned(
    text: str, committed: str | None, scanned: Iterable[str] = (), context: int = 8
) -> str:
    """What of ``text`` a scan must read, given that ``committed`` (its text at
    the last commit, None if it has none) was scanned before that commit: the
    lines no commit holds, each with up to ``context`` lines before it (a
    label committed earlier, values added under it), runs apart separated by
    a blank line. "" when nothing is new, or only lines in ``scanned``
    (already checked by the caller). The whole text when ``committed`` is None.
    """
    if committed is None:
        return text
    if len(text) >= _GREW_MIN and text.startswith(committed):
        return _appended(text, committed, scanned, context)
    lines = text.split("\n")
    held = set(committed.split("\n"))
    fresh = [i for i, line in enumerate(lines) if line not in held]
    return _runs(lines, fresh, 0, scanned, context)


# a text this long that only grew is not split whole (a 50 MB note: 500,000
# lines, twice, and a set of them, for the few appended)
_GREW_MIN = 1 << 16
_FEW = 64  # new lines looked up one by one in the committed text, not a set


def _appended(text: str, committed: str, scanned: Iterable[str], context: int) -> str:
    """``unscanned`` of a ``text`` that starts with ``committed``: only its
    lines from the one ``committed`` ends in can be new; each is new unless
    some line of ``committed`` is the same. No copy of the whole text."""
    start = committed.rfind("\n") + 1  # where the line committed ends in starts
    begin, found = start, 0  # the lines before it a context may reach
    while found < context and begin > 0:
        begin = text.rfind("\n", 0, begin - 1) + 1
        found += 1
    before = text[begin : start - 1].split("\n") if start else []
    lines = before + text[start:].split("\n")
    tail = range(len(before), len(lines))
    if len(tail) <= _FEW:
        fresh = [i for i in tail if not _holds(committed, lines[i])]
    else:
        held = set(committed.split("\n"))
        fresh = [i for i in tail if lines[i] not in held]
    # base 0: with ``context`` lines before, no context reaches back past them
    return _runs(lines, fresh, 0, scanned, context)


def _holds(text: str, line: str) -> bool:
    """Whether ``line`` is one of ``text.split("\\n")``, without the split."""
    return (
        f"\n{line}\n" in text
        or text.startswith(line + "\n")
        or text.endswith("\n" + line)
        or text == line
    )


def _runs(
    lines: list[str], fresh: list[int], base: int, scanned: Iterable[str], context: int
) -> str:
    """The ``fresh`` lines (indices in ``lines``, whose first is the text's
    line ``base``) with their context, as ``unscanned`` gives them."""
    if all(lines[i] in scanned for i in fresh):
        return ""
    keep: set[int] = set()
    for i in fresh:
        keep.update(range(max(0, i + base - context) - base, i + 1))
    out: list[str] = []
    for i in sorted(keep):
        if out and i - 1 not in keep:
            out.append("")  # a gap: the runs must not read as one
        out.append(lines[i])
    return "\n".join(out)


def compile_patterns(pairs: Sequence[tuple[str, str]]) -> Compiled:
    """``((name, regex), ...)`` -> ``(("custom:<name>", compiled), ...)``.

    Raises ValueError naming the pattern that does not compile. Characters that would
    break a ``[REDACTED:custom:<name>]`` marker (brackets, newlines) become ``_``.
    """
    out = []
    for name, pattern in pairs:
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise ValueError(
                f"pattern {name!r} ({pattern!r}) does not compile: {exc}"
            ) from exc
        label = re.sub(r"[\[\]\n\r]", "_", name.strip())[:64] or "unnamed"
        out.append((f"custom:{label}", compiled))
    return tuple(out)


_NEAR = 2048  # after redacting, rescan this much text either side of a marker


def _quiet(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` has a space, a quote or the text's edge on both
    sides. Replaced by a marker, it then changes nothing the built-in rules see
    around it (they look past a space or quote only for labels, whose values start
    after one), so the text around it needs no rescan."""
    left = start == 0 or text[start - 1].isspace() or text[start - 1] in "\"'`"
    return left and (end == len(text) or text[end].isspace() or text[end] in "\"'`")


def _all_quiet(text: str, spans: list[Found]) -> bool:
    """Whether every span is quiet once a marker (neighbours of neighbours are not)."""
    ends = [-1] + [e for _, e, _ in spans]
    starts = [s for s, _, _ in spans[1:]] + [len(text) + 1]
    return all(
        ends[k] < s and e < starts[k] and _quiet(text, s, e)
        for k, (s, e, _) in enumerate(spans)
    )


def _edge(text: str, pos: int, back: bool) -> int:
    """A line break (else a space) within _NEAR beyond ``pos``, so that a rescan
    window does not start or end inside a line, or else inside a word."""
    if pos <= 0 or pos >= len(text):
        return min(max(pos, 0), len(text))
    lo, hi = (max(0, pos - _NEAR), pos) if back else (pos, pos + _NEAR)
    for sep in "\n ":
        cut = text.rfind(sep, lo, hi) if back else text.find(sep, lo, hi)
        if cut >= 0:
            return cut + 1 if back else cut
    return pos


def _windows(text: str, marks: list[Span]) -> list[Span]:
    """The stretches of ``text`` within _NEAR of ``marks``, widened to line breaks
    or spaces and merged: one scan each."""
    out: list[Span] = []
    for ms, me in marks:
        lo, hi = ms - _NEAR, me + _NEAR
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    merged: list[Span] = []
    for lo, hi in out:
        lo, hi = _edge(text, lo, True), _edge(text, hi, False)
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def find(
    text: str, extra: Sequence[tuple[str, str]] = (), allow: Sequence[str] = ()
) -> list[Finding]:
    """All findings in ``text``, sorted by start and non-overlapping.

    ``extra``: ``(name, regex)`` never-store patterns from rules.md, reported as
    ``custom:<name>`` (a group named ``value`` narrows the span). ``allow``: regexes
    whose matches are never flagged. Raises ValueError for a pattern that won't compile.
    """
    custom = compile_patterns(extra)
    allowed = [p for _, p in compile_patterns([("allow", a) for a in allow])]
    ctx = Context(custom, allowed, 0)
    spans = _spans(text, ctx)
    if not text.isascii() or "\r" in text:  # maybe a disguised token
        spans = _merged(spans + _normal_spans(text, ctx))
    if _ENCODED.search(text):  # maybe an encoded one
        from gardener.neverstore import normal

        more = [(s, e, r) for s, e, plain in normal.encoded(text)
                for r in {r for _, _, r in _spans(plain, ctx)}]  # fmt: skip
        spans = _merged(spans + more)
    found, line, pos = [], 1, 0
    for s, e, r in spans:
        line += text.count("\n", pos, s)
        pos = s
        found.append(Finding(r, s, e, line))
    return found


# a "%XX", or 32 hex digits in a row: what ``normal.encoded`` may decode
_ENCODED = lazy(r"%[0-9A-Fa-f]{2}|[0-9A-Fa-f]{32}")


def _normal_spans(text: str, ctx: Context) -> list[Found]:
    """What the rules find in the lines of ``text`` that read otherwise in
    normal form (``normal``: NFKC, no zero-width characters, soft hyphens or
    bare CRs), as spans of the original characters."""
    from gardener.neverstore import normal

    out: list[Found] = []
    pos = 0
    for line in text.split("\n"):
        if normal.suspect(line):
            folded, origin = normal.view(line)
            for s, e, r in _spans(folded, ctx):
                a, b = normal.back(origin, s, e)
                out.append((a + pos, b + pos, r))
        pos += len(line) + 1
    return out


def _merged(spans: list[Found]) -> list[Found]:
    """``spans`` sorted, overlapping ones made one (under the first one's rule)."""
    out: list[Found] = []
    for s, e, r in sorted(spans):
        if out and s < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e), out[-1][2])
        else:
            out.append((s, e, r))
    return out


def _spans(text: str, ctx: Context) -> list[Found]:
    """``find``'s spans of ``text`` as it is (start, end, rule), sorted."""
    custom, allowed = ctx.custom, ctx.allowed
    spans = spans_in(text, ctx)
    # A marker can complete a neighbour's shape (it ends a run that went on before);
    # rescan the redacted text near the markers until nothing new appears, mapping
    # hits back here. Elsewhere the redacted text is this text, already scanned.
    # Custom and allow patterns can see anything, so then every marker is rescanned.
    plain = not custom and not allowed
    for _ in range(8):
        if not spans or (plain and _all_quiet(text, spans)):
            break
        clean, shifts, marks = _marked(text, spans)
        loud = [(s, e) for s, e in marks if not (plain and _quiet(clean, s, e))]
        more = [
            (s + lo, e + lo, r)
            for lo, hi in _windows(clean, loud)
            for s, e, r in spans_in(clean[lo:hi], ctx)
        ]
        if not more:
            break
        k, shift = 0, 0
        for s, e, r in more:  # all outside markers, so s and e shift alike
            while k < len(shifts) and shifts[k][0] <= s:
                shift, k = shifts[k][1], k + 1
            spans.append((s - shift, e - shift, r))
        spans.sort()
    return spans


def find_each(
    texts: Sequence[str],
    extra: Sequence[tuple[str, str]] = (),
    allow: Sequence[str] = (),
) -> list[list[Finding]]:
    """``[find(t, extra, allow) for t in texts]``, quicker for many short texts.

    The texts are read as one, joined by newlines: the line rules (those
    ``_per_line`` runs per line: they look no further than a line) find there
    what they find in each text, and the other built-in rules can only match
    where one of their words, literals or runs starts. A text with none of
    these, no custom match and nothing for detect-secrets is clean; every other
    text is scanned by ``find`` itself.
    """
    from bisect import bisect_right

    from gardener.neverstore import detectors

    custom = compile_patterns(extra)
    allowed = [p for _, p in compile_patterns([("allow", a) for a in allow])]
    ctx = Context(custom, allowed, 0)
    eng = engine()
    joined = "\n".join(texts)
    starts: list[int] = []
    pos = 0
    for text in texts:
        starts.append(pos)
        pos += len(text) + 1
    # the line rules read each line alone (``per_line``), as ``find`` reads
    # them: a text just read whole by ``find`` is not read again
    where = [s for s, e, _, _ in per_line(joined, eng.lines, ctx) if e > s]
    where += [s for s, _ in hits(joined, eng.whole)]
    for i in eng.whole.text_rules:
        need = TABLE[i].need
        if not need:  # no literal to look for: every text may match
            return [find(text, extra, allow) for text in texts]
        at = joined.find(need)
        while at >= 0:
            where.append(at)
            at = joined.find(need, at + 1)
    if eng.whole.run_rules:
        where += [s for s, _ in runs(joined)]
    # what ``_disguised`` and ``detectors.suspicious`` look for stays within a
    # line, so the joined text is read once for them too
    where += [m.start() for m in _ENCODED.finditer(joined)]
    where += detectors.suspicious_at(joined)
    # a marker is read past (``rule_spans``): what follows it may be a value
    at = joined.find("[REDACTED")
    while at >= 0:
        where.append(at)
        at = joined.find("[REDACTED", at + 1)
    suspect = {bisect_right(starts, at) - 1 for at in where}
    plain = joined.isascii() and "\r" not in joined  # nothing to read in normal form
    out: list[list[Finding]] = []
    for n, text in enumerate(texts):
        clean = (
            n not in suspect
            and (plain or not _disguised(text))
            and not any(p.search(text) for _, p in custom)
        )
        out.append([] if clean else find(text, extra, allow))
    return out


def _disguised(text: str) -> bool:
    """Whether ``text`` reads otherwise in normal form or decoded (``find``
    reads it twice)."""
    if _ENCODED.search(text):
        return True
    if text.isascii() and "\r" not in text:
        return False
    from gardener.neverstore import normal

    return any(normal.suspect(line) for line in text.split("\n"))


def _marked(text: str, spans: list[Found]) -> tuple[str, list[Span], list[Span]]:
    """``text`` with markers for ``spans``; (marker end, shift so far) per marker; and
    each marker's span in the new text."""
    parts, shifts, marks, pos, shift = [], [], [], 0, 0
    for s, e, r in spans:
        marker = f"[REDACTED:{r}]"
        parts += [text[pos:s], marker]
        marks.append((s + shift, s + shift + len(marker)))
        shift += len(marker) - (e - s)
        shifts.append((e + shift, shift))
        pos = e
    return "".join(parts) + text[pos:], shifts, marks


# each round redacts at least one more span; a label's line holds few tokens
_ROUNDS = 64


def redact(
    text: str, extra: Sequence[tuple[str, str]] = (), allow: Sequence[str] = ()
) -> tuple[str, list[Finding]]:
    """``(text with each finding's span replaced by "[REDACTED:<rule>]", findings)``.

    Idempotent: markers are never flagged, and what a marker newly exposes is
    redacted in more rounds until none is found (at most ``_ROUNDS``).
    """
    found = find(text, extra, allow)
    clean = _marked(text, [(f.start, f.end, f.rule) for f in found])[0]
    # A marker can expose more: detect-secrets' plugins are not marker-aware (a
    # UUID run into a label), and our rules read a token after a marker as a
    # label's value ("PASSWORT: 0< 0000000A 0000000A": each round exposes the
    # next token). Settle it here; the extra findings carry offsets into the
    # partly redacted text, their lines are the same.
    for _ in range(_ROUNDS):
        more = find(clean, extra, allow)
        if not more:
            break
        clean = _marked(clean, [(f.start, f.end, f.rule) for f in more])[0]
        found = found + more
    return clean, found
