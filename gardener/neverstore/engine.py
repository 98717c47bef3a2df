"""The engine: every rule's candidates in a text, merged into spans.

``candidates`` runs the custom patterns and both rule groups (``passes``) and
returns ``(start, end, priority, rule)``; ``rule_spans`` drops what a marker or an
allow pattern covers and merges overlaps under the earliest rule; ``spans_in`` adds
detect-secrets' findings our rules missed (``detectors``). A base64 run is decoded
and its text read again, up to two levels deep. Markers (``[REDACTED:<rule>]``,
``[REDACTED]``) are never flagged again, so redaction is idempotent; an allow pattern
drops a finding only when one of its matches covers the whole span.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from gardener.model.record import Record
from gardener.neverstore import tokens
from gardener.neverstore.passes import (
    Engine,
    RuleGroup,
    compiled,
    engine,
    hits,
    kept,
    runs,
)
from gardener.neverstore.regex import lazy, target
from gardener.neverstore.rules import TABLE

Compiled = tuple[tuple[str, re.Pattern[str]], ...]  # (rule id, pattern) pairs
Candidate = tuple[int, int, int, str]  # start, end, priority (lower wins), rule
Found = tuple[int, int, str]  # start, end, rule id


@functools.cache
def marker() -> re.Pattern[str]:
    """A redaction marker, ``[REDACTED]`` or ``[REDACTED:<rule>]``: compiled
    only when a text has candidates to check against markers (~2 ms)."""
    ids = "|".join(sorted({r.rule for r in TABLE}, key=len, reverse=True))
    body = rf"custom:[^\[\]\n]{{1,64}}|{ids}|[A-Za-z][A-Za-z_ -]{{0,39}}"
    return re.compile(rf"\[REDACTED(?::(?:{body}))?\]")


def genuine(found: str, ctx: Context) -> bool:
    """Whether a marker's text names a rule of this reading: a hand-written
    ``[REDACTED:custom:Zq4vT9wLmX]`` names none, and what it holds is read."""
    rule = found[len("[REDACTED") : -1].lstrip(":")
    if not rule.startswith("custom:"):
        return True  # the table's ids, a plain [REDACTED] or a word: no value fits
    return any(name == rule for name, _ in ctx.custom)


_WORTH = lazy(  # a separator, digits, or a 15+ run with a capital or digit
    r"(?a)[:=@|：—–是为為は는은]|\d{4}|--"
    r"|(?<![\w+/=.-])(?=[\w+/=.-]{15})[a-z_+/=.-]*[A-Z0-9]"
)


def _worth(inner: str, custom: Compiled, eng: Engine) -> bool:
    """Whether decoded base64 could hold a finding (most decoded runs cannot)."""
    if custom or not inner.isascii() or _WORTH.search(inner):
        return True
    words = eng.lines.words
    return (
        words is not None and compiled(words).search("\n" + inner.lower()) is not None
    )


def _decoded(run: str) -> str | None:
    """The UTF-8 text a base64/base64url run encodes, or None if it is not text."""
    body = run.rstrip("=").replace("-", "+").replace("_", "/")
    body = body[: len(body) - 1] if len(body) % 4 == 1 else body
    import base64  # only for a base64 run (~1 ms to import: a note rarely has one)

    try:
        out = base64.b64decode(body + "=" * (-len(body) % 4), validate=True).decode()
    except ValueError:  # binascii.Error and UnicodeDecodeError both are
        return None
    flat = out.replace("\n", " ").replace("\r", " ").replace("\t", " ")
    return out if out.strip() and flat.isprintable() else None


class Context(Record):
    """What one reading of a text runs with besides the table."""

    custom: Compiled  # rules.md's never-store patterns, before the table's rules
    allowed: Sequence[re.Pattern[str]]
    depth: int  # how deep in base64 this text is


def group_candidates(text: str, rules: RuleGroup, ctx: Context) -> list[Candidate]:
    """The candidates of one group's rules in ``text``: (start, end, priority, rule)."""
    eng = engine()
    base = len(ctx.custom)
    out: list[Candidate] = []

    def judge(i: int, m: re.Match[str]) -> None:
        rule, _, check = eng.rules[i]
        span = check(text, m) if check else target(m)
        if span and span[1] > span[0]:
            if tokens.placeholder(text[span[0] : span[1]]):
                return  # ghp_xxxx..., AKIA...EXAMPLE: written to be replaced
            if TABLE[i].runs and tokens.public(text, span[0], span[1]):
                return  # price_..., an SSH public key, a Drive folder's id
            # a check of several kinds of value names the one it found
            named = span[2] if len(span) > 2 else rule  # type: ignore[misc]
            out.append((span[0], span[1], base + i, named))

    # A label whose value would start inside the value of the same rule's last hit
    # is part of that value (password:password:...): judging it again only costs.
    claimed: dict[int, int] = {}
    for pos, word in hits(text, rules):
        for i in rules.route[word]:
            m = eng.rules[i][1].match(text, pos)
            if m and m.end() >= claimed.get(i, 0):
                judge(i, m)
                if out and out[-1][2] == base + i:
                    claimed[i] = out[-1][1]
    low: str | None = None
    for i in rules.text_rules:
        if TABLE[i].need not in text:
            continue  # before compiling: most rules never have to be
        if TABLE[i].anyof:
            low = text.lower() if low is None else low
            if not any(w in low for w in TABLE[i].anyof.split("|")):
                continue
            if len(low) != len(text):  # a few characters lowercase to two ("İ")
                low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
            for m in eng.rules[i][1].finditer(low):  # its words are lowercase
                judge(i, m)
            continue
        rule, pattern, _ = eng.rules[i]
        if rule == "private-key":
            from gardener.neverstore.keyblocks import key_blocks  # a BEGIN line: rare

            out += [(s, e, base + i, rule) for s, e in key_blocks(text, pattern)]
            continue
        for m in pattern.finditer(text):
            judge(i, m)
    for s, e in runs(text) if rules.run_rules else ():
        for i in rules.run_rules:  # run by run: both entropy rules judge the same run
            rule, pattern, _ = eng.rules[i]
            if rule == "base64-secret" and ctx.depth >= 2:
                continue  # bounds base64 inside base64
            for m in pattern.finditer(text, s, e):
                if rule != "base64-secret":
                    judge(i, m)
                    continue
                if tokens.public(text, m.start(), m.end()) or tokens.hexadecimal(
                    m.group()
                ):
                    continue  # a public id; a commit SHA or a UUID decodes to no text
                inner = _decoded(m.group())
                if inner is not None and _worth(inner, ctx.custom, eng):
                    deeper = Context(ctx.custom, ctx.allowed, ctx.depth + 1)
                    if spans_in(inner, deeper):
                        out.append((m.start(), m.end(), base + i, rule))
    return out


def per_line(text: str, rules: RuleGroup, ctx: Context) -> list[Candidate]:
    """``_per_line(text, rules, ctx)``, kept while a reading remembers
    (``passes.Remembering``): a note read whole, then line by line."""
    key = ("lines", ctx.custom, tuple(ctx.allowed), ctx.depth)
    return kept(key, text, rules, lambda: _per_line(text, rules, ctx))


def _per_line(text: str, rules: RuleGroup, ctx: Context) -> list[Candidate]:
    """``group_candidates`` for rules whose matches stay within a line (and look
    no further than it), run once per distinct line: repeats cost their copying."""
    lines = text.split("\n")
    distinct = dict.fromkeys(lines)
    if len(distinct) == len(lines):
        return group_candidates(text, rules, ctx)
    from bisect import bisect_right  # not at import: a note's line never needs it

    starts: list[int] = []
    pos = 0
    for line in distinct:
        starts.append(pos)
        pos += len(line) + 1
    keys = list(distinct)
    by_line: dict[str, list[Candidate]] = {}
    for s, e, p, r in group_candidates("\n".join(distinct), rules, ctx):
        k = bisect_right(starts, s) - 1
        by_line.setdefault(keys[k], []).append((s - starts[k], e - starts[k], p, r))
    out: list[Candidate] = []
    pos = 0
    for line in lines:
        found = by_line.get(line)
        if found:
            out += [(s + pos, e + pos, p, r) for s, e, p, r in found]
        pos += len(line) + 1
    return out


def candidates(text: str, ctx: Context) -> list[Candidate]:
    """Every rule's hits in ``text``: (start, end, priority, rule)."""
    out = [
        (*target(m), prio, rule)
        for prio, (rule, pattern) in enumerate(ctx.custom)
        for m in pattern.finditer(text)
    ]
    eng = engine()
    out += group_candidates(text, eng.whole, ctx)
    out += per_line(text, eng.lines, ctx)
    return [c for c in out if c[1] > c[0]]


def spans_in(text: str, ctx: Context) -> list[Found]:
    """(start, end, rule) of our rules' findings, then of detect-secrets' for
    what they missed, sorted (in a first reading and a second alike)."""
    spans = rule_spans(text, ctx)
    return sorted(spans + _second_opinion(text, spans, ctx.allowed))


def rule_spans(text: str, ctx: Context) -> list[Found]:
    """(start, end, rule) of every finding: the rules' candidates, minus markers and
    allowed matches, overlapping ones merged under the earliest rule."""
    cands = candidates(text, ctx)
    markers = (
        [m.span() for m in marker().finditer(text) if genuine(m.group(), ctx)]
        if "[REDACTED" in text
        else []
    )
    if markers:
        # read past a marker as if it were not there: in "password: [REDACTED:password]
        # Hunter2x" (a value written after a redaction, by hand or by an agent
        # copying a redacted line) the value is what follows the marker; only a
        # token with letters and digits counts there, since a redacted line's
        # own words ("[REDACTED:password] deploy friday") must stay as they are
        more = [c for c in candidates(_blanked(text, markers), ctx)
                if _TOKENISH.fullmatch(text, c[0], c[1])]  # fmt: skip
        cands = sorted({*cands, *more})
    if not cands:
        return []
    # One sweep in start order: drop candidates an allow match covers, and cut out
    # earlier markers (a redaction is never flagged again), keeping pieces that hold
    # a letter or digit.
    allow = sorted(m.span() for p in ctx.allowed for m in p.finditer(text) if m.group())
    kept: list[Candidate] = []
    i = j = 0
    reach = -1
    for s0, e0, prio, rule in sorted(cands):
        while j < len(allow) and allow[j][0] <= s0:
            reach, j = max(reach, allow[j][1]), j + 1
        if reach >= e0:
            continue
        while i < len(markers) and markers[i][1] <= s0:
            i += 1
        pieces, k = [(s0, e0)], i
        while k < len(markers) and markers[k][0] < e0:
            ms, me = markers[k]
            pieces = [q for s, e in pieces for q in ((s, min(e, ms)), (max(s, me), e))]
            pieces = [(s, e) for s, e in pieces if s < e]
            k += 1
        kept += [(s, e, prio, rule) for s, e in pieces if _ALNUM.search(text, s, e)]
    merged: list[Candidate] = []
    for s, e, p, r in sorted(kept):  # overlaps become one span; best rule names it
        if merged and s < merged[-1][1]:
            ls, le, lp, lr = merged[-1]
            merged[-1] = (ls, max(le, e), *((p, r) if p < lp else (lp, lr)))
        else:
            merged.append((s, e, p, r))
    return [(s, e, r) for s, e, _, r in merged]


def _blanked(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with each span turned into spaces (same offsets)."""
    parts, pos = [], 0
    for start, end in spans:
        parts += [text[pos:start], " " * (end - start)]
        pos = end
    return "".join([*parts, text[pos:]])


_ALNUM = lazy(r"[^\W_]")
_TOKENISH = lazy(r"(?=[^\s]*\d)(?=[^\s]*[^\W\d_])[^\s\[\]]{8,}")


def _second_opinion(
    text: str, spans: list[Found], allowed: Sequence[re.Pattern[str]]
) -> list[Found]:
    """Spans detect-secrets' plugins flag that our rules missed (see ``detectors``)."""
    from gardener.neverstore import detectors

    if not detectors.suspicious(text):  # most notes: no import, no cost
        return []
    from bisect import insort

    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    taken = sorted((a, b) for a, b, _ in spans)
    extra: list[Found] = []
    for line, kind, value in detectors.flagged(text):
        rule = "ds-" + re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")
        stop = starts[line] - 1 if line < len(starts) else len(text)
        s = text.find(value, starts[line - 1], stop)
        while s >= 0:  # detect-secrets reports a value once: redact every copy
            e = s + len(value)
            if _written_to_replace(text, s, e):
                s = text.find(value, e, stop)
                continue
            if not _overlaps(taken, s, e) and not any(
                m.start() <= s and e <= m.end()
                for p in allowed
                for m in p.finditer(text, 0, stop)
            ):
                extra.append((s, e, rule))
                insort(taken, (s, e))
            s = text.find(value, e, stop)
    return extra


def _written_to_replace(text: str, s: int, e: int) -> bool:
    """Whether the token around ``s:e`` is a placeholder or a public id (the
    rules' own findings skip them in ``group_candidates``)."""
    head = text[max(0, s - 64) : s]
    start = s - (len(head) - len(head.rstrip(_TOKEN_CHARS)))
    end = e + len(text[e : e + 256]) - len(text[e : e + 256].lstrip(_TOKEN_CHARS))
    return tokens.placeholder(text[start:end]) or tokens.public(text, start, end)


_TOKEN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+/=.-"


def _overlaps(taken: list[tuple[int, int]], s: int, e: int) -> bool:
    """True if [s, e) meets a span of ``taken``: disjoint spans sorted by start,
    so only the last one starting before ``e`` can reach into it."""
    from bisect import bisect_left

    k = bisect_left(taken, (e, -1))
    return k > 0 and taken[k - 1][1] > s
