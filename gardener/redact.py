"""Never-store detection (DESIGN.md section 4): find and redact what must not be kept.

Pure (stdlib ``re``, ``base64`` and ``math`` only). ``find(text)`` returns
``[Finding(rule, start, end, line), ...]``, sorted and non-overlapping, where
``text[start:end]`` is the secret value itself (``hunter2`` in ``password: hunter2``,
``pw`` in ``scheme://user:pw@host``). ``redact(text)`` returns ``(clean, findings)``
with each span replaced by ``[REDACTED:<rule>]``.

Rule ids: private-key, jwt, aws-access-key, github-token, gitlab-token, slack-webhook,
discord-webhook, slack-token, stripe-key, google-api-key, anthropic-key, openai-key,
npm-token, connection-string, bearer-token, auth-header, password, pin, secret, email,
card-number, base64-secret, high-entropy, and ``custom:<name>`` (rules.md).

Choices: a labelled value (``password: x``, ``the API key is x``, ``密码是x``) must not
be a placeholder (``see vault``, ``****``, ``${VAR}``, ``str``); a ``pin`` is 4-12
digits; a ``secret`` (token, API key, ...) needs >= 6 chars of two classes, so
``max_tokens: 4096`` passes; in prose an unquoted English-looking word (``is correct``)
is not a value. Cards start with 2-6 (the networks), which spares ISBNs. Hex runs (SHAs,
UUIDs, Ethereum addresses) are never high-entropy; wallet addresses are public and not
targeted, though a base58 Bitcoin address may trip high-entropy (erring to refuse).
Markers are never flagged again, so ``redact`` is idempotent. An allow pattern drops a
finding only when one of its matches covers the whole span.
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Span = tuple[int, int]
Compiled = tuple[tuple[str, re.Pattern[str]], ...]  # (rule id, pattern) pairs
Candidate = tuple[int, int, int, str]  # start, end, priority (lower wins), rule
Check = Callable[[str, "re.Match[str]"], "Span | None"]


@dataclass(frozen=True)
class Finding:
    """One never-store hit: ``text[start:end]`` is the value, ``line`` is 1-based."""

    rule: str
    start: int
    end: int
    line: int

    def describe(self) -> str:
        """``"<rule> (line <n>)"``: safe to print, it never includes the secret."""
        return f"{self.rule} (line {self.line})"


# --- value extraction for labelled secrets -------------------------------------

_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "«": "»", "「": "」"}
_TRAIL = ".,;:)]}>'\"`”’»」*"  # sentence/markup punctuation after a bare value
_NEXT_PARAM = re.compile(r"[;&][A-Za-z_][\w.-]*=")  # ;Database= or &user= ends it
_REF = re.compile(r"\$\{[^}]*\}?|\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%")
_TYPE = re.compile(r"[A-Za-z_][\w.]*\[[\w.,| \[\]]*\]?")  # Optional[str], list[str]
# A bare value: no space, at most 512 chars (bounds the work per label), and no CJK
# or fullwidth char, since CJK prose resumes right after it: 密码是abc，...
_BARE = (
    r"[^\s\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f"
    r"\uff00-\uff60\uffe0-\uffe6\U00020000-\U0003fffd]{1,512}"
)
_MASK = set("*xX•·.-_#?…")
# Words that sit where a value would but say where it is or what it is like.
_WORDS = """none null nil empty blank n/a na tbd todo unknown unset redacted hidden
    masked required optional see in at on from stored kept saved ask check via use
    using with without reset rotate rotated changed expired invalid valid wrong correct
    incorrect weak strong long short too not never always set the a an this that it its
    my your our their his her what which who where when how if and or but is are was be
    been must should will can could would may might only also still now here there
    below above same true false yes no off str string bytes int bool text any dict
    secretstr env environment vault keychain keyring 1password bitwarden lastpass
    manager case protected encrypted hashed managed shared known provided generated
    random different unchanged available missing password passwords passwd pass pwd
    secret token key xxx placeholder example sample dummy fake"""
_NOT_VALUES = frozenset(_WORDS.split())
_WORDY = ("ed", "ing", "ly", "ion", "ible", "able", "ive", "ful", "less", "ent", "ous")


def _classes(s: str) -> int:
    """How many of lower / upper / digit / symbol occur; ``Word`` counts as lower and
    ``-_./`` are not symbols, so identifiers and capitalised words score 1."""
    seen = {_kind(c) if i or not c.isupper() else 0 for i, c in enumerate(s)}
    return len(seen - {4})


def _kind(ch: str) -> int:
    """0 lower, 1 upper, 2 digit, 3 symbol, 4 separator or space."""
    if ch.isalpha():
        return 1 if ch.isupper() else 0
    return 2 if ch.isdigit() else 4 if ch in "-_./+=" or ch.isspace() else 3


def _value_at(text: str, pos: int) -> tuple[int, int, bool] | None:
    """(start, end, quoted) of the value that begins at ``pos``, or None."""
    if pos >= len(text):
        return None
    close = _QUOTES.get(text[pos])
    if close:
        end = text.find(close, pos + 1, pos + 514)
        if end > pos + 1 and "\n" not in text[pos + 1 : end]:
            return pos + 1, end, True
        pos += 1  # unbalanced quote: read what follows as a bare value
    bare = _LAZY["bare"].match(text, pos)
    if not bare:
        return None
    end = bare.end()
    cut = _NEXT_PARAM.search(text, pos, end)
    end = cut.start() if cut else end
    while end > pos and text[end - 1] in _TRAIL:
        end -= 1
    return (pos, end, False) if end > pos else None


def _plausible(value: str, family: str, prose: bool, quoted: bool) -> bool:
    """Whether ``value`` is a real secret rather than a placeholder or a word."""
    if value[0] in "([{<" or set(value) <= _MASK or value.lower() in _NOT_VALUES:
        return False
    if _REF.fullmatch(value) or _TYPE.fullmatch(value):
        return False  # ${DB_PASSWORD}, %TOKEN%, Optional[str]
    if family == "pin":
        return value.isdigit() and 4 <= len(value) <= 12
    if family == "secret":
        return len(value) >= 6 and _classes(value) >= 2
    if prose and not quoted and value.isalpha():
        return len(value) >= 4 and not value.lower().endswith(_WORDY)
    return True


def _labelled(family: str) -> Check:
    def check(text: str, m: re.Match[str]) -> Span | None:
        got = _value_at(text, m.end())
        if got is None:
            return None
        start, end, quoted = got
        prose = not any(c in ":=：" for c in m.group("sep"))
        ok = _plausible(text[start:end], family, prose, quoted)
        return (start, end) if ok else None

    return check


# A label is an identifier ending in the word (DB_PASSWORD, apiKey, PGPASSWORD), a
# phrase (mot de passe) or a CJK word; then maybe "for the NAS"; then ":"/"=" or a verb.
_PREP = r"for|of|to|on|at|für|von|vom|zum|zur|voor|van|pour|de|du|para|del|от|для|к"
_VERB = (
    r"(?:(?:is|was|has[ \t]+been)[ \t]+)?(?:changed|set|reset|updated)[ \t]+to"
    r"|(?:is|was)(?:[ \t]+(?:now|still))?|ist|lautet|war|est|était|es|era|это"
)
_LABEL = (
    r"(?:(?<![\w.-])(?:[A-Za-z0-9_.-]*?(?:(?<=[_.-])|(?<=[a-z0-9A-Z])(?=[A-Z])))?"
    r"(?i:%s)(?i:s)?(?!\w)[\"'`*]{0,2}|%s)"
    rf"(?:[ \t]+(?i:{_PREP})(?:[ \t]+[^\s:=：]+){{1,4}}?)?"
    rf"(?P<sep>[ \t]*(?::=|=>|[:=：])[*_]{{0,2}}[ \t]*|[ \t]+(?i:{_VERB})[ \t]+"
    r"|[ \t]*[—–][ \t]*|[ \t]*(?:是|为|為|は|는|은)[ \t]*)"
)
_PW = (  # a bare "pass" needs a prefix (DB_PASS), so "Pass: 42, Fail: 3" is no label
    r"pass[ _-]?phrase|pass[ _-]?code|passwords?|passwd|pwd|pw|(?<=[_.-])pass"
    r"|senha|has[łl]o"
    r"|contrase(?:ñ|n\u0303|n)a|mot[ \t]+de[ \t]+passe|passwort|kennwort|wachtwoord"
    r"|парол(?:ь|я|ю|ем|и|ей|е)"
)
_SECRET = (
    r"client[ _-]?secret|secret[ _-]?key|secret|api[ _-]?key|apikey|access[ _-]?key"
    r"|private[ _-]?key|signing[ _-]?key|encryption[ _-]?key|master[ _-]?key"
    r"|(?:auth|access|refresh|api)[ _-]?token|token|credentials?|токен\w{0,2}"
    r"|ключ\w{0,2}|schl(?:ü|u\u0308|ue)ssel|sleutel|cl(?:é|e\u0301)[ \t]+api|clave"
)


# --- checks for shaped secrets --------------------------------------------------


def _target(m: re.Match[str]) -> Span:
    return m.span("value") if "value" in m.re.groupindex else m.span()


def _mixed(length: int) -> Check:
    """Flag the value only if it has ``length`` chars of two classes (not a word)."""

    def check(text: str, m: re.Match[str]) -> Span | None:
        s, e = _target(m)
        return (s, e) if e - s >= length and _classes(text[s:e]) >= 2 else None

    return check


def _card(text: str, m: re.Match[str]) -> Span | None:
    """The longest leading run of groups that is 13-19 digits and Luhn-valid."""
    groups = re.split(r"[ -]", m.group())
    for n in range(len(groups), 0, -1):
        digits = "".join(groups[:n])
        if n > 1 and not all(4 <= len(g) <= 6 for g in groups[: n - 1]):
            continue
        odd = (int(d) * 2 for d in digits[-2::-2])  # Luhn: double every second digit
        luhn = sum(map(int, digits[::-2])) + sum(d - 9 if d > 9 else d for d in odd)
        if 13 <= len(digits) <= 19 and luhn % 10 == 0:
            return m.start(), m.start() + len(digits) + n - 1
    return None


def _email(text: str, m: re.Match[str]) -> Span | None:
    before = text[max(0, m.start() - 256) : m.start()]
    token = before.split()[-1] if before and not before[-1].isspace() else ""
    if "://" in token and "/" not in token.rsplit("://", 1)[1]:
        return None  # userinfo of a URL: connection-string's business
    if re.match(r":[\w~./-]", text[m.end() : m.end() + 2]):
        return None  # scp-style git remote, git@github.com:org/repo
    if re.match(r"\d+x\.", m.group("domain")):
        return None  # retina asset name, logo@2x.png
    return m.span()


def _url_password(text: str, m: re.Match[str]) -> Span | None:
    return (
        m.span("value")
        if _plausible(m.group("value"), "password", False, False)
        else None
    )


_HEX = frozenset("0123456789abcdefABCDEF-")


def _random_looking(s: str) -> bool:
    """Long, mixed-class, close to random in entropy and in class switches.

    Calibrated on random base64/alphanumeric strings (>= 95% flagged at 24 chars) and
    generated camelCase/snake_case identifiers with numbers (< 1% flagged).
    """
    body = s.rstrip("=")
    n = len(body)
    if n < 24 or set(body) <= _HEX:
        return False  # hex never: commit SHAs, UUIDs, digests
    if sum(body.count(c) for c in "-_/") > n / 10 + 1:
        return False  # snake_case, kebab-case and paths separate words often
    kinds = [_kind(c) for c in body if c not in "-_/+"]
    lower, upper, digit = (k in kinds for k in (0, 1, 2))
    if not digit or not (lower or upper):
        return False  # letters-only runs are words; digits-only runs are numbers
    counts: dict[str, int] = {}
    for ch in body:
        counts[ch] = counts.get(ch, 0) + 1
    entropy = -sum(c / n * math.log2(c / n) for c in counts.values())
    ratio = entropy / math.log2(min(n, 26 * lower + 26 * upper + 14))
    # Words change character class every few letters, random text every other one.
    switches = sum(a != b for a, b in zip(kinds, kinds[1:], strict=False)) / len(kinds)
    if lower and upper:
        return ratio >= 0.8 and switches >= 0.4
    return ratio >= 0.78 and switches >= 0.25


def _high_entropy(text: str, m: re.Match[str]) -> Span | None:
    run = m.group()
    if run.count("/") > max(1, len(run) // 24):
        return None  # a path or URL; the second rule judges its segments alone
    return m.span() if _random_looking(run) else None


# --- the rule table: (rule id, regex); earlier rules win where spans overlap ------

_L = r"(?a)(?<![\w-])"  # ASCII, and not inside a longer token
_B64 = r"(?a)(?<![\w+/-])[\w+/-]{%d,}={0,2}(?![\w+/=-])"
_TABLE: tuple[tuple[str, str], ...] = (
    # A key block runs to its END line or, without one, to the next blank line.
    (
        "private-key",
        r"(?s)-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:.*?-----END[ A-Z0-9]*"
        r"PRIVATE KEY(?: BLOCK)?-----|(?:[ \t]*\r?\n[ \t]*\S[^\n]*)*)",
    ),
    ("jwt", _L + r"eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*(?![\w-])"),
    ("aws-access-key", r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b"),
    ("github-token", _L + r"(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,})"),
    ("gitlab-token", _L + r"glpat-[\w-]{20,}"),
    ("slack-webhook", r"(?a)hooks\.slack\.com/\w+/[\w/-]{12,}"),
    ("discord-webhook", r"(?a)discord(?:app)?\.com/api/webhooks/\d+/[\w-]{20,}"),
    ("slack-token", _L + r"xox[abprs]-[A-Za-z0-9-]{10,}"),
    ("stripe-key", _L + r"[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    ("google-api-key", _L + r"AIza[\w-]{35}(?![\w-])"),
    ("anthropic-key", _L + r"sk-ant-[\w-]{20,}"),
    ("openai-key", _L + r"sk-(?:proj-|svcacct-|admin-)?(?P<value>[\w-]{20,})"),
    ("npm-token", _L + r"npm_[A-Za-z0-9]{36}\b"),
    (
        "connection-string",
        r"(?a)\b[A-Za-z][\w+.-]{0,20}://[^\s:/@]*:(?P<value>[^\s@/]+)@\w",
    ),
    ("bearer-token", _L + r"[Bb]earer[ \t]+(?P<value>[\w.~+/-]+=*)"),
    (
        "auth-header",
        r"(?ai)authorization[ \t]*[:=][ \t]*(?:(?:basic|token|digest)[ \t]+)?"
        r"(?P<value>[\w.~+/-]+=*)",
    ),
    ("password", _LABEL % (_PW, "密码|密碼|口令|パスワード|비밀번호|암호")),
    ("pin", _LABEL % (r"pin[ _-]?(?:code|number)?|пин(?:-код)?", "暗証番号")),
    ("secret", _LABEL % (_SECRET, "令牌|密钥|密鑰|トークン|토큰")),
    (
        "email",
        r"(?a)(?<![\w.%+-])[A-Za-z0-9][\w.%+-]{0,63}"
        r"@(?P<domain>(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24})(?![\w-])",
    ),
    # 13-19 digits in groups split by one kind of separator; _card picks the run.
    (
        "card-number",
        r"(?a)(?<![\w.,+-])[2-6]\d{3}"
        r"(?:(?P<sep>[ -])\d{2,6}(?:(?P=sep)\d{1,6}){1,4}|\d{9,15})(?!\w|-\d)",
    ),
    ("base64-secret", _B64 % 20),  # decoded and rescanned in _scan
    ("high-entropy", _B64 % 24),
    # Without "/", so a random segment of a path or URL is judged on its own.
    ("high-entropy", r"(?a)(?<![\w+-])[\w+-]{24,}={0,2}(?![\w+=-])"),
)
_CHECKS: dict[str, Check] = {
    "openai-key": _mixed(20),
    "connection-string": _url_password,
    "bearer-token": _mixed(16),
    "auth-header": _mixed(8),
    "password": _labelled("password"),
    "pin": _labelled("pin"),
    "secret": _labelled("secret"),
    "email": _email,
    "card-number": _card,
    "high-entropy": _high_entropy,
}
_COMPILED: list[tuple[str, re.Pattern[str]]] = []
_LAZY: dict[str, re.Pattern[str]] = {}  # the marker and _BARE
_ALNUM = re.compile(r"[^\W_]")


def _rules() -> list[tuple[str, re.Pattern[str]]]:
    """The table, compiled on first use: that costs ~15 ms and importing must not."""
    if not _COMPILED:
        ids = "|".join(sorted({rule for rule, _ in _TABLE}, key=len, reverse=True))
        _LAZY["marker"] = re.compile(
            rf"\[REDACTED:(?:custom:[^\[\]\n]{{1,64}}|{ids})\]"
        )
        _LAZY["bare"] = re.compile(_BARE)
        _COMPILED.extend((rule, re.compile(p)) for rule, p in _TABLE)
    return _COMPILED


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
    try:
        out = base64.b64decode(body + "=" * (-len(body) % 4), validate=True).decode()
    except ValueError:  # binascii.Error and UnicodeDecodeError both are
        return None
    ok = out.strip() and all(c.isprintable() or c in "\n\r\t" for c in out)
    return out if ok else None


def _scan(
    text: str,
    custom: Compiled,
    allowed: Sequence[re.Pattern[str]],
    depth: int,
) -> list[tuple[int, int, str]]:
    """(start, end, rule) of every finding: the table's candidates, minus markers and
    allowed matches, overlapping ones merged under the earliest rule."""
    cands: list[Candidate] = []
    for prio, (rule, pattern) in enumerate([*custom, *_rules()]):
        if rule == "base64-secret" and depth >= 2:
            continue  # bounds base64 inside base64
        check = _CHECKS.get(rule)
        for m in pattern.finditer(text):
            if rule == "base64-secret":
                inner = _decoded(m.group())
                wraps = inner is not None and _scan(inner, custom, allowed, depth + 1)
                span = m.span() if wraps else None
            else:
                span = check(text, m) if check else _target(m)
            if span and span[1] > span[0]:
                cands.append((span[0], span[1], prio, rule))
    # One sweep in start order: drop candidates an allow match covers, and cut out
    # earlier markers (a redaction is never flagged again), keeping pieces that hold
    # a letter or digit.
    markers = [m.span() for m in _LAZY["marker"].finditer(text)]
    allow = sorted(m.span() for p in allowed for m in p.finditer(text) if m.group())
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
    spans = _scan(text, custom, allowed, 0)
    # A marker can complete a neighbour's shape (it ends a run that went on before);
    # rescan the redacted text until nothing new appears, mapping hits back here.
    for _ in range(8):
        if not spans:
            break
        clean, shifts = _apply(text, spans)
        more = _scan(clean, custom, allowed, 0)
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


def _apply(text: str, spans: list[tuple[int, int, str]]) -> tuple[str, list[Span]]:
    """``text`` with markers for ``spans``; (marker end, shift so far) per marker."""
    parts, shifts, pos, shift = [], [], 0, 0
    for s, e, r in spans:
        marker = f"[REDACTED:{r}]"
        parts += [text[pos:s], marker]
        shift += len(marker) - (e - s)
        shifts.append((e + shift, shift))
        pos = e
    return "".join(parts) + text[pos:], shifts


def redact(
    text: str, extra: Sequence[tuple[str, str]] = (), allow: Sequence[str] = ()
) -> tuple[str, list[Finding]]:
    """``(text with each finding's span replaced by "[REDACTED:<rule>]", findings)``.

    Idempotent: markers are never flagged, and ``find`` already includes whatever a
    marker would newly expose, so redacting the result changes and finds nothing.
    """
    found = find(text, extra, allow)
    return _apply(text, [(f.start, f.end, f.rule) for f in found])[0], found
