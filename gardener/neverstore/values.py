"""What a labelled secret's value looks like (used by ``labels`` and ``weaklabels``).

``value_at`` reads the value a label points at (quoted, or a bare run up to a
space); ``plausible`` tells a value from a placeholder (``see vault``, ``****``,
``${VAR}``, ``str``) or a word of prose; ``phrase_at`` finds a passphrase of plain
words and ``describes`` a clause that describes a password instead; ``passlike``
is the shape a value must have after a label that is prose too
("pass", "password" and a space).
"""

from __future__ import annotations

from collections.abc import Iterator

from gardener.neverstore.notvalues import NOT_VALUE_WORDS
from gardener.neverstore.regex import Span, lazy

_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "«": "»", "「": "」"}
TRAIL = ".,;:)]}>'\"`”’»」*"  # sentence/markup punctuation after a bare value
_NEXT_PARAM = lazy(r"[;&][A-Za-z_][\w.-]*=")  # ;Database= or &user= ends it
# a reference to a value kept elsewhere: a shell or template variable, or code
# that reads the environment (``os.environ["API_KEY"]``, ``process.env.TOKEN``)
_REF = lazy(
    r"\$\{[^}]*\}?|\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%|\$\(.*"
    r"|(?:os\.environ|os\.getenv|getenv|process\.env|ENV|System\.getenv)\b.*"
)
_TYPE = lazy(r"[A-Za-z_][\w.]*\[[\w.,| \[\]]*\]?")  # Optional[str], list[str]
_PATH = lazy(r"(?:~|\.{1,2})?(?:/[\w.-]+){2,}/?")  # /run/secrets/db, ~/.ssh/id
# A bare value: no space, at most 512 chars (bounds the work per label), and no CJK
# or fullwidth char, since CJK prose resumes right after it: 密码是abc，...
_BARE = lazy(
    r"[^\s\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f"
    r"\uff00-\uff60\uffe0-\uffe6\U00020000-\U0003fffd]{1,512}"
)
_MASK = "*xX•·.-_#?…"  # a value of these only is a mask: ****, xxx-xxx
_NOT_VALUES = frozenset(w for _, line in NOT_VALUE_WORDS for w in line.split())
_LONGEST = max(map(len, _NOT_VALUES))
_THOUSANDS = lazy(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")  # a count: 12,345
_WORDY = ("ed", "ing", "ly", "ion", "ible", "able", "ive", "ful", "less", "ent", "ous")


def classes(s: str) -> int:
    """How many of lower / upper / digit / symbol occur; ``Word`` counts as lower and
    ``-_./`` are not symbols, so identifiers and capitalised words score 1."""
    seen = {kind(c) if i or not c.isupper() else 0 for i, c in enumerate(s)}
    return len(seen - {4})


def kind(ch: str) -> int:
    """0 lower, 1 upper, 2 digit, 3 symbol, 4 separator or space."""
    if ch.isalpha():
        return 1 if ch.isupper() else 0
    return 2 if ch.isdigit() else 4 if ch in "-_./+=" or ch.isspace() else 3


def value_at(text: str, pos: int) -> tuple[int, int, bool] | None:
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
    while end > pos and text[end - 1] in TRAIL:
        end -= 1
    return (pos, end, False) if end > pos else None


# a word of prose with an apostrophe (that's, don't, we're), no value
_CONTRACTION = lazy(r"[A-Za-z]+['\u2019](?:s|t|re|ve|ll|d|m)")
# an environment variable's name: capitals and digits in parts joined by "_",
# one of them naming what it holds (the value is elsewhere)
_VARIABLE_NAME = lazy(
    r"(?a)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|TOKEN|SECRET|PASSWORD|PASS|PWD|PAT)"
    r"(?:_[A-Z0-9]+)*"
)


def plausible(value: str, family: str, prose: bool, quoted: bool) -> bool:
    """Whether ``value`` is a real secret rather than a placeholder or a word."""
    if value[0] in "([{<" or not value.strip(_MASK):
        return False
    if len(value) <= _LONGEST and value.lower() in _NOT_VALUES:
        return False
    if _REF.fullmatch(value) or _TYPE.fullmatch(value) or _PATH.fullmatch(value):
        return False  # ${DB_PASSWORD}, %TOKEN%, $(pass show db), Optional[str], ~/x/y
    if _CONTRACTION.fullmatch(value) or _VARIABLE_NAME.fullmatch(value.strip("`")):
        return False  # "tokens" — that's ...; API key: `OPENAI_API_KEY`
    if family == "pin":
        return value.isdigit() and 4 <= len(value) <= 12
    if family == "secret":
        if value.isdigit() and len(value) >= 16 and (quoted or not prose):
            return True  # a numeric token: discord_token: "2649...", asanaToken=3234...
        return (
            len(value) >= 6 and classes(value) >= 2 and not _THOUSANDS.fullmatch(value)
        )
    if family == "password" and (_named(value) or _state(value)):
        return False
    if family == "password" and value.isdigit() and len(value) < 4:
        return False  # a count: "パスワードは90日ごとに", "password: 3 tries"
    if prose and not quoted and value.isalpha():
        return len(value) >= 4 and not value.lower().endswith(_WORDY)
    return True


# A passphrase: after a password label, 3 or more plain words that run to the end of
# their clause. The clause ends at punctuation after a word, a quote, a bracket, a
# dash, the line's end, or a word that starts something else: a function word
# ("and", "for", "then"), a word that describes a password rather than being one
# (_NOT_VALUES but for the words that judge a single value, and _FOLLOWERS), a time
# ("friday", "tomorrow", "10:00", "2026-03-10"), or a task verb right before a
# time ("deploy friday"). Words past the third may carry digits or symbols
# ("staple2"). Where the end is unclear the phrase takes a word too many rather
# than one too few; it never reaches past punctuation into the next sentence.
_FUNCTION = """the a an in on at of for to from with by via into onto per than as and
    or nor but so yet not no is are was were be being has have had do does did will
    would shall should must can could may might see ask same then it its this that
    these those i me my we us you he him she they them ours yours every each all
    any some none only also still now here there just very too enough until till
    else once twice times something anything nothing everything whatever"""
# Words that follow "password" in ordinary prose ("password reset", "password
# hygiene"), and the names of hashes and protocols a developer puts after it.
_FOLLOWERS = """reset resets manager managers policy policies rule rules rotation
    change changes expiry expires protection require requires fields prompts hash
    hashes storage store login logins signin sign-in auth authentication access
    complexity hygiene reuse leak leaks breach breaches spray generator entry input
    form screen page step setup update updates recovery support file files
    min max minimum maximum least most char chars character characters digit digits
    letter letters symbol symbols number numbers uppercase lowercase word words
    yesterday today tomorrow tonight earlier later already again before after
    new old current temporary temp initial usual real actual own personal
    default defaults sha sha1 sha224 sha256 sha384 sha512 md5 argon2 argon2i argon2d
    md5sum sha1sum sha256sum sha512sum b2sum
    argon2id bcrypt scrypt yescrypt pbkdf2 oauth oauth2 saml2 fido2 totp ntlm ntlmv2
    krb5 wpa wpa2 wpa3 wep psk sae tkip aes eap sso ldap saml kerberos radius
    fallback settings expire"""
# the same in the other languages of the labels (de fr es it pt nl): a
# passphrase does not run through them ("le mot de passe est dans le coffre")
_FUNCTION_ELSEWHERE = """der die das den dem des ein eine einen im am auf mit bei
    unter neben ist sind nicht kein keine le la les un une du dans sur sous avec
    chez est sont pas el los las una en con del al está están lo gli il nel nella
    nei sul della è sono os uma na nos em com do da dos está het een op bij niet"""
FUNCS = frozenset(_FUNCTION.split()) | frozenset(_FUNCTION_ELSEWHERE.split())
_FUNCS = FUNCS
_QUALITIES = {"correct", "incorrect", "wrong", "valid", "invalid", "weak", "strong"}
_PHRASE_STOP = (_NOT_VALUES - _QUALITIES) | _FUNCS | set(_FOLLOWERS.split())
_TIME_WORDS = """monday tuesday wednesday thursday friday saturday sunday january
    february april june july august september october november december tonight
    tomorrow today yesterday weekend eod asap noon midnight"""
_TIMES = frozenset(_TIME_WORDS.split())
TIMES = _TIMES
# a clock time, a date or a day of the month: 10:00, 3pm, 2026-03-10, 10/03
_TIME_TOKEN = lazy(
    r"(?i)\d{1,2}(?::\d{2})?[ap]\.?m\.?|\d{1,2}:\d{2}(?::\d{2})?"
    r"|\d{4}-\d{2}-\d{2}(?:T[\d:]+)?|\d{1,2}/\d{1,2}(?:/\d{2,4})?"
)
# what someone is to do at a time ("deploy friday", "call tomorrow")
_TASK_WORDS = """deploy ship release merge push call email ping meet review fix test
    check remind renew backup restore migrate upgrade install run start stop restart
    reboot book pay buy send schedule submit finish launch publish due"""
_TASKS = frozenset(_TASK_WORDS.split())
_WORD = lazy(r"[^\W\d_]{2,24}")
_TOKENS = lazy(r"[^ \t\r\n]+")
_ENDS = ".,;:!?)]}>\"'`\u201d\u2019\u00bb*|"  # after a word: the clause ends
_OPENS = "([{<\"'`\u201c\u2018\u00ab|*"  # a token that starts so starts something else


def stopword(word: str) -> bool:
    """Whether a word says what a password is like or where it is, not what it is."""
    w = word.lower()
    return _listed(w) or w.endswith(_WORDY)


def _listed(w: str) -> bool:
    """Whether a lowercase word (or its singular) is one of _PHRASE_STOP."""
    return w in _PHRASE_STOP or (w.endswith("s") and w[:-1] in _PHRASE_STOP)


def _clause(text: str, pos: int) -> Iterator[tuple[int, str, bool]]:
    """The tokens of the clause that starts at ``pos``, at most 33, read on demand:
    (start, token without trailing punctuation, whether punctuation ended the
    clause there)."""
    eol = text.find("\n", pos, pos + 1024)
    eol = min(len(text), pos + 1024) if eol < 0 else eol
    for n, m in enumerate(_TOKENS.finditer(text, pos, eol)):
        tok = m.group()
        if n and (tok[0] in _OPENS or not tok.strip("-\u2014\u2013")):
            return  # "(", a quote, " - ", " -- ", an em dash
        core = tok.rstrip(_ENDS)
        if not core:
            return
        yield m.start(), core, core != tok
        if core != tok or n >= 32:
            return


def _breaks(word: str, nxt: str | None) -> bool:
    """Whether ``word`` (before ``nxt`` in its clause, if any) starts a new clause
    (see the passphrase comment)."""
    low = word.lower()
    if _listed(low) or low in _TIMES or _TIME_TOKEN.fullmatch(word):
        return True
    if low in _TASKS and nxt is not None:
        return nxt.lower() in _TIMES or bool(_TIME_TOKEN.fullmatch(nxt))
    return False


_FIRST = lazy(r"[^\W\d_]{2,24}[ \t]+[^\W\d_]{2,24}[ \t]")  # where a phrase may start


def phrase_at(text: str, pos: int, prose: bool = False) -> Span | None:
    """The span of a passphrase (see the comment above) that starts at ``pos``, or
    None: then the first word alone may still be a value. After a separator that is
    prose too (``is``, a dash), no word may end like a describing word (-ed, -ing,
    -ly...): "password — reworked login flow"."""
    if not _FIRST.match(text, pos):
        return None  # most values: one token, or a word and punctuation
    tokens = _clause(text, pos)
    token = next(tokens, None)
    words, end = 0, pos
    while token is not None:
        start, word, closed = token
        token = next(tokens, None)
        if _breaks(word, token[1] if token else None):
            break
        plain = bool(_WORD.fullmatch(word))
        if words < 3 and not plain:
            return None  # "hunter2 for the nas": one value and prose
        if prose and word.lower().endswith(_WORDY):
            return None
        words += plain
        end = start + len(word)
        if closed:
            break
    return (pos, end) if words >= 3 else None


def describes(text: str, pos: int) -> bool:
    """Whether the clause at ``pos`` describes a password rather than being one: a
    word of _PHRASE_STOP, or a count, before more words ("expires every 90 days",
    "minimum 12 characters", "12 characters minimum", "3 tries")."""
    tokens = _clause(text, pos)
    head, after = next(tokens, None), next(tokens, None)
    if head is None or after is None:
        return False  # (a token that ends the clause has no token after it)
    first, nxt = head[1], after[1]
    low = first.lower()
    if _WORD.fullmatch(first):
        return _listed(low)
    return counted(first) and nxt.isalpha() and nxt.lower() not in _FUNCS


# a count, ratio, percentage, date or version: 42, 12/15, 95%, 2026-03-10, v2.3.1
_NUMBERISH = lazy(r"[+-]?[vV]?\d[\d.,:/x%+-]*")


def counted(value: str) -> bool:
    """A number that counts or dates (``42``, ``202/202``, ``95%``); six or more
    digits alone may be a code (``83729104``)."""
    return bool(_NUMBERISH.fullmatch(value)) and not (
        value.isdigit() and len(value) >= 6
    )


# a test's name, as test runners print it after PASS or FAIL: test_auth_v2,
# TestLogin, login_test, auth.spec.ts, tests/test_auth.py::test_login[x]
_TEST_NAME = lazy(
    r"(?:[\w.-]+/)*(?:test_\w+|Test[A-Z_]\w*|\w+_(?:test|spec)s?"
    r"|[\w.-]+\.(?:test|spec)\.\w+)(?:\.py)?(?:::[\w\[\].-]+)*"
)


def test_name(value: str) -> bool:
    """Whether ``value`` reads as a test's name (``test_auth_v2``), not a password."""
    return bool(_TEST_NAME.fullmatch(value))


# a ticket or an issue: JIRA-1234, GH-42
# a step of a process, numbered: "pass: round2", "stage2", "phase3"
_STEP_WORDS = "round stage phase step part level iteration attempt try run"
_STEPS = frozenset(_STEP_WORDS.split())
_LABEL_WORD_LIST = "password passwords passwd pass pwd secret token key"
_LABEL_WORDS = frozenset(_LABEL_WORD_LIST.split())
TICKET = lazy(r"[A-Z][A-Z0-9]{1,15}-\d+")
_FOLLOWING = frozenset(_FOLLOWERS.split())


def passlike(value: str) -> bool:
    """A value after a weak label: 6+ characters with a letter and a digit or
    symbol, and no count, version, ticket or hash name (``hunter2``, not
    ``sha256``, ``bcrypt2``, ``sha-512`` or ``JIRA-1234``)."""
    if len(value) < 6 or _NUMBERISH.fullmatch(value) or stopword(value):
        return False
    stem = value.rstrip("0123456789.-_").lower()
    if TICKET.fullmatch(value) or stem in _FOLLOWING or stem in _STEPS:
        return False
    if stem in _NOT_VALUES and stem not in _LABEL_WORDS:
        return False  # "vault2"; but "password1" is a password
    kinds = {kind(c) for c in value}
    return (
        bool(kinds & {0, 1})
        and bool(kinds & {2, 3})
        and plausible(value, "password", False, False)
    )


# What a number counts or measures: after a PIN's digits it makes them a count, a
# size or a port, not a PIN ("code 1200 lines", "4096 byte limit", "1234 PR").
_UNIT_WORDS = """line lines loc ms sec secs second seconds minute minutes hour hours
    day days byte bytes kb mb gb kib mib bit bits request requests rps qps row rows
    item items user users error errors char chars character characters word words
    pr prs port test tests vector vectors example examples"""
_UNITS = frozenset(_UNIT_WORDS.split())
_YEAR = lazy(r"(?:19|20)\d\d")


def not_a_pin(text: str, start: int, end: int) -> bool:
    """Whether the digits at ``start:end`` count or date something rather than
    open it: a unit or count word right after them ("1200 lines", "3000 ms"), a
    year before a word that is no function word ("2024 firmware"), or a port
    named in their clause ("pin: 8080 for the dev server port")."""
    words = [w.lower() for _, w, _ in _clause(text, end)]
    if not words:
        return False
    if words[0] in _UNITS or "port" in words[1:]:
        return True
    nxt = words[0]
    year = bool(_YEAR.fullmatch(text[start:end]))
    return year and nxt.isalpha() and nxt not in _FUNCS and nxt not in _TIMES


# "802.1X", "WPA2-PSK", "AES-256": a standard's number or a protocol's name
_STANDARD = lazy(r"\d{3}\.\d+[A-Za-z]*")


def _named(value: str) -> bool:
    """Whether ``value`` names a protocol or an algorithm (each ``-`` part, digits
    off its end, is one of _FOLLOWERS: ``WPA2``, ``WPA2-PSK``, ``argon2id``, ``SSO``)."""
    if _STANDARD.fullmatch(value):
        return True
    parts = value.lower().split("-")
    known = [p in _FOLLOWING or p.rstrip("0123456789") in _FOLLOWING for p in parts]
    return known[0] and all(k or p.isdigit() for k, p in zip(known, parts, strict=True))


def _state(value: str) -> bool:
    """Whether ``value`` is a word for a state: a past participle of letters
    (``fixed``, ``Deprecated``) or a word of _NOT_VALUES."""
    low = value.lower()
    return value.isalpha() and (low.endswith("ed") or low in _NOT_VALUES)


# Words after which a single word still is a value: where, for what or when it
# applies, or what to do next ("hunter for the nas", "letmein then restart").
_KEEP_WORDS = """for on at in of to from via with by and or then but until till"""
_KEEPS = frozenset(_KEEP_WORDS.split())
_STORES = frozenset(
    ("vault", "keychain", "keyring", "1password", "bitwarden", "lastpass")
)


def sentence(text: str, end: int) -> bool:
    """Whether a word of letters that ends at ``end`` starts a sentence rather than
    being a password: another token follows it in its clause that is no word of
    _KEEPS, task or time ("Mira knows it", "mindestens 12 Zeichen"), or its clause
    says where the password is kept ("lives in the team vault")."""
    words = [w.lower() for _, w, _ in _clause(text, end)]
    if not words:
        return False
    if any(w in _STORES for w in words):
        return True
    nxt = words[0]
    return not (nxt in _KEEPS or nxt in _TASKS or nxt in _TIMES)
