"""A value's own evidence, for the evidence scorer (``evidence``): how much its
shape says "secret", given the kind of word it goes with, or None where it is no
value at all.

- ``STRONG``: a password's strong shape (``near.strong``: 8+ characters of three
  classes, no path, version, hash or identifier);
- ``JOINED``: words joined by ``-``, ``_``, ``.`` or ``+`` with a digit, or three
  words or more (``marmot-lantern-1987``, ``correct-horse-battery-staple``);
  ``PAIR``: two words alone (``stroopwafel-zondag``);
- ``DIGITS``: 4-8 digits or dashed groups (``59-21-74``), which count, date or
  number nothing (``values.not_a_pin``): weighed by the word's kind;
- ``RANDOM``: a long run of letters and digits (``4AGZU3PEJRTUKGKTHZLEAXXA2VIOXJ2R``);
- ``WEAK``: a word with digits or symbols (``values.passlike``: ``raspberry42``).

No value (None): a placeholder, a variable or template reference, a path, URL or
e-mail address, a version, a date or a time, a price or a percentage, a ticket,
a hex hash or UUID, a code identifier, a count before a unit word.
"""

from __future__ import annotations

import functools
import re

from gardener.neverstore import credwords as cw
from gardener.neverstore.near import COPULAS as _COPULA_ROWS
from gardener.neverstore.near import IDENT, LOCK_WORDS, NOT_SHAPES, strong
from gardener.neverstore.regex import lazy
from gardener.neverstore.tables import cjk
from gardener.neverstore.tokens import placeholder, public
from gardener.neverstore.values import (
    FUNCS,
    TICKET,
    TIMES,
    classes,
    not_a_pin,
    passlike,
    plausible,
    stopword,
)

STRONG = 4.0
JOINED = 3.5  # words joined, with digits: marmot-lantern-1987
WORDS = 2.5  # three words or more, no digit: correct-horse-battery-staple
PAIR = 2.0  # two words: stroopwafel-zondag
RANDOM = 3.5
WEAK = 2.5
PLAIN = 1.5  # a word of letters ending its clause: Marigold, Rotkehlchen
# digits after a word of each kind: a PIN word's value is digits
DIGITS = {
    "pin": 4.5,
    "lock": 4.5,
    "pass": 3.5,
    "key": 1.5,
    "login": 0.0,
    "network": 0.0,
}
HEX = 3.5  # 32+ hex digits after a key word: an API key (40 or 64: HASHLIKE)
HASHLIKE = 2.0

# "is" and its kin: near's per-language rows, and the languages the tables of
# ``credwords`` add; and "new" before a value ("the new one", "الجديد 9047")
_MORE_COPULAS = """هي هو هى है हैं er nå on je är ist est es è é is είναι este adalah
    là คือ است إلى ל על olarak c'est c’est hai 이게 이건"""
_NEW_WORDS = """new neu neue neuer nouveau nouvelle nuevo nueva nuovo nuova novo nova
    nieuwe nowy nowe nowa ny nya nye uusi новый новая новий нова الجديد الجديدة
    החדש החדשה नया नई"""
COPULAS = frozenset(
    {w for _, row, *_ in _COPULA_ROWS for w in row.split("|")}
    | frozenset(_MORE_COPULAS.split())
    | frozenset(_NEW_WORDS.split())
)
# where a value is kept or whom to ask for it, in the clause: then the clause
# names no value ("steht im Bitwarden-Tresor", "ask Sam for", "frag Jonas")
ELSEWHERE = lazy(
    r"(?i)\b(?:in|im|dans|en|nel|no|na|w|i|в|у)[ \t]+(?:the[ \t]+|der[ \t]+|de[ \t]+)?"
    r"(?:vault|bitwarden|1password|keepass|lastpass|keychain|password[ \t]+manager"
    r"|tresor|coffre)"
    r"|\b(?:ask|frag|demande|chiedi|pregunta|pergunte|vraag|spørg|spør|fråga|kysy"
    r"|zapytaj|zeptej|спроси|запитай|sor)\b"
    r"|问|聞いて|לשאול|اسأل|पूछो"
)
# a network's word in the clause: what a key or a code after it opens
NETWORK = lazy(
    r"(?i)wi-?fi|wlan|ssid|wpa2?|router|hotspot|와이파이|无线|ワイファイ|واي ?فاي"
    r"|וויפי|ויפי|वाईफाई|वाई-फाई"
)
_HEX = lazy(r"(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{32,64}")
# a hash named before the value: its digest, not a key
_HASHED = lazy(
    r"(?i)(?:sha\d*|md5|commit|digest|checksum|fingerprint|hash)\W{0,3}\S*\W{0,3}\Z"
)
_JOIN = lazy(r"[^\W_]+(?:[-+][^\W_]+)+")
_DIGIT_CODE = lazy(
    r"\d{4,8}|\d{1,3}(?:-\d{1,3}){2,3}|\d{2,8}(?:-\d{2,8}){3,9}|\d{4}(?:-\d{4}){2}"
)
_RANDOM = lazy(r"(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{16,}")
# 16-31 hex digits after a key word and its ":" or "=": a short API key
# ("Ключ API = 3e7b0d9f2c514a86"); bare in prose they are a hash
_HEX16 = lazy(r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{16,31}")
# a keypad's code: digits with one or two capitals ("27B41", "4821A")
_KEYPAD = lazy(r"\d{2,}[A-Z]\d{1,}|\d{3,}[A-Z]{1,2}")
# words joined by "_" with a digit, or three of them, in mixed or lower case:
# a password ("mango_sticky_88", "NakhlaDates_2024"), where a separator or a
# quote names it; an identifier in capitals (API_KEY_V2) is none
_SNAKE = lazy(r"[A-Za-z][a-z]+(?:[A-Z][a-z]+)*(?:_[A-Za-z0-9][a-z0-9]*)+")
# what a lock's combination is written after: a date's shape is its code there
# ("Kombination 31-08-77", "συνδυασμός ... 25-11-60")
_LOCKED = lazy(
    r"(?i)(?:combination|combo|kombination|combinaison|combinación|combinazione"
    r"|combinação|kombinace|kombinací|συνδυασμ\w*|safe|tresor|coffre|caja fuerte"
    r"|cassaforte|cofre|trezor|kluis|sejf|сейф\w*|χρηματοκιβώτιο|خزنة|الخزنة"
    r"|金庫|保险箱|금고)"
)
# a date's preposition right before it: "changed on 12-03-26"
_DATED = lazy(
    r"(?i)(?<![^\W\d_])(?:on|am|le|el|il|em|den|op|dne|since|seit|depuis|desde|dal"
    r"|until|bis|till|в|на|с)[ \t]+\Z"
)
# a word of letters right after digits: what they number ("1234 layout"); a
# function word, a time or an opening verb does not
_NOUN_AFTER = lazy(r"[ \t]+([^\W\d_]{3,})(?![\w.:])")
_LAST_WORD = lazy(r"([^\W\d_][\w'’]*)[ \t]*\Z")
_NOT_VALUE = lazy(
    r"(?i)[$%{<\[].*|.*[}>\]]|\d+(?:[.,]\d+)?(?:%|€|\$|£|¥|k|m|gb|mb|kb|ms|s|h|px)"
    r"|[$€£¥]\d.*|\d{1,2}:\d{2}(?::\d{2})?|\d{1,2}/\d{1,2}(?:/\d{2,4})?"
    r"|\d{4}-\d{2}(?!\d)(?:-\d{2}(?!\d))?.*|\d{1,2}\.\d{1,2}\.\d{2,4}|#\d+"
    r"|.*@.*\..*|[0-9a-f]{7,64}|(?:[0-9a-f]{2}:){5,}[0-9a-f]{2}|\*+|x{3,}"
    # brackets, "=", ":" and arrows: code, a pair (its parts are read apart), a flow
    r"|.*[()\[\]{}<>=:\u2190-\u21ff].*|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-.*"
)
# the word before a number that makes it a number of something: "ticket 4821"
_NUMBERED = lazy(
    r"(?i)(?<![^\W\d_])(?:ticket|issue|pr|bug|case|order|build|version|port|line|step|page|room"
    r"|floor|no|nr|number|id|ref|job|run|release|item|task|ext|row|chapter|section"
    r"|rfc|iso|cve|migration|миграция|міграція|ticket|tiket|zgłoszenie|ärende"
    r"|chamado|bilhete|billet|número|nummer|numer|номер|رقم|מספר"
    r"|at|um|à|kl|klo|om|alle|às|в)\W{0,2}$"
)
_UNIT_AFTER = lazy(
    r"[ \t]+(?:zeichen|caract[eè]res|caracteres|caratteri|tekens|znaków|znak[oó]w"
    r"|merkkiä|tegn|tecken|символ\w*|حرف\w*|अक्षर|digits?|chars?|characters|days?"
    r"|tage|jours|días|giorni|dias|dagen|dni|päivää|dage|dagar|дн\w*|minutes?"
    r"|hours?|times?|tries|attempts|versuche|mal|fois|veces|volte)\b",
    re.IGNORECASE,
)


def shape(value: str, kind: str, text: str, start: int, end: int) -> float | None:
    """The evidence of ``value`` (at ``text[start:end]``) for a word of ``kind``
    (``pass``, ``pin``, ``key``): a weight, 0.0 for a plain word, None for no
    value (see the module docstring)."""
    if len(value) < 4 or len(value) > 128:
        return None
    if " " in value:  # a quoted phrase
        return _phrase(value)
    hashed = _HASHED.search(text, max(0, start - 48), start)
    if kind == "key" and _HEX.fullmatch(value) and not hashed:
        return HASHLIKE if len(value) in (40, 64) else HEX
    colon = text[max(0, start - 3) : start].rstrip().endswith((":", "：", "="))
    if kind == "key" and colon and _HEX16.fullmatch(value) and not hashed:
        return HEX
    if placeholder(value) or _NOT_VALUE.fullmatch(value) or TICKET.fullmatch(value):
        return None
    if _UNIT_AFTER.match(text, end):
        return None  # "16 Zeichen", "90 days"
    digits = value[:-1] if value[-1] == "#" and value[:-1].isdigit() else value
    if _DIGIT_CODE.fullmatch(digits):
        if _NUMBERED.search(text, max(0, start - 24), start):
            return None
        dated = _DATED.search(text, max(0, start - 16), start)
        locked = _LOCKED.search(text, max(0, start - 48), start) and not dated
        if _date(value) and not colon and not locked:
            return None  # "changed on 12-03-26"; but "Kombination 31-08-77"
        if (
            _YEAR.fullmatch(value)
            and not colon
            and not (_copula_before(text, start) and _lock_near(text, start))
            and not _word_before(text, start)
        ):
            return None  # a year, unless a colon names it ("kod: 1928"), "is"
            # after a lock's word ("Portkoden är 1945") or the word itself
            # right before it ("kart şifresi 1903")
        noun = _NOUN_AFTER.match(text, end) if kind == "lock" else None
        if noun and not _quiet(noun.group(1).lower()):
            return None  # "the keypad 1234 layout"
        if not_a_pin(text, start, end - len(value) + len(digits)):
            return None
        if sum(c.isdigit() for c in value) >= 16:
            return RANDOM  # a recovery key in groups: 592658-699314-...
        return DIGITS[kind]
    if kind in ("pin", "lock") and _KEYPAD.fullmatch(value):
        return DIGITS[kind]  # "c'est 27B41"
    if _SNAKE.fullmatch(value) and (colon or text[start - 1 : start] in "\"'“«「"):
        parts = value.split("_")
        if not any(stopword(p) or cw_stem(p) for p in parts):
            if any(c.isdigit() for c in value):
                return JOINED
            if len(parts) >= 3:
                return WORDS
    if NOT_SHAPES.fullmatch(value) or IDENT.fullmatch(value):
        return None
    if any(c >= "\u0590" for c in value) or public(text, start, end):
        return None  # prose of a script passwords are not written in; a public key
    mixed = classes(value) >= 3 or (len(value) >= 10 and value.lower() != value)
    if mixed and any(c.isdigit() for c in value) and strong(value):
        return STRONG  # Tq8#vLm2!pZr; Blåbärssylt-42
    if _JOIN.fullmatch(value) and not stopword(value):
        parts = re.split(r"[-_.+]", value)
        words = [p for p in parts if p.isalpha()]
        if any(stopword(p) for p in words):
            return 0.0
        if parts[0].isdigit():
            return None  # "5-day", "64-bit", "3-tier"
        if any(c.isdigit() for c in value) and words:
            return JOINED
        if len(words) >= 3:
            return WORDS
        if len(words) == 2 and all(len(w) >= 4 for w in words):
            return PAIR
        return 0.0
    if _RANDOM.fullmatch(value):
        return RANDOM
    if passlike(value):
        return WEAK
    if value.isalpha() and plain(text, start, end):
        return PLAIN
    return 0.0


_CLAUSE_END = lazy(r"[ \t]*(?:[.,;!?)\]）。，\"”»」']|$|\n)")
_YEAR = lazy(r"(?:19|20)\d\d")


@functools.cache
def _locks() -> re.Pattern[str]:
    words = {w for _, row, *_ in LOCK_WORDS for w in row.split("|")}
    return re.compile(rf"(?i:{'|'.join(sorted(words, key=len, reverse=True))})")


def _lock_near(text: str, start: int) -> bool:
    """Whether a lock's word (``near.LOCK_WORDS``, in a compound too:
    "Portkoden") is in the 64 characters before ``start``."""
    return bool(_locks().search(text, max(0, start - 64), start))


@functools.cache
def _opening() -> frozenset[str]:
    return frozenset(w for _, row in cw.OPEN_WORDS for w in row.split("|"))


def _quiet(word: str) -> bool:
    """A word after a lock's digits that says nothing of them: "for", "then",
    "opens", "now", "Friday"."""
    if cjk(word[0]):
        return True  # a particle or a verb: "4471 で開く"
    return word in FUNCS or word in TIMES or word in COPULAS or word in _opening()


@functools.cache
def _stems() -> re.Pattern[str]:
    words = {
        w for _, kind, row in cw.CRED_WORDS if kind in ("pass", "pin", "lock")
        for w in row.split("|")
    }  # fmt: skip
    return re.compile(rf"(?i:{'|'.join(sorted(words, key=len, reverse=True))})")


def _word_before(text: str, start: int) -> bool:
    """Whether a password's, a PIN's or a lock's word (inflected: "şifresi") is
    the word right before ``start``."""
    m = _LAST_WORD.search(text, max(0, start - 24), start)
    return bool(m and _stems().match(m.group(1)))


def _copula_before(text: str, start: int) -> bool:
    """Whether "is" or its kin stands right before ``start`` ("Portkoden är
    1945", "c'est 1958")."""
    m = _LAST_WORD.search(text, max(0, start - 24), start)
    return bool(m and m.group(1).lower() in COPULAS)


def cw_stem(word: str) -> bool:
    """Whether ``word`` is a credential word itself (``password_2`` is a name)."""
    low = word.lower()
    return any(low in row.split("|") for _, _, row in cw.CRED_WORDS)


_AFTER = frozenset(("olarak", "als", "comme", "como", "come", "som"))  # "as"
_NEXT_WORD = lazy(r"[ \t]+([^\W\d_]+)")


def plain(text: str, start: int, end: int) -> bool:
    """A single word of letters that could be a password: 4+ letters, no word
    of prose about passwords (``values.plausible``), and its clause ends after
    it, or a verb, a copula or a CJK particle follows ("auf Eisvogel gesetzt",
    "Lokum olarak değiştirdim", "Mochi に変更")."""
    value = text[start:end]
    if len(value) < 4 or stopword(value) or value.lower() in TIMES:
        return False  # "rotated on Monday"
    if not _CLAUSE_END.match(text, end):
        after = _NEXT_WORD.match(text, end)
        word = after.group(1) if after else ""
        if not (cjk(word) or word.lower() in _AFTER or changes().fullmatch(word)):
            return False
    return plausible(value, "password", True, False)


@functools.cache
def changes() -> re.Pattern[str]:
    """A verb of ``credwords.CHANGE_WORDS``, as a word (CJK ones anywhere)."""
    words = {w for _, row in cw.CHANGE_WORDS for w in row.split("|")}
    alts = "|".join(sorted(words, key=len, reverse=True))
    east = "|".join(sorted((w for w in words if cjk(w)), key=len, reverse=True))
    return re.compile(rf"(?i)(?<![^\W\d_])(?:{alts})(?![^\W\d_])|{east}")


PHRASE = 3.0  # a quoted passphrase: 'tangerine lobby velvet 42'


def _phrase(value: str) -> float | None:
    """A quoted phrase's evidence: three words or more, or words with a digit,
    none of them a describing word."""
    words = value.split()
    if any(stopword(w) for w in words) or any(not w.isalnum() for w in words):
        return None
    digits = any(c.isdigit() for c in value)
    return PHRASE if len(words) >= 3 or digits else None


def _date(value: str) -> bool:
    """Whether dashed digits read as a date: dd-mm-yy(yy) or yy(yy)-mm-dd."""
    parts = value.split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return False
    a, b, c = (int(p) for p in parts)
    if len(parts[0]) == 4:
        return 1 <= b <= 12 and 1 <= c <= 31
    return len(parts[2]) in (2, 4) and 1 <= a <= 31 and 1 <= b <= 12
