"""Never-store detection (DESIGN.md section 4): find and redact what must not be kept.

Our rules need the stdlib only. ``find(text)`` returns
``[Finding(rule, start, end, line), ...]``, sorted and non-overlapping, where
``text[start:end]`` is the secret value itself (``hunter2`` in ``password: hunter2``,
``pw`` in ``scheme://user:pw@host``). ``redact(text)`` returns ``(clean, findings)``
with each span replaced by ``[REDACTED:<rule>]``.

The rules themselves (labels in ten languages, token formats, shape checks)
are in ``gardener.neverstore.rules``.

Speed: our rules are linear and read a megabyte in well under a second. Labels are
matched only where a label word starts (one scan of the lowercased text), base64 and
entropy rules only inside runs of 20+ base64 characters, token rules search for their
literal prefix, a distinct line is scanned once (its repeats get copies), and after
redacting only the text near a marker between other characters than spaces and quotes
is rescanned.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Sequence

from gardener.model.record import Record
from gardener.neverstore.rules import BOUND, TABLE, Check, Span, lazy, target

Compiled = tuple[tuple[str, re.Pattern[str]], ...]  # (rule id, pattern) pairs
Candidate = tuple[int, int, int, str]  # start, end, priority (lower wins), rule


class Finding(Record):
    """One never-store hit: ``text[start:end]`` is the value, ``line`` is 1-based."""

    rule: str
    start: int
    end: int
    line: int

    def describe(self) -> str:
        """``"<rule> (line <n>)"``: safe to print, it never includes the secret."""
        return f"{self.rule} (line {self.line})"


# --- scanning ----------------------------------------------------------------------

_Node = dict[str, "_Node"]


def _trie(words: Iterable[str]) -> str:
    """A regex for any of ``words``, longest first, shaped as a trie: the engine
    picks a branch by its first character, so a miss costs one comparison."""
    root: _Node = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: _Node) -> str:
        alts = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else f"(?:{'|'.join(alts)})"
        return f"(?:{body})?" if "" in node else body

    return emit(root)


class _Pass(Record):
    """The rules of one pass: searched in the text (``text_rules``), in its base64
    runs (``run_rules``), or matched where a word of theirs starts (``route``)."""

    text_rules: tuple[int, ...]
    run_rules: tuple[int, ...]
    route: dict[str, tuple[int, ...]]  # word -> rules to match where it starts
    # regex sources, compiled on first use (~10 ms for all three of both passes,
    # which a short text with none of their words never needs)
    words: str | None  # a word after a non-alphanumeric (lowercased)
    camel: str | None  # a word at a camelCase hump (dbPassword)
    cjk: str | None  # a CJK word, anywhere
    latin: tuple[str, ...]  # the words of ``words``
    humped: tuple[str, ...]  # the words of ``camel``


class _Rules:
    """The table's rules as (rule, compiled pattern, check), each compiled when
    first used: the worded rules (password, secret, pin...) cost most of the
    compile time, and a line with none of their words never needs them."""

    def __init__(self) -> None:
        self._compiled: dict[int, tuple[str, re.Pattern[str], Check | None]] = {}

    def __getitem__(self, i: int) -> tuple[str, re.Pattern[str], Check | None]:
        got = self._compiled.get(i)
        if got is None:
            r = TABLE[i]
            got = self._compiled[i] = (r.rule, re.compile(r.pattern), r.check)
        return got


class _Engine(Record):
    rules: _Rules
    whole: _Pass  # rules whose matches may span lines, run on the whole text
    lines: _Pass  # the rest, run once per distinct line


def _pass(indices: Sequence[int]) -> _Pass:
    owners: dict[str, set[int]] = {}
    camel: set[str] = set()
    cjk: set[str] = set()
    for i in indices:
        r = TABLE[i]
        west, _, east = r.words.partition("|")
        for word in west.split():
            owners.setdefault(word, set()).add(i)
            if BOUND in r.pattern and word.isascii() and word[0].isalpha():
                camel.add(word)
        for word in filter(None, (w.strip() for w in east.split("|"))):
            owners.setdefault(word, set()).add(i)
            cjk.add(word)
    latin = [w for w in owners if w not in cjk]
    # A hit on "authorization" must also try the rules of "auth": route by prefix.
    route = {
        w: tuple(
            sorted({i for h, ids in owners.items() if w.startswith(h) for i in ids})
        )
        for w in owners
    }
    humps: dict[str, list[str]] = {}
    for word in camel:
        humps.setdefault(word[0].upper(), []).append(word[1:])
    hump = "|".join(f"(?<={c})(?i:{_trie(rest)})" for c, rest in sorted(humps.items()))
    return _Pass(
        text_rules=tuple(
            i for i in indices if not TABLE[i].words and not TABLE[i].runs
        ),
        run_rules=tuple(i for i in indices if TABLE[i].runs),
        route=route,
        words=rf"[\W_]({_trie(latin)})" if latin else None,
        camel=rf"[{''.join(humps)}](?<=[A-Za-z0-9].)(?:{hump})" if humps else None,
        cjk="|".join(sorted(cjk, key=len, reverse=True)) if cjk else None,
        latin=tuple(latin),
        humped=tuple(sorted(camel)),
    )


_ENGINE: list[_Engine] = []


def _engine() -> _Engine:
    """The table, compiled on first use: that costs ~20 ms and importing must not."""
    if not _ENGINE:
        _ENGINE.append(
            _Engine(
                rules=_Rules(),
                whole=_pass([i for i, r in enumerate(TABLE) if not r.lines]),
                lines=_pass([i for i, r in enumerate(TABLE) if r.lines]),
            )
        )
    return _ENGINE[0]


@functools.cache
def _marker() -> re.Pattern[str]:
    """A redaction marker, ``[REDACTED]`` or ``[REDACTED:<rule>]``: compiled
    only when a scan has candidates to check against markers (~2 ms)."""
    ids = "|".join(sorted({r.rule for r in TABLE}, key=len, reverse=True))
    body = rf"custom:[^\[\]\n]{{1,64}}|{ids}|[A-Za-z][A-Za-z_ -]{{0,39}}"
    return re.compile(rf"\[REDACTED(?::(?:{body}))?\]")


def _hits(text: str, rules: _Pass) -> list[tuple[int, str]]:
    """(position, word) wherever a word of ``rules`` starts, in order."""
    hits: list[tuple[int, str]] = []
    low = text.lower()
    if len(low) != len(text):  # a few characters lowercase to two ("İ")
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    # A short text holding none of a regex's words skips it, and so the cost of
    # compiling it. (The camel regex matches case-insensitively, which outside
    # ASCII also pairs "ſ" with "s": there no word is ruled out.)
    short = len(text) <= _PREFILTER
    if rules.words and not (short and not _any_in(rules.latin, low)):
        # After "\n", the match of "[\W_]word" starts where the word does in text.
        words = _regex(rules.words).finditer("\n" + low)
        hits += [(m.start(), m.group(1)) for m in words]
    if rules.camel and not (
        short and text.isascii() and not _any_in(rules.humped, low)
    ):
        for m in _regex(rules.camel).finditer(text):
            word = m.group().lower()
            if word not in rules.route:  # matched through a fold outside ASCII
                word = _folded(m.group(), rules.humped)
            hits.append((m.start(), word))
    if rules.cjk and not text.isascii():
        hits += [(m.start(), m.group()) for m in _regex(rules.cjk).finditer(text)]
    return sorted(hits)


_PREFILTER = 4096  # characters: up to here, looking for each word costs < 0.1 ms


def _folded(found: str, words: tuple[str, ...]) -> str:
    """The word of ``words`` that ``found`` matches case-insensitively, as the
    camel regex did: "Paſſ" is "pass" ("ſ" folds to "s"), yet lowercases to itself."""
    return next(w for w in words if re.fullmatch(re.escape(w), found, re.IGNORECASE))


def _any_in(words: tuple[str, ...], text: str) -> bool:
    return any(word in text for word in words)


@functools.cache
def _regex(source: str) -> re.Pattern[str]:
    return re.compile(source)


_RUN_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=-"
_RUN_MAP = bytes(0x61 if i in _RUN_CHARS else 0x20 for i in range(256))
_RUN = b"a" * 20  # the shortest run the base64 and entropy rules can match


def _runs(text: str) -> list[Span]:
    """The maximal runs of 20+ ASCII ``[\\w+/=-]`` characters. The run rules match
    only such characters and look around with them only, so a run is all they see."""
    flat = text.encode("ascii", "replace").translate(_RUN_MAP)
    out = []
    start = flat.find(_RUN)
    while start >= 0:
        end = flat.find(b" ", start)
        end = len(flat) if end < 0 else end
        out.append((start, end))
        start = flat.find(_RUN, end)
    return out


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


def _key_blocks(text: str, begin: re.Pattern[str]) -> Iterator[Span]:
    """Each BEGIN line through its key: the lines after it that hold a key's
    body (base64, maybe in groups or behind a quote or list marker; known PEM
    headers first, and the blank lines between), up to and including an END
    line. A line that is not key material ends the block without an END: a
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
    """Where the key whose BEGIN line ends at ``pos`` ends (see ``_key_blocks``)."""
    eol = text.find("\n", pos)
    eol = len(text) if eol < 0 else eol
    same = _KEY_END.search(text, pos, eol)  # a key pasted on one line
    if same:
        return same.end()
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


_WORTH = lazy(  # a separator, digits, or a 15+ run with a capital or digit
    r"(?a)[:=@|：—–是为為は는은]|\d{4}|--"
    r"|(?<![\w+/=.-])(?=[\w+/=.-]{15})[a-z_+/=.-]*[A-Z0-9]"
)


def _worth(inner: str, custom: Compiled, eng: _Engine) -> bool:
    """Whether decoded base64 could hold a finding (most decoded runs cannot)."""
    if custom or not inner.isascii() or _WORTH.search(inner):
        return True
    words = eng.lines.words
    return words is not None and _regex(words).search("\n" + inner.lower()) is not None


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
    lines = text.split("\n")
    held = set(committed.split("\n"))
    fresh = [i for i, line in enumerate(lines) if line not in held]
    if all(lines[i] in scanned for i in fresh):
        return ""
    keep: set[int] = set()
    for i in fresh:
        keep.update(range(max(0, i - context), i + 1))
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


class _Context(Record):
    custom: Compiled
    allowed: Sequence[re.Pattern[str]]
    depth: int  # how deep in base64 this text is


def _run_pass(text: str, rules: _Pass, ctx: _Context) -> list[Candidate]:
    """The candidates of one pass's rules in ``text``: (start, end, priority, rule)."""
    eng = _engine()
    base = len(ctx.custom)
    out: list[Candidate] = []

    def judge(i: int, m: re.Match[str]) -> None:
        rule, _, check = eng.rules[i]
        span = check(text, m) if check else target(m)
        if span and span[1] > span[0]:
            out.append((span[0], span[1], base + i, rule))

    # A label whose value would start inside the value of the same rule's last hit
    # is part of that value (password:password:...): judging it again only costs.
    claimed: dict[int, int] = {}
    for pos, word in _hits(text, rules):
        for i in rules.route[word]:
            m = eng.rules[i][1].match(text, pos)
            if m and m.end() >= claimed.get(i, 0):
                judge(i, m)
                if out and out[-1][2] == base + i:
                    claimed[i] = out[-1][1]
    for i in rules.text_rules:
        if TABLE[i].need not in text:
            continue  # before compiling: most rules never have to be
        rule, pattern, _ = eng.rules[i]
        if rule == "private-key":
            out += [(s, e, base + i, rule) for s, e in _key_blocks(text, pattern)]
            continue
        for m in pattern.finditer(text):
            judge(i, m)
    for s, e in _runs(text) if rules.run_rules else ():
        for i in rules.run_rules:  # run by run: both entropy rules judge the same run
            rule, pattern, _ = eng.rules[i]
            if rule == "base64-secret" and ctx.depth >= 2:
                continue  # bounds base64 inside base64
            for m in pattern.finditer(text, s, e):
                if rule != "base64-secret":
                    judge(i, m)
                    continue
                inner = _decoded(m.group())
                if inner is not None and _worth(inner, ctx.custom, eng):
                    deeper = _Context(ctx.custom, ctx.allowed, ctx.depth + 1)
                    if _scan(inner, deeper):
                        out.append((m.start(), m.end(), base + i, rule))
    return out


def _per_line(text: str, rules: _Pass, ctx: _Context) -> list[Candidate]:
    """``_run_pass`` for rules whose matches stay within a line (and look no further
    than it), run once per distinct line: repeated lines cost their copying only."""
    lines = text.split("\n")
    distinct = dict.fromkeys(lines)
    if len(distinct) == len(lines):
        return _run_pass(text, rules, ctx)
    from bisect import bisect_right  # not at import: a note's line never needs it

    starts: list[int] = []
    pos = 0
    for line in distinct:
        starts.append(pos)
        pos += len(line) + 1
    keys = list(distinct)
    by_line: dict[str, list[Candidate]] = {}
    for s, e, p, r in _run_pass("\n".join(distinct), rules, ctx):
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


def _candidates(text: str, ctx: _Context) -> list[Candidate]:
    """Every rule's hits in ``text``: (start, end, priority, rule)."""
    out = [
        (*target(m), prio, rule)
        for prio, (rule, pattern) in enumerate(ctx.custom)
        for m in pattern.finditer(text)
    ]
    eng = _engine()
    out += _run_pass(text, eng.whole, ctx)
    out += _per_line(text, eng.lines, ctx)
    return [c for c in out if c[1] > c[0]]


def _scan(text: str, ctx: _Context) -> list[tuple[int, int, str]]:
    """Our rules' spans, then detect-secrets' for what they missed (first scans and rescans alike)."""
    spans = _scan_rules(text, ctx)
    return sorted(spans + _second_opinion(text, spans, ctx.allowed))


def _scan_rules(text: str, ctx: _Context) -> list[tuple[int, int, str]]:
    """(start, end, rule) of every finding: the rules' candidates, minus markers and
    allowed matches, overlapping ones merged under the earliest rule."""
    cands = _candidates(text, ctx)
    if not cands:
        return []
    # One sweep in start order: drop candidates an allow match covers, and cut out
    # earlier markers (a redaction is never flagged again), keeping pieces that hold
    # a letter or digit.
    markers = [m.span() for m in _marker().finditer(text)]
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


_ALNUM = lazy(r"[^\W_]")
_NEAR = 2048  # after redacting, rescan this much text either side of a marker


def _quiet(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` has a space, a quote or the text's edge on both
    sides. Replaced by a marker, it then changes nothing the built-in rules see
    around it (they look past a space or quote only for labels, whose values start
    after one), so the text around it needs no rescan."""
    left = start == 0 or text[start - 1].isspace() or text[start - 1] in "\"'`"
    return left and (end == len(text) or text[end].isspace() or text[end] in "\"'`")


def _all_quiet(text: str, spans: list[tuple[int, int, str]]) -> bool:
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
    ctx = _Context(custom, allowed, 0)
    spans = _scan(text, ctx)
    # A marker can complete a neighbour's shape (it ends a run that went on before);
    # rescan the redacted text near the markers until nothing new appears, mapping
    # hits back here. Elsewhere the redacted text is this text, already scanned.
    # Custom and allow patterns can see anything, so then every marker is rescanned.
    plain = not custom and not allowed
    for _ in range(8):
        if not spans or (plain and _all_quiet(text, spans)):
            break
        clean, shifts, marks = _apply(text, spans)
        loud = [(s, e) for s, e in marks if not (plain and _quiet(clean, s, e))]
        more = [
            (s + lo, e + lo, r)
            for lo, hi in _windows(clean, loud)
            for s, e, r in _scan(clean[lo:hi], ctx)
        ]
        if not more:
            break
        k, shift = 0, 0
        for s, e, r in more:  # all outside markers, so s and e shift alike
            while k < len(shifts) and shifts[k][0] <= s:
                shift, k = shifts[k][1], k + 1
            spans.append((s - shift, e - shift, r))
        spans.sort()
    found, line, pos = [], 1, 0
    for s, e, r in spans:
        line += text.count("\n", pos, s)
        pos = s
        found.append(Finding(r, s, e, line))
    return found


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
    ctx = _Context(custom, allowed, 0)
    eng = _engine()
    joined = "\n".join(texts)
    starts: list[int] = []
    pos = 0
    for text in texts:
        starts.append(pos)
        pos += len(text) + 1
    hits = [s for s, e, _, _ in _run_pass(joined, eng.lines, ctx) if e > s]
    hits += [s for s, _ in _hits(joined, eng.whole)]
    for i in eng.whole.text_rules:
        need = TABLE[i].need
        if not need:  # no literal to look for: every text may match
            return [find(text, extra, allow) for text in texts]
        at = joined.find(need)
        while at >= 0:
            hits.append(at)
            at = joined.find(need, at + 1)
    if eng.whole.run_rules:
        hits += [s for s, _ in _runs(joined)]
    suspect = {bisect_right(starts, at) - 1 for at in hits}
    out: list[list[Finding]] = []
    for n, text in enumerate(texts):
        clean = (
            n not in suspect
            and not detectors.suspicious(text)
            and not any(p.search(text) for _, p in custom)
        )
        out.append([] if clean else find(text, extra, allow))
    return out


def _second_opinion(
    text: str, spans: list[tuple[int, int, str]], allowed: Sequence[re.Pattern[str]]
) -> list[tuple[int, int, str]]:
    """Spans detect-secrets' plugins flag that our rules missed (see ``detectors``)."""
    from gardener.neverstore import detectors

    if not detectors.suspicious(text):  # most notes: no import, no cost
        return []
    from bisect import insort

    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    taken = sorted((a, b) for a, b, _ in spans)
    extra: list[tuple[int, int, str]] = []
    for line, kind, value in detectors.scan(text):
        rule = "ds-" + re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")
        stop = starts[line] - 1 if line < len(starts) else len(text)
        s = text.find(value, starts[line - 1], stop)
        while s >= 0:  # detect-secrets reports a value once: redact every copy
            e = s + len(value)
            if not _overlaps(taken, s, e) and not any(
                m.start() <= s and e <= m.end()
                for p in allowed
                for m in p.finditer(text, 0, stop)
            ):
                extra.append((s, e, rule))
                insort(taken, (s, e))
            s = text.find(value, e, stop)
    return extra


def _overlaps(taken: list[tuple[int, int]], s: int, e: int) -> bool:
    """True if [s, e) meets a span of ``taken``: disjoint spans sorted by start,
    so only the last one starting before ``e`` can reach into it."""
    from bisect import bisect_left

    k = bisect_left(taken, (e, -1))
    return k > 0 and taken[k - 1][1] > s


def _apply(
    text: str, spans: list[tuple[int, int, str]]
) -> tuple[str, list[Span], list[Span]]:
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


def redact(
    text: str, extra: Sequence[tuple[str, str]] = (), allow: Sequence[str] = ()
) -> tuple[str, list[Finding]]:
    """``(text with each finding's span replaced by "[REDACTED:<rule>]", findings)``.

    Idempotent: markers are never flagged, ``find`` already includes whatever a
    marker would newly expose to our rules, and what it would expose to
    detect-secrets is redacted in up to three more rounds.
    """
    found = find(text, extra, allow)
    clean = _apply(text, [(f.start, f.end, f.rule) for f in found])[0]
    # detect-secrets' plugins are not marker-aware: a marker can complete a shape
    # they match (a UUID run into a label). Settle it here; the extra findings
    # carry offsets into the partly redacted text, their lines are the same.
    for _ in range(3):
        more = find(clean, extra, allow)
        if not more:
            break
        clean = _apply(clean, [(f.start, f.end, f.rule) for f in more])[0]
        found = found + more
    return clean, found
