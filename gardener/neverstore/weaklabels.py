"""Labels that need a second clue: words that are prose too.

A word such as ``pass``, ``PIN`` or ``password`` and a space is a label only beside
a second clue: a word before it, the start of a field, a command before it.

- ``key`` after a network word (wifi, WLAN, WPA2, router...) is a password, as
  ``pass`` is after a credential word (``wifi key is hunter22``).
- ``pass``: after a credential word (``wifi pass x``, ``user/pass: x``, ``vault
  pass: x``), or where a field starts, before ``:`` or ``=``, with a value of 6+
  characters with a letter and a digit or symbol (``pass: hunter2``); ``pass the
  salt``, ``boarding pass 12B``, ``first pass: extract``, ``Pass: 42`` pass, and so
  does a field whose value is a test's name (``PASS: test_auth_v2``).
- ``password``, ``passwd`` or ``pwd`` and a space alone: such a value where it ends
  its clause (``password hunter2``, ``pwd hunter2 for the nas``; not ``password
  bcrypt2``, ``password JIRA-1234``), or anywhere after a credential word (``wifi
  password hunter2``); after "with", "using" or "via", one word of 6+ characters
  that ends the clause and is no stopword (``with password letmein``, not ``with
  password reset``).
- a password is no protocol or algorithm name (``WPA2``, ``802.1X``, ``SSO``), no
  state word (``fixed``, ``done``), and no numbered step, vault or app part
  (``pass: round2``, ``login admin / settings2``).
- ``PIN``, ``PIN code``, ``passcode``, and ``pin`` after ``door``, ``card``, ``my``...:
  4-8 digits after a space (not ``GPIO pin 17``, ``pin 4096 pages``).
- ``code`` or ``combo`` after what it unlocks (door, gate, garage, alarm, safe, lock,
  padlock, keypad, locker, entry, access...): 4-8 digits, maybe after ``#`` or split
  by dashes (``door code 4829``, ``gate code #4821``, ``door code is 4-8-2-9``; not
  ``error code 4829``, ``zip code 90210``), or a keypad's ``4B21``
  (``doors.door_value``); ``for the office`` may come before ``:`` or ``is``; a
  lock that names itself (``keypad``, ``padlock``, ``lockbox``) needs no word
  before it when ``:`` or ``is`` follows.
- a PIN's digits are no PIN when they count or date something: a unit or count word
  follows them (``code 1200 lines``), they are a year before a word (``code 2024
  firmware``), or their clause names a port.
- ``set/change/reset/update [the wifi] password [for x] to y``: y quoted, a
  passphrase or of the ``pass`` shape above (not ``set password to expire``).
- ``login user / x``, ``creds: user / x``: x of the ``pass`` shape above, and the
  user no part of an app (``login page / dashboard2`` is a note).
- ``-pX`` after ``mysql``, ``mysqldump``, ``mariadb``...; ``-p x`` after ``sshpass``.
"""

from __future__ import annotations

import re

from gardener.neverstore.doors import VALUE, door_value
from gardener.neverstore.labels import ASSIGN, VERB
from gardener.neverstore.regex import ALNUM_ASCII, Span, lazy
from gardener.neverstore.values import (
    counted,
    describes,
    not_a_pin,
    passlike,
    phrase_at,
    plausible,
    stopword,
    test_name,
    value_at,
)

# A word that is prose too ("pass", "PIN", "password" and a space) is a label only
# beside a second clue: a word before it, the start of a field, a command before it.

# Where or for what a credential is: "wifi pass", "root password", "user/pass".
_CRED_WORDS = """wifi wi-fi wlan router modem admin administrator root sudo login user
    username account db database mysql postgres ssh sftp ftp smtp imap email e-mail
    mail vpn server nas console portal vault"""
_CREDS = frozenset(_CRED_WORDS.split())
# where a field starts: the line's start (past indentation, quote and list markers,
# and an entry's time, kind and key: "- 10:00 fact: **wifi**: ") or after ",", ";",
# "|", "/", "(": "- Pass: x", "user: admin, pass: x"
_LINE_LEAD = lazy(
    r"[ \t>]*(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+)?(?:\d{1,2}:\d{2}[ \t]+)?"
    r"(?:[A-Za-z]+:[ \t]+)?(?:\*\*[^*\n]{1,64}\*\*:?[ \t]+)?[*_\"'`]{0,2}"
)
_FIELD_AFTER = lazy(r"[,;|/({\[][ \t]*[*_\"'`]{0,2}\Z")


def _head(text: str, pos: int) -> tuple[str, bool]:
    """Up to 64 characters of ``pos``'s line before it, and whether they are all
    of what comes before it on its line."""
    lo = max(0, pos - 64)
    line = text.rfind("\n", lo, pos)  # not further back: a line may be a megabyte
    return text[line + 1 if line >= 0 else lo : pos], line >= 0 or lo == 0


def _word_before(head: str, skip: str) -> tuple[str, str]:
    """The word (ASCII letters, digits, "-") that ends ``head`` once ``skip``
    characters are off its end, lowercased, and what comes before that word."""
    rest = head.rstrip(skip)
    cut = len(rest.rstrip(ALNUM_ASCII + "-"))
    return rest[cut:].lower(), rest[:cut]


# "pass" and, with a space alone, "password": a label after a credential word
# ("wifi pass hunter2", "root password P@ss-word": a value of passlike shape after
# a space, any value after ":" or "is"); a bare "pass" also where a field starts,
# before ":" or "=" and a passlike value ("pass: hunter2", "user: x, pass: ..."),
# so "pass the salt", "boarding pass 12B", "first pass: extract" and "Pass: 42"
# stay prose.
# a network's key is its password: "wifi key is hunter22", "WPA2 key: x"
_WIFI_WORDS = "wifi wi-fi wlan wpa wpa2 wpa3 wep router hotspot network"
_WIFI = frozenset(_WIFI_WORDS.split())
_NAMED = lazy(r"[ \t]*\([^()\n]{1,40}\)[ \t]*\Z")
WEAK_PASSWORD = (
    r"(?<![\w.])(?P<word>(?i:pass(?:word|wd)?|pwd|key))(?![\w-])[*_\"'`]{0,2}"
    rf"(?P<sep>[ \t]*{ASSIGN}[*_]{{0,2}}[ \t]*"
    rf"|[ \t]+(?i:{VERB})(?:[ \t]*[:：][ \t]*|[ \t]+)|[ \t]+)"
)


def weak_password(text: str, m: re.Match[str]) -> Span | None:
    """The value after ``pass``, ``key`` or ``password`` and a space, if a second
    clue makes the word a label (see the comment above)."""
    sep = m.group("sep")
    strong = any(c in ":=：" for c in sep)
    word = m.group("word").lower()
    bare, key = word == "pass", word == "key"
    if not (bare or key) and sep.strip():
        return None  # "password: x", "password is x": the password rule's
    head, whole = _head(text, m.start())
    # a name in brackets between the word and the label: "wifi (HomeNet-5G) key"
    named = _NAMED.sub("", head)
    cred = _word_before(named, " \t/-*_`")[0] in (_WIFI if key else _CREDS)
    if key and not cred:
        return None
    field = bare and strong and not cred
    if field and not (
        _FIELD_AFTER.search(head) or whole and _LINE_LEAD.fullmatch(head)
    ):
        return None
    alone = not (bare or cred or sep.strip())  # "password hunter2", "pwd hunter2"
    if not (cred or field or alone):
        return None
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    value = text[start:end]
    if alone:  # a password's shape, and the clause ends: not "password e2e-tests ok";
        # letters and digits alone are a password whatever follows ("password
        # hunter2 Mira said deploy friday")
        ok = (
            value[0] != "|"  # a table's next cell: the table rule's
            and passlike(value)
            and (
                bool(_CLAUSE_END.match(text, end + quoted))
                or (
                    value.isalnum()
                    and any(c.isdigit() for c in value)
                    and any(c.isalpha() for c in value)
                )
            )
        )
    elif quoted:
        ok = plausible(value, "password", not strong, True)
    elif field:  # not a test result: "PASS: test_auth_v2"
        ok = passlike(value) and not test_name(value)
    elif not sep.strip():
        ok = passlike(value)
    elif describes(text, start):
        return None
    else:  # "wifi pass: x", "wifi pass is x"
        phrase = phrase_at(text, start, not strong)
        if phrase:
            return phrase
        ok = plausible(value, "password", not strong, False)
        ok = ok and not (strong and counted(value))
    return (start, end) if ok else None


# "with password letmein": after "with", "using" or "via" (and maybe "the", "root"
# ...), a password label and a space, one word of 6+ characters that ends the
# clause (the line, a punctuation mark, or "for/on/to/at/in/from ...") and is no
# stopword: "with password authentication", "with password reset." stay prose.
WITH_PASSWORD = r"(?<![\w.])(?i:password|passwd|pwd|passphrase)(?![\w-])[ \t]+"
_WITH = frozenset(("with", "using", "via", "use"))
_FILLER_WORDS = "the a an my its his her their our your this that new old same default"
_FILLERS = _CREDS | frozenset(_FILLER_WORDS.split())
_CLAUSE_END = lazy(
    r"[\"'`*)\]]*(?:[.,;:!?][ \t\r]|[.,;:!?]?[ \t]*(?:\r?\n|\Z)"
    r"|[ \t]+(?:for|on|to|at|in|from)(?![\w-])|[ \t]+(?:[(\[—–]|-[ \t]))"
)


def with_password(text: str, m: re.Match[str]) -> Span | None:
    """The one word after ``with/using/via [the] password``, if it is a value."""
    word, rest = _word_before(_head(text, m.start())[0], " \t")
    if word in _FILLERS:
        word = _word_before(rest, " \t")[0] if rest[-1:] in " \t" else ""
    if word not in _WITH:
        return None
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    value = text[start:end]
    if quoted:
        ok = plausible(value, "password", True, True)
    else:
        ok = (
            len(value) >= 6
            and not stopword(value)
            and not counted(value)
            and plausible(value, "password", False, False)
            and bool(_CLAUSE_END.match(text, end))
        )
    return (start, end) if ok else None


# "set password to hunter2", "changed the wifi password to purple monkey dishwasher":
# a verb that gives a password its value, up to two words, the label, maybe "for
# ...", and "to"; the value is quoted, a passphrase or of passlike shape, so "set
# password to expire" and "reset password to default" stay prose.
SET_PASSWORD = (
    r"(?<![\w.])(?i:set|change[ds]?|resets?|updated?s?)(?![\w-])"
    r"(?:[ \t]+[\w'\u2019-]{1,24}){0,2}?[ \t]+"
    r"(?i:password|passwd|pwd|passphrase|pass)(?![\w-])"
    r"(?:[ \t]+(?i:for)(?:[ \t]+[^\s:=：|]{1,40}){1,4}?)?[ \t]+(?i:to)[ \t]+"
)


def set_password(text: str, m: re.Match[str]) -> Span | None:
    """The value a ``set ... password ... to`` gives: quoted, a passphrase or passlike."""
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    if quoted:
        ok = plausible(text[start:end], "password", True, True)
        return (start, end) if ok else None
    phrase = phrase_at(text, start)
    if phrase:
        return phrase
    return (start, end) if passlike(text[start:end]) else None


# "door PIN 4829", "passcode 918273": a PIN label, a space and 4-8 digits. "PIN",
# "PIN code" and "passcode" will do; a lowercase "pin" (to pin, a header's pin)
# needs a word for what the PIN opens or whose it is before it ("door pin 4829",
# "my pin 0917"); "GPIO pin 17", "pin 4096 pages" stay prose.
PIN_SPACED = (
    r"(?<![\w.])(?P<label>(?i:pin(?:[ _-]?(?:code|number))?|pass[ _-]?code|puk))"
    r"(?![\w-])[ \t]+(?P<value>\d{4,8})(?![\w%]|[.,:/-]\d)"
)
# what a PIN opens or whose it is; what has pins that are no PIN
_PIN_OF_WORDS = """door card debit credit bank atm sim phone alarm safe lock gate garage
    voicemail keypad locker my your his her our their"""
_PIN_OF = frozenset(_PIN_OF_WORDS.split())
_HARDWARE_WORDS = "gpio header pcb chip connector jumper socket board"
_HARDWARE = frozenset(_HARDWARE_WORDS.split())


def pin_spaced(text: str, m: re.Match[str]) -> Span | None:
    """The digits after a PIN label and a space, if the label is one (``door pin``)."""
    word = _word_before(_head(text, m.start())[0], " \t")[0]
    label = m.group("label")
    if word in _HARDWARE:
        return None
    if label.lower() == "pin" and label != "PIN" and word not in _PIN_OF:
        return None
    s, e = m.span("value")
    return None if not_a_pin(text, s, e) else (s, e)


# "door code 4829", "alarm code: 4829", "safe combination is 12-34-56": "code" after
# a word for what it unlocks, then a space, ":", "=" or "is" and 4-8 digits (or a
# dial's 3-4 numbers joined by "-") ("error code 4829", "zip code 90210"
# and "verification code" stay notes: they open nothing). Before ":" or "is",
# a few words may say which door ("the door code for the office is 2580"); a
# lock that is its own label ("keypad: 8-1-4-4", "bike padlock 4821") needs no
# word before it when ":" or "is" follows it ("keypad 1234 layout" is prose). The value is ``doors.door_value``'s (a keypad's "4B21" too).
CODE_PIN = (
    r"(?<![\w.])(?P<label>(?i:code|combo|combination|keypad|padlock|lockbox|keysafe))"
    r"(?![\w-])[*_\"'`]{0,2}"
    r"(?:(?:[ \t]+(?i:for|of|to|at|on)(?:[ \t]+[^\s:=,;.!?]{1,24}){1,3}?)?"
    r"(?P<sep>[ \t]*[:=][*_]{0,2}[ \t]*|[ \t]+(?i:is|was)[ \t]+(?:[:][ \t]*)?)"
    r"|[ \t]+)#?"
    r"(?P<value>\d{1,2}(?:-\d{1,2}){2,3}(?![\w%]|[.,:/-]\d)|"
    + VALUE.removeprefix("(?P<value>")
)
CODE_PIN_WORDS = "code combo combination keypad padlock lockbox keysafe"
_UNLOCKS_WORDS = """door doors gate garage alarm safe lock unlock padlock keypad locker
    lockbox entry access bike disarm arming"""
_UNLOCKS = frozenset(_UNLOCKS_WORDS.split())
_SELF_NAMED = frozenset(("keypad", "padlock", "lockbox", "keysafe"))


def code_pin(text: str, m: re.Match[str]) -> Span | None:
    """The value after ``code`` or ``combo``, if a word before says what it
    unlocks, or after a lock that is its own label (``keypad``)."""
    word = _word_before(_head(text, m.start())[0], " \t*_`")[0]
    s, e = m.span("value")
    self_named = m.group("label").lower() in _SELF_NAMED and m.group("sep")
    opens = word in _UNLOCKS or self_named
    return (s, e) if opens and door_value(text, s, e) else None


# "login admin / s3cretP@ss", "creds: admin / hunter2": a login or credential
# label, a user, "/" and a passlike value ("creds admin/hunter2x", without spaces,
# is one secret value). A user that is a part of an app is no user: "login page /
# dashboard2" stays a note.
LOGIN = (
    r"(?<![\w.])(?:(?i:login)(?![\w-])(?:[ \t]+(?i:is|was))?[*_]{0,2}[ \t]*[:=]?[*_]{0,2}[ \t]*"
    r"(?P<user>[\w.@+-]{1,64})[ \t]*/"
    r"|(?i:creds|credentials?)(?![\w-])[*_]{0,2}[ \t]*[:=]?[*_]{0,2}[ \t]*"
    r"(?P<cuser>[\w.@+-]{1,64})[ \t]+/)[ \t]*"
)
_APP_PART_WORDS = """page pages screen form flow flows button modal view route
    endpoint url link ui ux redirect logout signup signin register dialog component
    test tests bug fix issue api path handler controller template field fields state
    step steps box section tab menu window popup"""
_APP_PARTS = frozenset(_APP_PART_WORDS.split())


def login(text: str, m: re.Match[str]) -> Span | None:
    """The password of ``login user / x``, if the user is no part of an app."""
    if (m.group("user") or m.group("cuser")).lower() in _APP_PARTS:
        return None
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, _ = got
    value = text[start:end]
    ok = "/" not in value and passlike(value)
    if ok and value.rstrip("0123456789").isalpha():  # a word and a number
        ok = bool(_CLAUSE_END.match(text, end))  # not "admin / readonly2 roles"
    return (start, end) if ok else None


# mysql and its tools take a password glued to -p (-pX; a lone -p prompts for it);
# sshpass takes it after -p.
MYSQL_P = (
    r"(?<![\w.-])(?i:mysql(?:dump|admin|import|check|show|slap|sh)?"
    r"|mariadb(?:-?(?:dump|admin|import|check|show))?)(?![\w-])"
    r"[^\n|;&]{0,256}?[ \t]-p(?=[^\s-])"
)
SSHPASS_P = r"(?<![\w.-])sshpass(?![\w-])[^\n|;&]{0,64}?[ \t]-p[ \t]*(?=[^\s-])"
# redis-cli's password flag: "redis-cli -a 'x' -h cache-1"
REDIS_A = r"(?<![\w.-])redis-cli(?![\w-])[^\n|;&]{0,64}?[ \t]-a[ \t]+(?=[^\s-])"


def flag_value(text: str, m: re.Match[str]) -> Span | None:
    """The value right after the match, if it is no placeholder (``$PW``)."""
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    ok = plausible(text[start:end], "password", False, quoted)
    return (start, end) if ok else None


# "curl -u user:pass", "curl --user 'api:pass'", also on a continuation line
# ("curl ... \\\n  -u dev:pass"): the password, or the user when it is alone
CURL_USER = (
    r"(?<![\w.-])curl(?![\w-])(?:[^\n|;&]|\\\r?\n){0,512}?[ \t\n](?:-u|--user)"
    r"(?:=|[ \t]{0,5})(?=\S)"
)


def curl_user(text: str, m: re.Match[str]) -> Span | None:
    """The password of ``user:password`` after curl's ``-u``/``--user`` (the
    user when the password is empty), if it is no placeholder (``$PASS``,
    ``<password>``, ``test:test``)."""
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    user, colon, password = text[start:end].partition(":")
    if not colon:
        return None
    part, at = (password, start + len(user) + 1) if password else (user, start)
    bare = part.strip("'\"")
    at += part.find(bare) if bare else 0
    short_word = bare.isalpha() and bare.islower() and len(bare) < 8
    if not bare or bare[0] in "$%{" or short_word:
        return None
    return (at, at + len(bare)) if plausible(bare, "password", False, quoted) else None
