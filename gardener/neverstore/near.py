"""Near a credential word: a value a few words after a password, PIN or lock word.

The label rules (``labels``, ``frames``, ``doors``) read a value in the word
order each language's grammar allows; a phrasing they lack (``ssh password for
the pi in the hallway is raspberry42``, ``das neue Kennwort gesagt: x``,
``lösenordet till NAS:en är x``, ``PIN do karty firmowej 9147``) goes through.
This frame asks less of the grammar and more of the value:

- after a password or PIN word of any language's table (``labels``), maybe
  inflected (``lösenordet``, ``şifresini``, ``hesla``), up to six words of its
  clause, a token of a password's strong shape: 8+ characters of three of
  lower case, upper case, digits and symbols (``Harbor!Light2026``,
  ``alg-skog-2026``), that is no path, URL, e-mail, version, date, hash, code
  identifier or variable name; or, right after ``:``, ``=``, an arrow or a
  word of ``COPULAS`` ("is" and "to" in the languages of the tables), the
  weaker shape of ``values.passlike`` (``raspberry42``);
- after such a word, up to four words, 4-8 digits (or digits in dashed groups:
  ``19-42-07``) that count or date nothing (``values.not_a_pin``), no year,
  no ticket or port number: a PIN (``kredi kartı şifresi 3391``);
- after a lock word (``LOCK_WORDS``: door, alarm, safe, Tresor, alarme,
  porta...), then a code word or a verb that disarms or opens (``CODE_VERBS``)
  within a few words, the digits of a code (``Alarmanlage im Büro: Code
  61840``, ``l'alarme se désactive avec 3815``).
"""

from __future__ import annotations

import re

from gardener.neverstore.doors import CODE_WORDS
from gardener.neverstore.labels import BOUND, PASSWORD_LABELS, PIN_LABELS
from gardener.neverstore.regex import Span, lazy
from gardener.neverstore.tables import alts, cjk, words_of
from gardener.neverstore.tokens import placeholder
from gardener.neverstore.values import (
    TICKET,
    counted,
    not_a_pin,
    passlike,
    plausible,
    stopword,
)

# Words after which a value may come with a weaker shape: "is", "to" and their
# kin per language (a row each: ``tables``)
COPULAS = (
    ("en", r"is|was|now|to|became"),
    ("de", r"ist|lautet|war|auf|jetzt|nun|gesagt"),
    ("fr", r"est|était|désormais|en|par|devient"),
    ("es", r"es|era|a|por|ahora"),
    ("it", r"è|era|in|ora|adesso"),
    ("pt", r"é|era|para|agora"),
    ("nl", r"is|was|naar|nu|wordt"),
    ("pl", r"jest|to|na|teraz"),
    ("cs", r"je|na|zní|bylo|teď"),
    ("sv", r"är|till|blev|nu"),
    ("da", r"er|til|blev|nu"),
    ("fi", r"on|oli|nyt"),
    ("tr", r"olarak|artık"),
    ("ru", r"это|на|теперь"),
    ("uk", r"це|на|тепер|є"),
)
_COPULAS = frozenset(w for _, row in COPULAS for w in row.split("|"))
# A lock's or a door's word, per language: what a code opens
LOCK_WORDS = (
    ("en", r"door|gate|garage|alarm|safe|locker|keypad|padlock|lockbox|intercom"),
    ("de", r"tür|haustür|tor|alarmanlage|alarm|tresor|safe|garage|tiefgarage"),
    ("fr", r"porte|portail|alarme|coffre|cadenas|interphone|digicode"),
    ("es", r"puerta|portal|alarma|caja[ \t]+fuerte|candado|garaje"),
    ("it", r"porta|portone|allarme|cassaforte|lucchetto|cancello|citofono"),
    ("pt", r"porta|portão|alarme|cofre|cadeado|garagem"),
    ("nl", r"deur|poort|alarm|kluis|garage"),
    ("pl", r"drzwi|brama|alarm|sejf|domofon"),
    ("cs", r"dveře|dveří|brána|alarm|trezor"),
    (
        "sv",
        r"dörr(?:en)?|port(?:en)?|larm(?:et)?|kassaskåp(?:et)?",
        "dörr port larm kassaskåp",
    ),
    ("tr", r"kapı|alarm|kasa|garaj"),
    ("ru", r"двер[ьи]|домофон\w{0,2}|сейф\w{0,2}|сигнализаци\w{1,2}|калитк\w"),
    ("zh", r"保险柜|保险箱|门禁|门锁|大门"),
    ("ja", r"オートロック|金庫|ドア|玄関"),
    ("ko", r"현관|도어락|금고"),
)
# What a code is called, or a verb that opens or disarms with it
CODE_VERBS = (
    ("en", r"code|combo|combination|pin|disarms?|opens?|unlocks?"),
    ("de", r"code|pin|entsperr\w*|öffne\w*|deaktivier\w*|entschärf\w*"),
    ("fr", r"code|désactive|ouvre|déverrouille"),
    ("es", r"código|clave|desactiva|abre"),
    ("it", r"codice|disattiva|apre|sblocca"),
    ("pt", r"código|desativa|abre"),
    ("nl", r"code|opent|ontgrendelt"),
    ("pl", r"kod|otwiera"),
    ("cs", r"kód|otevírá"),
    ("sv", r"kod|koden|öppnar"),
    ("tr", r"kodu|şifresi|açar"),
    ("ru", r"код|открывает"),
    ("zh", r"密码|号码"),
    ("ja", r"番号|暗証番号|コード"),
    ("ko", r"비밀번호|번호"),
)
_CODE_VERBS = lazy(rf"(?i:{alts(CODE_VERBS)})")

# a network's key, in the languages of the labels: "WLAN-Schlüssel", "clé wifi",
# "clave del wifi", "wifi-sleutel"
WIFI_KEYS = (
    ("en", r"(?:wi-?fi|wlan|wpa2?)[ \t-]?(?:key|passkey)", "wifi wi-fi wlan wpa wpa2"),
    ("de", r"(?:wlan|wifi)-?schl(?:ü|ue)ssel", "wlan wifi"),
    ("fr", r"cl(?:é|e)[ \t]+(?:du[ \t]+|de[ \t]+la[ \t]+)?(?:wi-?fi|wpa)", "clé cle"),
    ("es", r"clave[ \t]+(?:del[ \t]+|de[ \t]+la[ \t]+)?(?:wi-?fi|wlan)", "clave"),
    ("it", r"chiave[ \t]+(?:del[ \t]+)?(?:wi-?fi|wlan)", "chiave"),
    ("pt", r"chave[ \t]+(?:do[ \t]+|da[ \t]+)?(?:wi-?fi|rede)", "chave"),
    ("nl", r"(?:wifi|wlan)-?sleutel", "wifi wlan"),
    ("sv", r"(?:wifi|wlan)-?nyckel(?:n)?", "wifi wlan"),
    ("pl", r"klucz[ \t]+(?:do[ \t]+)?(?:wi-?fi|sieci)", "klucz"),
    ("cs", r"klíč[ \t]+(?:k[ \t]+|od[ \t]+)?(?:wi-?fi|síti)", "klíč"),
)
_LABELS = (*PASSWORD_LABELS, *PIN_LABELS, *WIFI_KEYS)
# a password or PIN word, maybe inflected ("lösenordet", "şifresini", "hesla")
NEAR = (
    rf"(?:{BOUND}(?i:{alts(_LABELS, False)})(?:[^\W\d_]{{0,4}})(?![\w])"
    rf"|(?:{alts(_LABELS, True)}))"
)
NEAR_WORDS = words_of(_LABELS)
LOCK = (
    rf"(?:{BOUND}(?i:{alts(LOCK_WORDS, False)})(?![\w])|(?:{alts(LOCK_WORDS, True)}))"
)
LOCK_ROUTE = words_of(LOCK_WORDS)
# a door code's own word ("portkod", "Torcode", ``doors.CODE_WORDS``), then the
# digits within four words: "portkod till gården 3471"
DOOR = rf"(?:(?<![\w.])|(?<=[\u2e80-\u9fff]))(?i:{alts(CODE_WORDS)})(?![\w])"
DOOR_ROUTE = words_of(CODE_WORDS)
# "pass" alone, a word of prose too, before a value of the strong shape:
# "user jkim, pass Winter2026!", "CoffeeShop5G / pass latte4ever!", "and the
# pass is Trellis%Moon7"
PASS = (
    r"(?:(?<=[,/;|][ \t])|(?<=[,/;|])|(?<=(?i:the)[ \t]))(?i:pass|pw|pwd)(?![\w-])"
    r"(?:[ \t]+(?i:is|was)|[ \t]*:)?[ \t]+"
)

_TOKEN = lazy(r"[^\s]+")
_END = ".,;:?)]}>\"'`”’»」*"  # trailing punctuation, off a token's end ("!" kept)
_CLOSE = ".,;!?"  # after a word: the clause ends
_OPEN = "([{<\"'`“‘«「*"
_DIGITS = lazy(r"\d{4,8}|\d{1,3}(?:-\d{1,3}){2,3}|\d(?:-\d){3,7}")
NOT_SHAPES = lazy(
    r"(?i)[a-z][a-z0-9+.-]*://.*|[\w.+-]+@[\w-]+\.[\w.-]+|(?:~|\.{1,2})?/.*"
    r"|v?\d+(?:\.\d+)+[\w.+-]*|\d{4}-\d{2}-\d{2}.*|[0-9a-f]{7,64}"
    r"|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}"
    r"|\.?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?|\w+\(\)|[\w.]+::\w+"
    r"|[$%{<].*|.*\.(?:py|js|ts|md|json|ya?ml|toml|txt|sh|cfg|ini|conf|env)"
    r"|sha\d+:.*|(?:md5|sha\d*)[:=-].*|.*\(\)?"
    # an image and its tag, a host and its port: postgres:16, redis:7.2-alpine
    r"|[a-z][\w.-]*:\d[\w.-]*"
)
# capitals, digits and "_" alone (API_KEY_V2), or snake_case and camelCase of
# two or more words (reset_password_v2, getPassword2): code, not a value; but
# camelCase words with three digits or more after them are a password's
# (pebbleShore2024): a name in code numbers a version with one or two
IDENT = lazy(
    r"[A-Z0-9]+(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)+"
    r"|[a-z]+(?:[A-Z][a-z]+)+(?:[A-Z]?\d{1,2})?"
    r"|(?:[A-Z][a-z]+){2,}(?:[A-Z]?\d{1,2})?"
)
# words after which digits are a number of something else
_NUMBERED_WORDS = """ticket issue pr bug case order build version port line lines step
    page room floor no nr number id ref job run release item task ext extension
    row col column table chapter section rfc iso cve"""
_NUMBERED = frozenset(_NUMBERED_WORDS.split())


def ticket(value: str) -> bool:
    """A ticket's or an issue's name: JIRA-1234."""
    return bool(TICKET.fullmatch(value))


_PIN_WORDS = ("pin", "puk", "пин", "пін")
_HARDWARE_WORDS = "gpio header pcb chip connector jumper socket board"
_HARDWARE = frozenset(_HARDWARE_WORDS.split())


_STORE_WORDS = frozenset(
    [
        "vault",
        "bitwarden",
        "1password",
        "keepass",
        "keepassxc",
        "lastpass",
        "keychain",
        "tresor",
    ]
)


def strong(value: str) -> bool:
    """A password's strong shape (see the module docstring)."""
    if len(value) < 8 or len(value) > 64 or NOT_SHAPES.fullmatch(value):
        return False
    if IDENT.fullmatch(value) or "/" in value or counted(value) or ticket(value):
        return False
    if any("\u2e80" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7a3" for c in value):
        return False  # a CJK clause run together: "在1Password里，别写在笔记里"
    lower = any(c.islower() for c in value)
    upper = any(c.isupper() for c in value)
    digit = any(c.isdigit() for c in value)
    symbol = any(not c.isalnum() for c in value)
    if lower + upper + digit + symbol < 3 or not (lower or upper):
        return False
    if any(p.lower() in _STORE_WORDS for p in re.split(r"[-_.]", value)):
        return False  # "Bitwarden-Tresor": where a password is kept
    letters = "".join(c for c in value if c.isalpha())
    if stopword(value) or (letters and stopword(letters) and len(letters) > 5):
        return False  # "1Password", "Passwords2"
    return plausible(value, "password", False, False) and not placeholder(value)


def _tokens(text: str, pos: int, most: int) -> list[tuple[int, int, str, bool]]:
    """Up to ``most`` tokens of the clause after ``pos``: (start, end without
    trailing punctuation, the token so cut, whether punctuation ended the clause
    there)."""
    # the clause ends with the line: a token never holds a line break, so a
    # break between the last token and this one ends it (the line's end is
    # not looked for, so a megabyte line costs only the tokens read)
    out = []
    last = pos
    for m in _TOKEN.finditer(text, pos):
        if text.find("\n", last, m.start()) >= 0:
            break
        last = m.end()
        tok = m.group()
        start = m.start()
        if tok[0] in ":=：" and len(tok) > 1:  # "password=x" read from "="
            tok, start = tok.lstrip(":=："), start + len(tok) - len(tok.lstrip(":=："))
        if tok and tok[0] in _OPEN and len(tok) > 1:
            tok, start = tok[1:], start + 1
        if not tok:
            continue
        cut = min((i for i in (tok.find(";"), tok.find("|"), tok.find("&")) if i > 0),
                  default=len(tok))  # fmt: skip
        tok = tok[:cut]  # "Blu3Whale;Database=app": a parameter ends there
        core = tok.rstrip(_END)
        # a "!" at the end is kept ("Winter2026!") and ends the clause
        closed = any(c in _CLOSE for c in tok[len(core) :]) or core.endswith("!")
        if not core and tok in (":", "=", "：", "→", "->", "=>"):
            continue  # "chez mamie : x"
        if core:
            out.append((start, start + len(core), core, closed))
        if closed or len(out) >= most or tok in "—–-" or not core:
            break
        if len(out) > 1 and m.group()[0] in "([{（":
            out.pop()  # an aside: "pin (DANE RFC 6698)"
            break
        if m.group()[0] in "{$%<[|`":
            out.pop()  # a template or a variable: "{{ .Values.Password }}"
            break
    return out


def _after_separator(text: str, start: int, previous: str | None) -> bool:
    """Whether the token at ``start`` comes right after ``:``, ``=``, an arrow
    or a copula."""
    before = text[max(0, start - 3) : start].rstrip()
    if before.endswith((":", "=", "：", "->", "→", "=>")):
        return True
    return previous is not None and previous.lower() in _COPULAS


def _pin(text: str, start: int, end: int, previous: str | None) -> bool:
    value = text[start:end]
    if not _DIGITS.fullmatch(value) or (previous or "").lower() in _NUMBERED:
        return False
    if text[start - 1 : start] in "#№" and start:
        return False
    if value.isdigit() and re.fullmatch(r"(?:19|20)\d\d", value):
        return False  # a year: "passwords rotated in 2024"
    return not not_a_pin(text, start, end)


def near(text: str, m: re.Match[str]) -> Span | None:
    """The value a few words after a password or PIN word, if one has a
    password's or a PIN's shape (see the module docstring)."""
    after = text[m.end() : m.end() + 1]
    if after and not (after.isspace() or after in ":=：" or cjk(after)):
        return None  # "PIN-Eingabe": a compound, not a label
    label = m.group()
    pin = label.lower().startswith(_PIN_WORDS) or "PIN" in label.upper()
    if pin and label[:3] == "pin":
        return None  # "pin numpy==1.26", "pin 4096 pages": a verb, a header's pin
    before = text[max(0, m.start() - 24) : m.start()].split()
    if before and before[-1].lower() in _HARDWARE:
        return None  # "GPIO PIN 1234"
    previous: str | None = None
    for i, (start, end, tok, _) in enumerate(_tokens(text, m.end(), 9)):
        if i <= 4 and _pin(text, start, end, previous):
            return (start, end)
        if pin:
            previous = tok
            continue  # a PIN is digits
        if i <= 6 and strong(tok):
            return (start, end)
        weak = passlike(tok) and any(c.isdigit() for c in tok)
        shaped = not IDENT.fullmatch(tok) and not NOT_SHAPES.fullmatch(tok)
        if weak and shaped and _after_separator(text, start, previous):
            return (start, end)
        previous = tok
    return None


def lock(text: str, m: re.Match[str]) -> Span | None:
    """The digits of a code after a lock word and a code word or an opening verb
    (before the lock word too: "combination for the filing cabinet safe is x")."""
    line = text.rfind("\n", max(0, m.start() - 40), m.start()) + 1
    coded = bool(_CODE_VERBS.search(text, max(line, m.start() - 40), m.start()))
    previous: str | None = None
    for start, end, tok, _ in _tokens(text, m.end(), 8):
        if coded and _pin(text, start, end, previous):
            return (start, end)
        coded = coded or bool(_CODE_VERBS.fullmatch(tok) or _CODE_VERBS.search(tok))
        previous = tok
    return None


def door(text: str, m: re.Match[str]) -> Span | None:
    """The digits within four words after a door code's own word."""
    previous: str | None = None
    for start, end, tok, _ in _tokens(text, m.end(), 5):
        if _pin(text, start, end, previous):
            return (start, end)
        previous = tok
    return None


def bare_pass(text: str, m: re.Match[str]) -> Span | None:
    """The value right after ``pass``, if it has the strong shape."""
    got = _tokens(text, m.end(), 1)
    if not got or got[0][0] != m.end():
        return None
    start, end, tok, _ = got[0]
    return (start, end) if strong(tok) else None


# a line of ~/.pgpass, host:port:database:user:password, after "pgpass"
PGPASS = (
    r"(?i:pgpass)(?![\w-])[^\n]{0,40}?(?<![\w.-])[\w.*-]+:(?:\d{1,5}|\*):[^\s:]+:[^\s:]+:"
    r"(?P<value>[^\s:]+)"
)


def pgpass(text: str, m: re.Match[str]) -> Span | None:
    """The password field of a ``.pgpass`` line, if it is one."""
    s, e = m.span("value")
    return (s, e) if plausible(text[s:e], "password", False, True) else None
