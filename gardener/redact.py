"""Never-store detection (DESIGN.md section 4): find and redact what must not be kept.

Our rules need the stdlib only. ``find(text)`` returns
``[Finding(rule, start, end, line), ...]``, sorted and non-overlapping, where
``text[start:end]`` is the secret value itself (``hunter2`` in ``password: hunter2``,
``pw`` in ``scheme://user:pw@host``). ``redact(text)`` returns ``(clean, findings)``
with each span replaced by ``[REDACTED:<rule>]``.

Rule ids: private-key, jwt, aws-access-key, github-token, gitlab-token, slack-webhook,
discord-webhook, slack-token, stripe-key, google-api-key, anthropic-key, openai-key,
npm-token, huggingface-token, pypi-token, twilio-key, sendgrid-key, shopify-token,
digitalocean-token, connection-string, bearer-token, auth-header, password, pin,
secret, recovery-codes, email, card-number, base64-secret, high-entropy, and
``custom:<name>`` (rules.md).

Choices: a labelled value (``password: x``, ``the API key is x``, ``密码是x``,
``| password | x |``, ``--token x``) must not be a placeholder (``see vault``, ``****``,
``${VAR}``, ``str``); a ``pin`` is 4-12 digits; a ``secret`` (token, API key, ...)
needs >= 6 chars of two classes, so ``max_tokens: 4096`` passes; in prose an unquoted
English-looking word (``is correct``) is not a value, nor is a table cell of letters
only (a header row). A bare ``*_key:`` label (``secret_key_base``, ``APP_KEY``) needs a
hex, UUID or base64 value, so ``sort_key: created_at`` passes; ``-p x`` is not a label.
Recovery codes are two or more 8-10 character codes with digits after a "recovery /
backup / 2FA codes" label. Cards start with 2-6 (the networks), which spares ISBNs.
Hex runs (SHAs, bare UUIDs, Ethereum addresses) are never high-entropy; wallet
addresses are public and not targeted, though a base58 Bitcoin address may trip
high-entropy (erring to refuse). Markers (``[REDACTED:<rule>]``, ``[REDACTED]``) are
never flagged again, so ``redact`` is idempotent. An allow pattern drops a finding only
when one of its matches covers the whole span.

Speed: our rules are linear and read a megabyte in well under a second. Labels are
matched only where a label word starts (one scan of the lowercased text), base64 and
entropy rules only inside runs of 20+ base64 characters, token rules search for their
literal prefix, a distinct line is scanned once (its repeats get copies), and after
redacting only the text near a marker between other characters than spaces and quotes
is rescanned.
"""

from __future__ import annotations

import base64
import bisect
import functools
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import cast

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


class _Lazy:
    """A regex compiled on first use. Most scans need none of the helper
    patterns below, and compiling them all costs ~3 ms of every ``gardener note``."""

    __slots__ = ("_args", "_pattern")

    def __init__(self, *args: object) -> None:
        self._args = args
        self._pattern: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> object:
        if self._pattern is None:
            self._pattern = re.compile(*self._args)  # type: ignore[call-overload]
        return getattr(self._pattern, name)


def _lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return cast(re.Pattern[str], _Lazy(pattern, flags))


_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "«": "»", "「": "」"}
_TRAIL = ".,;:)]}>'\"`”’»」*"  # sentence/markup punctuation after a bare value
_NEXT_PARAM = _lazy(r"[;&][A-Za-z_][\w.-]*=")  # ;Database= or &user= ends it
_REF = _lazy(r"\$\{[^}]*\}?|\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%|\$\(.*")
_TYPE = _lazy(r"[A-Za-z_][\w.]*\[[\w.,| \[\]]*\]?")  # Optional[str], list[str]
_PATH = _lazy(r"(?:~|\.{1,2})?(?:/[\w.-]+){2,}/?")  # /run/secrets/db, ~/.ssh/id
# A bare value: no space, at most 512 chars (bounds the work per label), and no CJK
# or fullwidth char, since CJK prose resumes right after it: 密码是abc，...
_BARE = _lazy(
    r"[^\s\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f"
    r"\uff00-\uff60\uffe0-\uffe6\U00020000-\U0003fffd]{1,512}"
)
_CELL_END = _lazy(r"[ \t]*(?:\||\r?\n|\Z)")  # a table cell's value fills the cell
_MASK = "*xX•·.-_#?…"  # a value of these only is a mask: ****, xxx-xxx
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
    secret token key xxx placeholder example sample dummy fake flag flags option
    options argument arg args parameter param switch prompt instead value values
    policy policies rules requirements length strength hint field"""
_NOT_VALUES = frozenset(_WORDS.split())
_LONGEST = max(map(len, _NOT_VALUES))
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
    bare = _BARE.match(text, pos)
    if not bare:
        return None
    end = bare.end()
    if ";" in bare.group() or "&" in bare.group():
        cut = _NEXT_PARAM.search(text, pos, end)
        end = cut.start() if cut else end
    while end > pos and text[end - 1] in _TRAIL:
        end -= 1
    return (pos, end, False) if end > pos else None


def _plausible(value: str, family: str, prose: bool, quoted: bool) -> bool:
    """Whether ``value`` is a real secret rather than a placeholder or a word."""
    if value[0] in "([{<" or not value.strip(_MASK):
        return False
    if len(value) <= _LONGEST and value.lower() in _NOT_VALUES:
        return False
    if _REF.fullmatch(value) or _TYPE.fullmatch(value) or _PATH.fullmatch(value):
        return False  # ${DB_PASSWORD}, %TOKEN%, $(pass show db), Optional[str], ~/x/y
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
        sep = m.group("sep")
        if "|" in sep:
            return _cell(text, m.start(), (start, end), quoted, family)
        prose = not any(c in ":=：" for c in sep)
        ok = _plausible(text[start:end], family, prose, quoted)
        return (start, end) if ok else None

    return check


def _cell(text: str, label: int, span: Span, quoted: bool, family: str) -> Span | None:
    """A Markdown table row, ``| password | x |``: the label must be the row's first
    cell and the value all of the next one; a cell of letters only is a header."""
    line = text.rfind("\n", max(0, label - 65), label) + 1
    if label - line > 64:
        return None
    head = text[line:label]
    if head.count("|") != 1 or head.lstrip()[:1] != "|":
        return None
    start, end = span
    bar = text.find("|", start, end)
    end = bar if bar >= 0 and not quoted else end
    while end > start and text[end - 1] in _TRAIL:
        end -= 1
    value = text[start:end]
    if not value or not _CELL_END.match(text, end + quoted):
        return None
    if not quoted and value.isalpha():
        return None
    return (start, end) if _plausible(value, family, False, quoted) else None


# A label is a word (password, API key, mot de passe, 密码) that starts a word, follows
# "_", "." or "-" (DB_PASSWORD) or a camelCase hump (dbPassword, PGPASSWORD); then
# maybe "(NAS)" and "for the NAS"; then ":", "=", a verb ("is", "is:"), a dash, a CJK
# particle or, in a table row, "|". Matching starts at the word (see _hits).
_BOUND = r"(?:(?<![^\W_])|(?<=[A-Za-z0-9])(?=[A-Z]))"
_PREP = r"for|of|to|on|at|für|von|vom|zum|zur|voor|van|pour|de|du|para|del|от|для|к"
_VERB = (
    r"(?:(?:is|was|has[ \t]+been)[ \t]+)?(?:changed|set|reset|updated)[ \t]+to"
    r"|(?:is|was)(?:[ \t]+(?:now|still))?|ist|lautet|war|est|était|es|era|это"
)
_LABEL = (
    rf"(?:{_BOUND}(?i:%s)(?i:s)?(?!\w)[\"'`*]{{0,2}}|%s)"
    r"(?:[ \t]*\([^()\n]{1,40}\))?"
    rf"(?:[ \t]+(?i:{_PREP})(?:[ \t]+[^\s:=：|]{{1,40}}){{1,4}}?)?"
    r"(?P<sep>[ \t]*(?::=|=>|[:=：])[*_]{0,2}[ \t]*"
    rf"|[ \t]+(?i:{_VERB})(?:[ \t]*[:：][ \t]*|[ \t]+)"
    r"|[ \t]*[—–][ \t]*|[ \t]*(?:是|为|為|は|는|은)[ \t]*|[ \t]*\|[ \t]*)"
)
_PW = (  # a bare "pass" needs a prefix (DB_PASS), so "Pass: 42" and "all-pass = 0.6" are no labels
    r"pass[ _-]?phrase|pass[ _-]?code|passwords?|passwd|pwd|pw|(?<=[_.])pass"
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
_PIN = r"pin[ _-]?(?:code|number)?|пин(?:-код)?"
# The lowercase words each label family can start with (prefixes will do); _hits
# finds them. CJK words need no word boundary before them.
_PW_CJK = "密码|密碼|口令|パスワード|비밀번호|암호"
_PIN_CJK = "暗証番号"
_SECRET_CJK = "令牌|密钥|密鑰|トークン|토큰"
_PW_WORDS = f"pass pw senha has contrase mot kennwort wachtwoord парол | {_PW_CJK}"
_PIN_WORDS = f"pin пин | {_PIN_CJK}"
_SECRET_WORDS = f"""client secret api access private signing encryption master auth
    refresh token credential токен ключ schl sleutel clé cle\u0301 clave | {_SECRET_CJK}"""

# "SECRET_KEY_BASE: <hex>", "APP_KEY=base64:...": a key named by its purpose.
_KEYED = (
    r"(?a)(?<=[A-Za-z0-9][_.-])(?i:key)(?:[_.-](?i:base))?(?![\w-])[\"'`]?"
    r"(?P<sep>[ \t]*(?::=|=>|[:=：])[ \t]*)"
)
_ALNUM_ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
# What a "<name>_key" is when it is no secret: a public key or a data key.
_KEY_KINDS = """public pub gpg pgp ssh sort primary foreign partition cache lookup
    index idempotency dedup dedupe routing shard object row group map dict hash
    composite unique cluster range s3"""
_NOT_KEYS = frozenset(_KEY_KINDS.split())
_HEXVAL = _lazy(
    r"(?a)[0-9a-fA-F]{16,}|[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}"
)
_B64VAL = re.compile(r"(?a)[A-Za-z0-9+/_-]{16,}={0,2}")


def _keyed(text: str, m: re.Match[str]) -> Span | None:
    """A hex, UUID or base64 value (``base64:`` allowed) after ``<name>_key``, where
    the name does not make it a public or a data key."""
    got = _value_at(text, m.end())
    if got is None:
        return None
    start, end, _ = got
    value = text[start:end]
    body = value[7:] if value[:7].lower() == "base64:" else value
    if len(body) < 16 or not _plausible(value, "secret", False, True):
        return None
    head = text[max(0, m.start() - 65) : m.start() - 1]  # the name before "_key"
    if head[len(head.rstrip(_ALNUM_ASCII)) :].lower() in _NOT_KEYS:
        return None
    if _HEXVAL.fullmatch(body):
        ok = any(c.isdigit() for c in body) and any(c.isalpha() for c in body)
    elif _B64VAL.fullmatch(body):
        kinds = {_kind(c) for c in body}
        separators = body.count("-") + body.count("_")
        pads = any(c in "+/=" for c in body)
        ok = {0, 1, 2} <= kinds or (len(body) >= 20 and 2 in kinds and pads)
        ok = ok and separators <= len(body) / 10 + 1
    else:
        ok = False
    return (start, end) if ok else None


# Recovery codes: "backup codes: 1234-5678 8765-4321 ...", codes of 8-10 letters and
# digits on one line or one per (list) line; _codes wants two with a digit.
_CODE = (
    r"(?:\d{4}[ ]\d{4}|[A-Za-z0-9]{4,5}-[A-Za-z0-9]{4,5}|[A-Za-z0-9]{8,10})(?![\w-])"
)
_NEWLINE = r"(?:\r?\n[ \t]*(?:[-*+•][ \t]+|\d{1,2}[.)][ \t]+)?)?"
_CODES = (
    r"(?a)(?<![^\W_])(?i:recovery|backup|2fa|mfa|two[ -]?factor|otp|totp|scratch"
    r"|emergency)(?:[ \t]+(?i:backup|recovery|login))?[ \t]+(?i:codes?)(?![\w-])"
    r"(?:[ \t]+(?i:for|of)(?:[ \t]+[^\s:()]{1,40}){1,3}?)?(?:[ \t]*\([^()\n]{1,40}\))?"
    rf"[ \t]*(?:[:：=—–-][ \t]*)?{_NEWLINE}"
    rf"(?P<value>{_CODE}(?:[ \t]*[,;]?[ \t]*{_NEWLINE}{_CODE}){{1,31}})"
)
_CODE_WORDS = "recovery backup 2fa mfa two otp totp scratch emergency"
_ONE_CODE = _lazy(_CODE)


def _codes(text: str, m: re.Match[str]) -> Span | None:
    """The list, if two of its codes have a digit (words make no list)."""
    s, e = m.span("value")
    codes = _ONE_CODE.finditer(text, s, e)
    digits = sum(any(c.isdigit() for c in code.group()) for code in codes)
    return (s, e) if digits >= 2 else None


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


_LOCAL = _ALNUM_ASCII + "_.%+-"


def _email(text: str, m: re.Match[str]) -> Span | None:
    at = m.start()
    head = text[max(0, at - 65) : at]
    local = len(head) - len(head.rstrip(_LOCAL))
    start = at - local
    if not 0 < local <= 64 or not text[start].isascii() or not text[start].isalnum():
        return None  # a local part is 1-64 chars from a letter or digit
    before = text[max(0, start - 256) : start]
    token = before.split()[-1] if before and not before[-1].isspace() else ""
    if "://" in token and "/" not in token.rsplit("://", 1)[1]:
        return None  # userinfo of a URL: connection-string's business
    if re.match(r":[\w~./-]", text[m.end() : m.end() + 2]):
        return None  # scp-style git remote, git@github.com:org/repo
    if re.match(r"\d+x\.", m.group("domain")):
        return None  # retina asset name, logo@2x.png
    return start, m.end()


_SCHEME = _lazy(r"(?a)\b[A-Za-z][\w+.-]{0,20}\Z")  # searched up to the "://"


def _url_password(text: str, m: re.Match[str]) -> Span | None:
    if not _SCHEME.search(text, max(0, m.start() - 21), m.start()):
        return None
    ok = _plausible(m.group("value"), "password", False, False)
    return m.span("value") if ok else None


_HEX = frozenset("0123456789abcdefABCDEF-")


_KINDS = str.maketrans(  # a base64 run's characters as classes, separators dropped
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    "0" * 26 + "1" * 26 + "2" * 10,
    "-_/+",
)
_SWITCHES = ("01", "02", "10", "12", "20", "21")
_CLOG = [0.0] + [c * math.log2(c) for c in range(1, 512)]


@functools.lru_cache(maxsize=4096)
def _random_looking(s: str) -> bool:
    """Long, mixed-class, close to random in entropy and in class switches.

    Calibrated on random base64/alphanumeric strings (>= 95% flagged at 24 chars) and
    generated camelCase/snake_case identifiers with numbers (< 1% flagged).
    """
    body = s.rstrip("=")
    n = len(body)
    if n < 24 or set(body) <= _HEX:
        return False  # hex never: commit SHAs, UUIDs, digests
    if body.count("-") + body.count("_") + body.count("/") > n / 10 + 1:
        return False  # snake_case, kebab-case and paths separate words often
    kinds = body.translate(_KINDS)
    lower, upper, digit = ("0" in kinds), ("1" in kinds), ("2" in kinds)
    if not digit or not (lower or upper):
        return False  # letters-only runs are words; digits-only runs are numbers
    # Shannon entropy, log2(n) - sum(c * log2(c)) / n over the character counts c.
    counts = Counter(body).values()
    entropy = (
        math.log2(n)
        - sum(_CLOG[c] if c < 512 else c * math.log2(c) for c in counts) / n
    )
    ratio = entropy / math.log2(min(n, 26 * lower + 26 * upper + 14))
    # Words change character class every few letters, random text every other one
    # (a pair of two different classes never overlaps itself, so count() is exact).
    switches = sum(kinds.count(pair) for pair in _SWITCHES) / len(kinds)
    if lower and upper:
        return ratio >= 0.8 and switches >= 0.4
    return ratio >= 0.78 and switches >= 0.25


def _high_entropy(text: str, m: re.Match[str]) -> Span | None:
    run = m.group()
    if run.count("/") > max(1, len(run) // 24):
        return None  # a path or URL; the second rule judges its segments alone
    return m.span() if _random_looking(run) else None


# --- the rule table: earlier rules win where spans overlap -----------------------


@dataclass(frozen=True)
class _Rule:
    """``pattern`` is matched where one of ``words`` starts (labels), or searched in
    runs of base64 characters (``runs``), or else searched in the whole text, where
    it should start with a literal so that search is fast."""

    rule: str
    pattern: str
    check: Check | None = None
    words: str = ""  # space-separated lowercase words; and CJK ones after "|"
    runs: bool = False
    need: str = ""  # a text without this literal cannot match
    lines: bool = True  # matches stay within a line and checks look no further


def _token(rule: str, prefix: str, rest: str, check: Check | None = None) -> _Rule:
    """A token that starts with the literal ``prefix`` (so a search for it is fast)
    and not inside a longer token: the look-behind comes after the prefix."""
    lead = rf"(?a){re.escape(prefix)}(?<![\w-]{'.' * len(prefix)})"
    return _Rule(rule, lead + rest, check, need=prefix)


_B64 = r"(?a)(?<![\w+/-])[\w+/-]{%d,}={0,2}(?![\w+/=-])"
_TABLE: tuple[_Rule, ...] = (
    # A key block runs to its END line or, without one, to the next blank line.
    _Rule(
        "private-key",
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----",
        need="-----BEGIN",
        lines=False,
    ),
    _token("jwt", "eyJ", r"[\w-]{8,}\.[\w-]{8,}\.[\w-]*(?![\w-])"),
    _Rule("aws-access-key", r"(?a)A(?<![A-Za-z0-9].)(?:KIA|SIA|BIA|CCA)[A-Z0-9]{16}\b"),
    _token("github-token", "gh", r"[pousr]_[A-Za-z0-9]{36,}"),
    _token("github-token", "github_pat_", r"\w{22,}"),
    _token("gitlab-token", "glpat-", r"[\w-]{20,}"),
    _Rule(
        "slack-webhook",
        r"(?a)hooks\.slack\.com/\w+/[\w/-]{12,}",
        need="hooks.slack.com/",
    ),
    _Rule(
        "discord-webhook",
        r"(?a)discord(?:app)?\.com/api/webhooks/\d+/[\w-]{20,}",
        need="/api/webhooks/",
    ),
    _token("slack-token", "xox", r"(?:[abprs]|e(?:\.xox[abp])?)-[A-Za-z0-9-]{10,}"),
    _Rule(
        "stripe-key",
        r"(?a)[rs]k_(?<![\w-]...)(?:live|test)_[A-Za-z0-9]{16,}",
        need="k_",
    ),
    _token("google-api-key", "AIza", r"[\w-]{35}(?![\w-])"),
    _token("anthropic-key", "sk-ant-", r"[\w-]{20,}"),
    _token(
        "openai-key",
        "sk-",
        r"(?:proj-|svcacct-|admin-)?(?P<value>[\w-]{20,})",
        _mixed(20),
    ),
    _token("npm-token", "npm_", r"[A-Za-z0-9]{36}\b"),
    _token("huggingface-token", "hf_", r"[A-Za-z0-9]{30,}(?![\w-])", _mixed(33)),
    _token("pypi-token", "pypi-", r"AgE[\w-]{40,}"),
    _token("twilio-key", "SK", r"[0-9a-f]{32}(?![\w-])"),
    _token("sendgrid-key", "SG.", r"[\w-]{22}\.[\w-]{43}(?![\w-])"),
    _token("shopify-token", "shp", r"(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![\w-])"),
    _token("digitalocean-token", "do", r"[opr]_v1_[a-f0-9]{64}(?![\w-])"),
    _Rule(
        "connection-string",
        r"(?a)://[^\s:/@]{0,256}:(?P<value>[^\s@/]{1,256})@\w",
        _url_password,
        need="://",
    ),
    _Rule(
        "bearer-token",
        r"(?a)(?<![\w-])[Bb]earer[ \t]+(?P<value>[\w.~+/-]+=*)",
        _mixed(16),
        "bearer",
    ),
    _Rule(
        "auth-header",
        r"(?ai)authorization[ \t]*[:=][ \t]*(?:(?:basic|token|digest)[ \t]+)?"
        r"(?P<value>[\w.~+/-]+=*)",
        _mixed(8),
        "authorization",
    ),
    _Rule("password", _LABEL % (_PW, _PW_CJK), _labelled("password"), _PW_WORDS),
    _Rule(
        "password",
        r"--(?<![\w-]--)(?i:password|passwd)(?P<sep>[ \t]+)(?!-)",
        _labelled("password"),
        need="--",
    ),
    _Rule("pin", _LABEL % (_PIN, _PIN_CJK), _labelled("pin"), _PIN_WORDS),
    _Rule(
        "secret", _LABEL % (_SECRET, _SECRET_CJK), _labelled("secret"), _SECRET_WORDS
    ),
    _Rule(
        "secret",
        r"--(?<![\w-]--)(?i:token|api[_-]key)(?P<sep>[ \t]+)(?!-)",
        _labelled("secret"),
        need="--",
    ),
    _Rule("secret", _KEYED, _keyed, "key"),
    _Rule("recovery-codes", _CODES, _codes, _CODE_WORDS, lines=False),
    _Rule(
        "email",
        r"(?a)@(?P<domain>(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24})(?![\w-])",
        _email,
        need="@",
    ),
    # 13-19 digits in groups split by one kind of separator; _card picks the run.
    _Rule(
        "card-number",
        r"(?a)[2-6](?<![\w.,+-].)\d{3}"
        r"(?:(?P<sep>[ -])\d{2,6}(?:(?P=sep)\d{1,6}){1,4}|\d{9,15})(?!\w|-\d)",
        _card,
    ),
    _Rule("base64-secret", _B64 % 20, runs=True),  # decoded and rescanned in _scan
    _Rule("high-entropy", _B64 % 24, _high_entropy, runs=True),
    # Without "/", so a random segment of a path or URL is judged on its own.
    _Rule(
        "high-entropy",
        r"(?a)(?<![\w+-])[\w+-]{24,}={0,2}(?![\w+=-])",
        _high_entropy,
        runs=True,
    ),
)


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


@dataclass(frozen=True)
class _Pass:
    """The rules of one pass: searched in the text (``text_rules``), in its base64
    runs (``run_rules``), or matched where a word of theirs starts (``route``)."""

    text_rules: tuple[int, ...]
    run_rules: tuple[int, ...]
    route: dict[str, tuple[int, ...]]  # word -> rules to match where it starts
    words: re.Pattern[str] | None  # a word after a non-alphanumeric (lowercased)
    camel: re.Pattern[str] | None  # a word at a camelCase hump (dbPassword)
    cjk: re.Pattern[str] | None  # a CJK word, anywhere


class _Rules:
    """The table's rules as (rule, compiled pattern, check), each compiled when
    first used: the worded rules (password, secret, pin...) cost most of the
    compile time, and a line with none of their words never needs them."""

    def __init__(self) -> None:
        self._compiled: dict[int, tuple[str, re.Pattern[str], Check | None]] = {}

    def __getitem__(self, i: int) -> tuple[str, re.Pattern[str], Check | None]:
        got = self._compiled.get(i)
        if got is None:
            r = _TABLE[i]
            got = self._compiled[i] = (r.rule, re.compile(r.pattern), r.check)
        return got


@dataclass(frozen=True)
class _Engine:
    rules: _Rules
    whole: _Pass  # rules whose matches may span lines, run on the whole text
    lines: _Pass  # the rest, run once per distinct line
    marker: re.Pattern[str]


def _pass(indices: Sequence[int]) -> _Pass:
    owners: dict[str, set[int]] = {}
    camel: set[str] = set()
    cjk: set[str] = set()
    for i in indices:
        r = _TABLE[i]
        west, _, east = r.words.partition("|")
        for word in west.split():
            owners.setdefault(word, set()).add(i)
            if _BOUND in r.pattern and word.isascii() and word[0].isalpha():
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
            i for i in indices if not _TABLE[i].words and not _TABLE[i].runs
        ),
        run_rules=tuple(i for i in indices if _TABLE[i].runs),
        route=route,
        words=re.compile(rf"[\W_]({_trie(latin)})") if latin else None,
        camel=re.compile(rf"[{''.join(humps)}](?<=[A-Za-z0-9].)(?:{hump})")
        if humps
        else None,
        cjk=re.compile("|".join(sorted(cjk, key=len, reverse=True))) if cjk else None,
    )


_ENGINE: list[_Engine] = []


def _engine() -> _Engine:
    """The table, compiled on first use: that costs ~20 ms and importing must not."""
    if not _ENGINE:
        ids = "|".join(sorted({r.rule for r in _TABLE}, key=len, reverse=True))
        body = rf"custom:[^\[\]\n]{{1,64}}|{ids}|[A-Za-z][A-Za-z_ -]{{0,39}}"
        _ENGINE.append(
            _Engine(
                rules=_Rules(),
                whole=_pass([i for i, r in enumerate(_TABLE) if not r.lines]),
                lines=_pass([i for i, r in enumerate(_TABLE) if r.lines]),
                marker=re.compile(rf"\[REDACTED(?::(?:{body}))?\]"),
            )
        )
    return _ENGINE[0]


def _hits(text: str, rules: _Pass) -> list[tuple[int, str]]:
    """(position, word) wherever a word of ``rules`` starts, in order."""
    hits: list[tuple[int, str]] = []
    if rules.words:
        low = text.lower()
        if len(low) != len(text):  # a few characters lowercase to two ("İ")
            low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
        # After "\n", the match of "[\W_]word" starts where the word does in text.
        hits += [(m.start(), m.group(1)) for m in rules.words.finditer("\n" + low)]
    if rules.camel:
        hits += [(m.start(), m.group().lower()) for m in rules.camel.finditer(text)]
    if rules.cjk and not text.isascii():
        hits += [(m.start(), m.group()) for m in rules.cjk.finditer(text)]
    return sorted(hits)


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


_KEY_END = _lazy(r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_BODY = _lazy(r"(?:[ \t]*\r?\n[ \t]*\S[^\n]*)*")


def _key_blocks(text: str, begin: re.Pattern[str]) -> Iterator[Span]:
    """Each BEGIN line to the first END line after it, or else to a blank line. One
    END search serves every BEGIN before that END, so many BEGINs stay linear."""
    reach, searched = 0, -1
    end: re.Match[str] | None = None
    for m in begin.finditer(text):
        if m.start() < reach:
            continue
        if searched < 0 or (end is not None and end.start() < m.end()):
            end, searched = _KEY_END.search(text, m.end()), m.end()
        body = None if end else _KEY_BODY.match(text, m.end())
        reach = end.end() if end else body.end() if body else m.end()
        yield m.start(), reach


_WORTH = _lazy(  # a separator, digits, or a 15+ run with a capital or digit
    r"(?a)[:=@|：—–是为為は는은]|\d{4}|--"
    r"|(?<![\w+/=.-])(?=[\w+/=.-]{15})[a-z_+/=.-]*[A-Z0-9]"
)


def _worth(inner: str, custom: Compiled, eng: _Engine) -> bool:
    """Whether decoded base64 could hold a finding (most decoded runs cannot)."""
    if custom or not inner.isascii() or _WORTH.search(inner):
        return True
    words = eng.lines.words
    return words is not None and words.search("\n" + inner.lower()) is not None


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
    flat = out.replace("\n", " ").replace("\r", " ").replace("\t", " ")
    return out if out.strip() and flat.isprintable() else None


@dataclass
class _Context:
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
        span = check(text, m) if check else _target(m)
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
        if _TABLE[i].need not in text:
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
    starts: list[int] = []
    pos = 0
    for line in distinct:
        starts.append(pos)
        pos += len(line) + 1
    keys = list(distinct)
    by_line: dict[str, list[Candidate]] = {}
    for s, e, p, r in _run_pass("\n".join(distinct), rules, ctx):
        k = bisect.bisect_right(starts, s) - 1
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
        (*_target(m), prio, rule)
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
    markers = [m.span() for m in _engine().marker.finditer(text)]
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


_ALNUM = _lazy(r"[^\W_]")
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
    from . import detectors

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
        need = _TABLE[i].need
        if not need:  # no literal to look for: every text may match
            return [find(text, extra, allow) for text in texts]
        at = joined.find(need)
        while at >= 0:
            hits.append(at)
            at = joined.find(need, at + 1)
    if eng.whole.run_rules:
        hits += [s for s, _ in _runs(joined)]
    suspect = {bisect.bisect_right(starts, at) - 1 for at in hits}
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
    from . import detectors

    if not detectors.suspicious(text):  # most notes: no import, no cost
        return []
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
                bisect.insort(taken, (s, e))
            s = text.find(value, e, stop)
    return extra


def _overlaps(taken: list[tuple[int, int]], s: int, e: int) -> bool:
    """True if [s, e) meets a span of ``taken``: disjoint spans sorted by start,
    so only the last one starting before ``e`` can reach into it."""
    k = bisect.bisect_left(taken, (e, -1))
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
