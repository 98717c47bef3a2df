"""What a labelled secret's value looks like (see ``gardener.secretrules``).

``_value_at`` reads the value a label points at (quoted, or a bare run up to a
space); ``_plausible`` tells a value from a placeholder (``see vault``, ``****``,
``${VAR}``, ``str``) or a word of prose; ``_phrase_at`` finds a passphrase of plain
words; ``_passlike`` is the shape a value must have after a label that is prose too
("pass", "password" and a space).
"""

from __future__ import annotations

import re

Span = tuple[int, int]


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


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done the first time the pattern is used."""
    # not typing.cast: importing typing costs ~4 ms of a note's start
    return _Lazy(pattern, flags)  # type: ignore[return-value]


_QUOTES = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "«": "»", "「": "」"}
_TRAIL = ".,;:)]}>'\"`”’»」*"  # sentence/markup punctuation after a bare value
_NEXT_PARAM = lazy(r"[;&][A-Za-z_][\w.-]*=")  # ;Database= or &user= ends it
_REF = lazy(r"\$\{[^}]*\}?|\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%|\$\(.*")
_TYPE = lazy(r"[A-Za-z_][\w.]*\[[\w.,| \[\]]*\]?")  # Optional[str], list[str]
_PATH = lazy(r"(?:~|\.{1,2})?(?:/[\w.-]+){2,}/?")  # /run/secrets/db, ~/.ssh/id
# A bare value: no space, at most 512 chars (bounds the work per label), and no CJK
# or fullwidth char, since CJK prose resumes right after it: 密码是abc，...
_BARE = lazy(
    r"[^\s\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f"
    r"\uff00-\uff60\uffe0-\uffe6\U00020000-\U0003fffd]{1,512}"
)
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


# A passphrase: 3-8 plain words after "password:" (a colon or "="), to the end of
# the line or clause, none a word that describes a password rather than being
# one (the function words, _NOT_VALUES but for the words that judge a single
# value, and _FOLLOWERS) nor an -ed, -ing, -ly... word: "correct horse battery
# staple" is one, "rotated yesterday", "see 1Password", "same as the wifi one",
# "stored in the team vault" are not.
_PHRASE = lazy(
    r"[A-Za-z]{2,24}(?:[ \t][A-Za-z]{2,24}){2,7}"
    r"(?=[ \t]*(?:[.,;!?()|*—–]|-[ \t]|\r?\n|\Z))"
)
_FUNCTION = """the a an in on at of for to from with by via into onto per than as and
    or nor but so yet not no is are was were be being has have had do does did will
    would shall should must can could may might see ask same then it its this that
    these those i me my we us you he him she they them ours yours every each all
    any some none only also still now here there just very too enough until till
    else once twice times"""
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
    sha1 sha224 sha256 sha384 sha512 md5 argon2 argon2i argon2d argon2id bcrypt
    scrypt yescrypt pbkdf2 oauth oauth2 saml2 fido2 totp ntlm ntlmv2 krb5"""
_QUALITIES = {"correct", "incorrect", "wrong", "valid", "invalid", "weak", "strong"}
_PHRASE_STOP = (
    (_NOT_VALUES - _QUALITIES) | set(_FUNCTION.split()) | set(_FOLLOWERS.split())
)


def _stopword(word: str) -> bool:
    """Whether a word says what a password is like or where it is, not what it is."""
    w = word.lower()
    plural = w[:-1] if w.endswith("s") else w
    return w in _PHRASE_STOP or plural in _PHRASE_STOP or w.endswith(_WORDY)


def _phrase_at(text: str, pos: int) -> Span | None:
    """The span of a passphrase (see _PHRASE) that starts at ``pos``, or None."""
    m = _PHRASE.match(text, pos)
    if m is None or any(_stopword(w) for w in m.group().split()):
        return None
    return m.span()


# a count, ratio, percentage, date or version: 42, 12/15, 95%, 2026-03-10, v2.3.1
_NUMBERISH = lazy(r"[+-]?[vV]?\d[\d.,:/x%+-]*")


def _counted(value: str) -> bool:
    """A number that counts or dates (``42``, ``202/202``, ``95%``); six or more
    digits alone may be a code (``83729104``)."""
    return bool(_NUMBERISH.fullmatch(value)) and not (
        value.isdigit() and len(value) >= 6
    )


def _passlike(value: str) -> bool:
    """A value after a weak label: 6+ characters with a letter and a digit or
    symbol, and no count, version or hash name (``hunter2``, not ``sha256``)."""
    if len(value) < 6 or _NUMBERISH.fullmatch(value) or _stopword(value):
        return False
    kinds = {_kind(c) for c in value}
    return (
        bool(kinds & {0, 1})
        and bool(kinds & {2, 3})
        and _plausible(value, "password", False, False)
    )
