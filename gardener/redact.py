"""Never-store detection (DESIGN.md section 4): find and redact what must not be kept.

Pure: stdlib ``re``, ``base64``, ``math`` and ``unicodedata`` only, no I/O.

``find(text)`` returns ``[Finding(rule, start, end, line), ...]``, sorted by ``start``
and non-overlapping; ``text[start:end]`` is the secret value itself (for
``password: hunter2`` only ``hunter2``, for ``scheme://user:pw@host`` only ``pw``).
``redact(text)`` returns ``(clean_text, findings)`` with each span replaced by
``[REDACTED:<rule>]``.

Rule ids: private-key, jwt, aws-access-key, github-token, gitlab-token,
slack-webhook, discord-webhook, slack-token, stripe-key, google-api-key,
anthropic-key, openai-key, npm-token, connection-string, bearer-token, auth-header,
password, pin, secret, email, card-number, base64-secret, high-entropy, and
``custom:<name>`` for rules.md patterns.

Choices:
- Labelled values (``password: x``, ``the API key is x``, ``密码是x``) are families:
  ``password`` takes any value that is not a placeholder; ``pin`` takes 4-12 digits;
  ``secret`` (token, API key, secret, credentials, ...) needs >= 6 chars of two
  character classes, so ``max_tokens: 4096`` or ``token_type: bearer`` pass.
- In prose (``my password is x``) an unquoted English-looking word (``is correct``,
  ``is stored``) is not a value; ``is swordfish`` still is.
- Card numbers must start with 2-6 (the card networks), which also spares ISBNs.
- Hex runs (commit SHAs, UUIDs, Ethereum addresses) are never high-entropy. Wallet
  addresses are public, so no rule targets them; a base58 Bitcoin address may still
  trip high-entropy, which errs on the side of refusing.
- An existing ``[REDACTED:<rule>]`` marker is never flagged again; that is what makes
  ``redact`` idempotent.
- An allow pattern drops a finding only when one of its matches covers the whole span.
"""

from __future__ import annotations

import base64
import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Span = tuple[int, int]
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
_BARE = re.compile(r"\S+")
_REF = re.compile(r"\$\{[^}]*\}?|\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%")
_TYPE = re.compile(r"[A-Za-z_][\w.]*\[[\w.,| \[\]]*\]?")  # Optional[str], list[str]
_MASK = set("*xX•·.-_#?…")
# Words that sit where a value would but say where it is or what it is like.
_NOT_VALUES = frozenset(
    """none null nil empty blank n/a na tbd todo unknown unset redacted hidden masked
    required optional see in at on from stored kept saved ask check via use using with
    without reset rotate rotated changed expired invalid valid wrong correct incorrect
    weak strong long short too not never always set the a an this that it its my your
    our their his her what which who where when how if and or but is are was be been
    must should will can could would may might only also still now here there below
    above same true false yes no off str string bytes int bool text any dict secretstr
    env environment vault keychain keyring 1password bitwarden lastpass manager case
    protected encrypted hashed managed shared known provided generated random different
    unchanged available missing password passwords passwd pass pwd secret token key
    xxx placeholder example sample dummy fake""".split()
)
_WORDY = ("ed", "ing", "ly", "ion", "ible", "able", "ive", "ful", "less", "ent", "ous")


def _classes(s: str, capital_is_lower: bool = True) -> int:
    """How many of lower / upper / digit / symbol occur (``-_./`` are not symbols)."""
    lower = upper = digit = other = False
    for i, ch in enumerate(s):
        if ch.isdigit():
            digit = True
        elif ch.isupper():
            if i or not capital_is_lower:
                upper = True
            else:
                lower = True
        elif ch.isalpha():
            lower = True
        elif ch not in "-_./" and not ch.isspace():
            other = True
    return lower + upper + digit + other


def _value_at(text: str, pos: int) -> tuple[int, int, bool] | None:
    """(start, end, quoted) of the value that begins at ``pos``, or None."""
    if pos >= len(text):
        return None
    close = _QUOTES.get(text[pos])
    if close:
        end = text.find(close, pos + 1)
        if end > pos + 1 and "\n" not in text[pos + 1 : end]:
            return pos + 1, end, True
        pos += 1  # unbalanced quote: read what follows as a bare value
    m = _BARE.match(text, pos)
    if not m:
        return None
    end = pos
    for ch in m.group():  # CJK prose resumes right after the value (密码是abc，...)
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            break
        end += 1
    cut = _NEXT_PARAM.search(text, pos, end)
    if cut:
        end = cut.start()
    while end > pos and text[end - 1] in _TRAIL:
        end -= 1
    return (pos, end, False) if end > pos else None


def _plausible(
    value: str, family: str, prose: bool = False, quoted: bool = False
) -> bool:
    """Whether ``value`` is a real secret rather than a placeholder or a word."""
    low = value.lower()
    if value[0] in "([{<" or set(value) <= _MASK:
        return False
    if _REF.fullmatch(value) or _TYPE.fullmatch(value):
        return False
    if low in _NOT_VALUES:
        return False
    if family == "pin":
        return value.isdigit() and 4 <= len(value) <= 12
    if family == "secret":
        return len(value) >= 6 and _classes(value) >= 2
    if prose and not quoted and value.isalpha():
        return len(value) >= 4 and not low.endswith(_WORDY)
    return True


def _labelled(family: str) -> Check:
    def check(text: str, m: re.Match[str]) -> Span | None:
        got = _value_at(text, m.end())
        if got is None:
            return None
        start, end, quoted = got
        prose = not any(c in ":=：" for c in m.group("sep"))
        return (
            (start, end) if _plausible(text[start:end], family, prose, quoted) else None
        )

    return check


# Latin-script labels: an identifier ending in the core word (DB_PASSWORD, apiKey)
# or a phrase, an optional "for the NAS" phrase, then ":"/"=" or a verb ("is").
_PREP = r"for|of|to|on|at|für|von|vom|zum|zur|voor|van|pour|de|du|para|del|от|для|к"
_VERB = (
    r"(?:(?:is|was|has[ \t]+been)[ \t]+)?(?:changed|set|reset|updated)[ \t]+to"
    r"|(?:is|was)(?:[ \t]+(?:now|still))?|ist|lautet|war|est|était|es|era|это"
)
_LATIN = (
    r"(?<![\w.-])(?:[A-Za-z0-9_.-]*?(?:(?<=[_.-])|(?<=[a-z0-9])(?=[A-Z])))?"
    r"(?i:{cores})(?i:s)?(?!\w)[\"'`*]{{0,2}}"
    rf"(?:[ \t]+(?i:{_PREP})(?:[ \t]+[^\s:=：]+){{{{1,4}}}}?)?"
    rf"(?P<sep>[ \t]*(?::=|=>|[:=：])[*_]{{{{0,2}}}}[ \t]*|[ \t]+(?i:{_VERB})[ \t]+"
    r"|[ \t]*[—–][ \t]*)"
)
_CJK = r"(?:{cores})(?P<sep>[ \t]*(?:[:：=]|是|为|為|は|는|은)[ \t]*)"
_PW = (
    r"pass[ _-]?phrase|pass[ _-]?code|passwords?|passwd|pwd|pw|pass|senha|has[łl]o"
    r"|contrase(?:ñ|n\u0303|n)a|mot[ \t]+de[ \t]+passe|passwort|kennwort|wachtwoord"
    r"|парол(?:ь|я|ю|ем|и|ей|е)"
)
_PIN = r"pin[ _-]?code|pin[ _-]?number|pin|пин(?:-код)?"
_SECRET = (
    r"client[ _-]?secret|secret[ _-]?key|secret|api[ _-]?key|apikey|access[ _-]?key"
    r"|private[ _-]?key|signing[ _-]?key|encryption[ _-]?key|master[ _-]?key"
    r"|(?:auth|access|refresh|api)[ _-]?token|token|credentials?|токен\w{0,2}"
    r"|ключ\w{0,2}|schl(?:ü|u\u0308|ue)ssel|sleutel|cl(?:é|e\u0301)[ \t]+api|clave"
)


# --- checks for shaped secrets --------------------------------------------------


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _card(text: str, m: re.Match[str]) -> Span | None:
    """Longest leading run of groups that is 13-19 digits and Luhn-valid."""
    groups = re.split(r"[ -]", m.group())
    for n in range(len(groups), 0, -1):
        digits = "".join(groups[:n])
        if n > 1 and not all(4 <= len(g) <= 6 for g in groups[: n - 1]):
            continue
        if 13 <= len(digits) <= 19 and _luhn(digits):
            return m.start(), m.start() + len(digits) + n - 1
    return None


_TOKEN_BEFORE = re.compile(r"\S*\Z")


def _email(text: str, m: re.Match[str]) -> Span | None:
    before = _TOKEN_BEFORE.search(text, max(0, m.start() - 256), m.start())
    token = before.group() if before else ""
    if "://" in token and "/" not in token.rsplit("://", 1)[1]:
        return None  # userinfo of a URL: connection-string's business
    if re.match(r":[\w~./-]", text[m.end() : m.end() + 2]):
        return None  # scp-style git remote, git@github.com:org/repo
    if re.match(r"\d+x\.", m.group("domain")):
        return None  # retina asset name, logo@2x.png
    return m.span()


def _min_classes(length: int, classes: int) -> Check:
    def check(text: str, m: re.Match[str]) -> Span | None:
        value = m.group("value") if "value" in m.re.groupindex else m.group()
        ok = len(value) >= length and _classes(value) >= classes
        return (
            (m.span("value") if "value" in m.re.groupindex else m.span())
            if ok
            else None
        )

    return check


def _url_password(text: str, m: re.Match[str]) -> Span | None:
    return m.span("value") if _plausible(m.group("value"), "password") else None


_HEX = frozenset("0123456789abcdefABCDEF-")


def _kind(ch: str) -> int:
    return 0 if ch.islower() else 1 if ch.isupper() else 2 if ch.isdigit() else 3


def _random_looking(s: str) -> bool:
    """Long, mixed-class, close to random in entropy and in class switches.

    Calibrated on random base64/alphanumeric strings (>= 97% flagged at 24 chars) and
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
    alphabet = 26 * lower + 26 * upper + 10 + 4
    ratio = entropy / math.log2(min(n, alphabet))
    # Words change character class every few letters; random text every other one.
    switches = sum(a != b for a, b in zip(kinds, kinds[1:])) / len(kinds)
    if lower and upper:
        return ratio >= 0.8 and switches >= 0.4
    return ratio >= 0.78 and switches >= 0.25


def _high_entropy(text: str, m: re.Match[str]) -> Span | None:
    run = m.group()
    if run.count("/") > max(1, len(run) // 24):
        return None  # a path or URL; its segments are scanned without "/"
    return m.span() if _random_looking(run) else None


# --- the rule table (earlier rules win when spans overlap) -----------------------

_A, _S = re.ASCII, re.DOTALL
_KEY_END = r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
_B64 = r"(?<![\w+/-])[\w+/-]{%d,}={0,2}(?![\w+/=-])"
# (rule id, regex, flags, check); a check returns the span to flag or None.
_TABLE: tuple[tuple[str, str, int, Check | None], ...] = (
    # A key block runs to its END line or, without one, to the next blank line.
    (
        "private-key",
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
        rf"(?:.*?{_KEY_END}|(?:[ \t]*\r?\n[ \t]*\S[^\n]*)*)",
        _S,
        None,
    ),
    ("jwt", r"(?<![\w-])eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*(?![\w-])", _A, None),
    (
        "aws-access-key",
        r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])",
        0,
        None,
    ),
    (
        "github-token",
        r"(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_\w{22,255})(?![\w-])",
        _A,
        None,
    ),
    ("gitlab-token", r"(?<![\w-])glpat-[\w-]{20,}", _A, None),
    (
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[\w-]+/[\w/-]{8,}",
        _A,
        None,
    ),
    (
        "discord-webhook",
        r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/\d{5,}/[\w-]{20,}",
        _A,
        None,
    ),
    ("slack-token", r"(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}", 0, None),
    ("stripe-key", r"(?<![\w-])[sr]k_(?:live|test)_[A-Za-z0-9]{16,}", 0, None),
    ("google-api-key", r"(?<![\w-])AIza[\w-]{35}(?![\w-])", _A, None),
    ("anthropic-key", r"(?<![\w-])sk-ant-[\w-]{20,}", _A, None),
    (
        "openai-key",
        r"(?<![\w-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?(?P<value>[\w-]{20,})",
        _A,
        _min_classes(20, 2),
    ),
    ("npm-token", r"(?<![\w-])npm_[A-Za-z0-9]{36}(?![\w-])", 0, None),
    (
        "connection-string",
        r"\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@?#\[\]]*:(?P<value>[^\s@/]+)@[\w.\[\]-]+",
        _A,
        _url_password,
    ),
    (
        "bearer-token",
        r"(?<![\w-])[Bb]earer[ \t]+(?P<value>[\w.~+/-]+=*)",
        _A,
        _min_classes(16, 2),
    ),
    (
        "auth-header",
        r"(?i:authorization)[ \t]*[:=][ \t]*(?:(?i:basic|token|digest)[ \t]+)?"
        r"(?P<value>[\w.~+/-]+=*)",
        _A,
        _min_classes(8, 2),
    ),
    ("password", _LATIN.format(cores=_PW), 0, _labelled("password")),
    (
        "password",
        _CJK.format(cores="密码|密碼|口令|パスワード|비밀번호|암호"),
        0,
        _labelled("password"),
    ),
    ("pin", _LATIN.format(cores=_PIN), 0, _labelled("pin")),
    ("pin", _CJK.format(cores="暗証番号"), 0, _labelled("pin")),
    ("secret", _LATIN.format(cores=_SECRET), 0, _labelled("secret")),
    (
        "secret",
        _CJK.format(cores="令牌|密钥|密鑰|トークン|토큰"),
        0,
        _labelled("secret"),
    ),
    (
        "email",
        r"(?<![\w.%+-])[A-Za-z0-9][\w.%+-]{0,63}@(?P<domain>(?:[A-Za-z0-9]"
        r"(?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24})(?![\w-])",
        _A,
        _email,
    ),
    # 13-19 digits in groups split by one kind of separator; _card picks the run.
    (
        "card-number",
        r"(?<![\w.,+-])[2-6]\d{3}(?:(?P<sep>[ -])\d{2,6}(?:(?P=sep)\d{1,6}){1,4}"
        r"|\d{9,15})(?!\w|-\d)",
        _A,
        _card,
    ),
    ("base64-secret", _B64 % 20, _A, None),  # decoded and rescanned in _scan
    ("high-entropy", _B64 % 24, _A, _high_entropy),
    # Without "/", so a random segment of a path or URL is judged on its own.
    ("high-entropy", r"(?<![\w+-])[\w+-]{24,}={0,2}(?![\w+=-])", _A, _high_entropy),
)
_COMPILED: list[tuple[str, re.Pattern[str], Check | None]] = []
_MARKER: list[re.Pattern[str]] = []


def _rules() -> list[tuple[str, re.Pattern[str], Check | None]]:
    """The table compiled on first use: compiling costs ~10 ms, importing must not."""
    if not _COMPILED:
        ids = sorted({rule for rule, *_ in _TABLE}, key=len, reverse=True)
        _MARKER.append(
            re.compile(r"\[REDACTED:(?:custom:[^\[\]\n]{1,64}|%s)\]" % "|".join(ids))
        )
        _COMPILED.extend((r, re.compile(p, f), c) for r, p, f, c in _TABLE)
    return _COMPILED


_ALNUM = re.compile(r"[^\W_]")


def compile_patterns(
    pairs: Sequence[tuple[str, str]],
) -> tuple[tuple[str, re.Pattern[str]], ...]:
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
                f"never-store pattern {name!r} ({pattern!r}): {exc}"
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
    custom: tuple[tuple[str, re.Pattern[str]], ...],
    allowed: tuple[re.Pattern[str], ...],
    depth: int,
) -> list[tuple[int, int, str]]:
    """(start, end, rule) of every finding: the table's candidates, minus markers and
    allowed matches, overlapping ones merged under the earliest rule."""
    rules = [(n, p, None) for n, p in custom] + _rules()
    cands: list[tuple[int, int, int, str]] = []  # start, end, priority, rule
    for prio, (rule, pattern, check) in enumerate(rules):
        if rule == "base64-secret" and depth >= 2:
            continue  # bounds the nesting of base64 inside base64
        for m in pattern.finditer(text):
            if rule == "base64-secret":
                inner = _decoded(m.group())
                wraps = inner is not None and _scan(inner, custom, allowed, depth + 1)
                span = m.span() if wraps else None
            elif check is not None:
                span = check(text, m)
            else:
                span = m.span("value") if "value" in pattern.groupindex else m.span()
            if span and span[1] > span[0]:
                cands.append((span[0], span[1], prio, rule))
    markers = [m.span() for m in _MARKER[0].finditer(text)]
    if markers:  # an earlier redaction is never flagged again; cut it out
        cands = [
            (s, e, p, r) for c in cands for s, e, p, r in _outside(c, markers, text)
        ]
    allow = [m.span() for p in allowed for m in p.finditer(text) if m.end() > m.start()]
    cands = [c for c in cands if not any(s <= c[0] and c[1] <= e for s, e in allow)]
    cands.sort()
    merged: list[tuple[int, int, int, str]] = []
    for s, e, p, r in cands:  # overlapping candidates become one span, best rule wins
        if merged and s < merged[-1][1]:
            ls, le, lp, lr = merged[-1]
            best = (p, r) if p < lp else (lp, lr)
            merged[-1] = (ls, max(le, e), best[0], best[1])
        else:
            merged.append((s, e, p, r))
    return [(s, e, r) for s, e, _, r in merged]


def _outside(
    cand: tuple[int, int, int, str], markers: list[Span], text: str
) -> list[tuple[int, int, int, str]]:
    """The parts of a candidate that lie outside every marker and hold a letter/digit."""
    pieces = [(cand[0], cand[1])]
    for ms, me in markers:
        if me <= cand[0] or ms >= cand[1]:
            continue
        pieces = [
            q
            for s, e in pieces
            for q in ((s, min(e, ms)), (max(s, me), e))
            if q[0] < q[1]
        ]
    return [(s, e, cand[2], cand[3]) for s, e in pieces if _ALNUM.search(text, s, e)]


def find(
    text: str, extra: Sequence[tuple[str, str]] = (), allow: Sequence[str] = ()
) -> list[Finding]:
    """All findings in ``text``, sorted by start and non-overlapping.

    ``extra``: ``(name, regex)`` never-store patterns from rules.md, reported as
    ``custom:<name>`` (a group named ``value`` narrows the span). ``allow``: regexes
    whose matches are never flagged. Raises ValueError for a pattern that won't compile.
    """
    custom = compile_patterns(extra)
    allowed = tuple(p for _, p in compile_patterns([("allow", a) for a in allow]))
    spans = _scan(text, custom, allowed, 0)
    # A marker can complete a neighbour's shape ("10005-----BEGIN" -> "10005[RED...");
    # rescan the redacted text until nothing new appears, mapping hits back here.
    for _ in range(8):
        if not spans:
            break
        clean, shifts = _apply(text, spans)
        more = _scan(clean, custom, allowed, 0)
        if not more:
            break
        spans = sorted(
            spans + [(_back(s, shifts), _back(e, shifts), r) for s, e, r in more]
        )
    found, line, pos = [], 1, 0
    for s, e, r in spans:
        line += text.count("\n", pos, s)
        pos = s
        found.append(Finding(r, s, e, line))
    return found


def _apply(text: str, spans: list[tuple[int, int, str]]) -> tuple[str, list[Span]]:
    """``text`` with markers for ``spans``, and (marker end, total shift) per marker."""
    parts, shifts, pos, shift = [], [], 0, 0
    for s, e, r in spans:
        marker = f"[REDACTED:{r}]"
        parts += [text[pos:s], marker]
        shift += len(marker) - (e - s)
        shifts.append((e + shift, shift))
        pos = e
    return "".join(parts) + text[pos:], shifts


def _back(pos: int, shifts: list[Span]) -> int:
    """Offset in the original text of ``pos`` in the redacted text (outside markers)."""
    shift = 0
    for end, total in shifts:
        if end > pos:
            break
        shift = total
    return pos - shift


def redact(
    text: str, extra: Sequence[tuple[str, str]] = (), allow: Sequence[str] = ()
) -> tuple[str, list[Finding]]:
    """``(text with each finding's span replaced by "[REDACTED:<rule>]", findings)``.

    Idempotent: markers are never flagged, and ``find`` already includes whatever a
    marker would newly expose, so redacting the result changes and finds nothing.
    """
    found = find(text, extra, allow)
    clean, _ = _apply(text, [(f.start, f.end, f.rule) for f in found])
    return clean, found
