"""The never-store rule table (DESIGN.md section 4): what a secret looks like.

Rule ids: private-key, jwt, aws-access-key, github-token, gitlab-token, slack-webhook,
discord-webhook, slack-token, stripe-key, google-api-key, anthropic-key, openai-key,
npm-token, huggingface-token, pypi-token, twilio-key, sendgrid-key, shopify-token,
digitalocean-token, connection-string, bearer-token, auth-header, password, pin,
secret, recovery-codes, email, card-number, base64-secret, high-entropy, and
``custom:<name>`` (rules.md).

Choices: a labelled value (``password: x``, ``the API key is x``, ``密码是x``,
``| password | x |``, ``--token x``, ``password will be x``, ``password's x`` with
x of the space-alone shape below) must not be a placeholder (``see vault``, ``****``,
``${VAR}``, ``str``); a ``pin`` is 4-12 digits; a ``secret`` (token, API key, ...)
needs >= 6 chars of two classes, so ``max_tokens: 4096`` passes; in prose an unquoted
English-looking word (``is correct``) is not a value, nor is a table cell of letters
only (a header row). A bare ``*_key:`` label (``secret_key_base``, ``APP_KEY``) needs a
hex, UUID or base64 value, so ``sort_key: created_at`` passes; ``-p x`` is not a label
(but see the last item below).

Labels that need a second clue (the word alone is prose too):

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
- `` - `` (an ASCII dash with spaces) after a label: a password needs such a value
  or a passphrase (``Password - hunter2``; ``password - done`` is a note).
- passphrase: after a password label (``:``, ``is``, a dash), 3 or more plain words
  up to the end of their clause (punctuation, a quote, a dash, or a function, time or
  describing word: ``... staple deploy friday`` keeps ``deploy friday``); and a
  describing word or a count before more words is no value (``password: expires every
  90 days``, ``password: 12 characters minimum``).
- a password is no protocol or algorithm name (``WPA2``, ``WPA2-PSK``, ``802.1X``,
  ``SSO``, ``argon2id``), no state word (a past participle of letters, ``fixed``,
  ``done``), and no numbered step, vault or app part (``pass: round2``, ``login
  admin / settings2``); a word and a number after ``login x /`` ends its clause.
- a word of letters after a password label that another word follows in its clause
  starts a sentence, no password (``password: Mira knows it``, ``Passwort: mindestens
  12 Zeichen``), unless that word is for/on/to/then/and..., a task or a time
  (``password: letmein then restart nginx``); a count after a ``secret`` label
  (``tokens: 12,345``) is no secret.
- ``PIN``, ``PIN code``, ``passcode``, and ``pin`` after ``door``, ``card``, ``my``...:
  4-8 digits after a space (not ``GPIO pin 17``, ``pin 4096 pages``).
- ``code`` or ``combo`` after what it unlocks (door, gate, garage, alarm, safe, lock,
  padlock, keypad, locker, entry, access...): 4-8 digits, maybe after ``#`` or split
  by dashes, after a space, ``:``, ``=`` or ``is`` (``door code 4829``, ``gate code
  #4821``, ``door code is 4-8-2-9``; not ``error code 4829``, ``zip code 90210``).
- a PIN's digits are no PIN when they count or date something: a unit or count word
  follows them (``code 1200 lines``, ``4096 byte``, ``1234 PR``), they are a year
  before a word (``code 2024 firmware``), or their clause names a port.
- ``set/change/reset/update [the wifi] password [for x] to y``: y quoted, a
  passphrase or of the ``pass`` shape above (not ``set password to expire``).
- ``login user / x``, ``creds: user / x``: x of the ``pass`` shape above, and the
  user no part of an app (``login page / dashboard2`` is a note).
- ``-pX`` after ``mysql``, ``mysqldump``, ``mariadb``...; ``-p x`` after ``sshpass``.

Recovery codes are two or more 8-10 character codes with digits after a "recovery /
backup / 2FA codes" label, or one code of 6-40 letters, digits and dashes with a
digit after the singular label ("the recovery code is 8f3k-29dj-ak2m", "recovery
key: ..."). A TOTP seed is 16+ base32 characters with a digit after "TOTP / OTP / 2FA
secret, seed or key". Cards start with 2-6 (the networks), which spares ISBNs.
Hex runs (SHAs, bare UUIDs, Ethereum addresses) are never high-entropy; wallet
addresses are public and not targeted, though a base58 Bitcoin address may trip
high-entropy (erring to refuse). Markers (``[REDACTED:<rule>]``, ``[REDACTED]``) are
never flagged again, so ``redact`` is idempotent. An allow pattern drops a finding only
when one of its matches covers the whole span.

What a value may be once a label points at it (no placeholder, no word of prose; a
passphrase; a password's shape) is in ``gardener.neverstore.values``. The scanner that runs
these rules is ``gardener.neverstore.redact``.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable

from gardener.model.record import Record
from gardener.neverstore.values import (
    _TRAIL,
    Span,
    _classes,
    _counted,
    _describes,
    _kind,
    _not_a_pin,
    _passlike,
    _phrase_at,
    _plausible,
    _sentence,
    _stopword,
    _test_name,
    _value_at,
    lazy,
)

Check = Callable[[str, "re.Match[str]"], "Span | None"]


# --- labelled secrets: the value after a label -----------------------------------


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
        if family == "password" and not quoted:
            phrase = _phrase_at(text, start, prose)
            if phrase:
                return phrase
            if _describes(text, start):
                return None
            if text[start:end].isalpha() and _sentence(text, end):
                return None  # "password: Mira knows it", "Passwort: läuft alle ..."
        if sep.strip() == "-" and not quoted:  # "Password - hunter2", not "- done"
            value = text[start:end]
            ok = (
                _passlike(value)
                if family == "password"
                else _plausible(value, family, False, False)
            )
            return (start, end) if ok else None
        ok = _plausible(text[start:end], family, prose, quoted)
        if ok and family == "pin" and not quoted:
            ok = not _not_a_pin(text, start, end)
        return (start, end) if ok else None

    return check


_CELL_END = lazy(r"[ \t]*(?:\||\r?\n|\Z)")  # a table cell's value fills the cell


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
# particle, in a table row "|", or a space before a value with a digit and more. Matching starts at the word (see _hits).
# where a label word may start: after a non-alphanumeric, or at a camelCase hump
BOUND = r"(?:(?<![^\W_])|(?<=[A-Za-z0-9])(?=[A-Z]))"
_PREP = r"for|of|to|on|at|für|von|vom|zum|zur|voor|van|pour|de|du|para|del|от|для|к"
_VERB = (
    r"(?:(?:is|was|has[ \t]+been)[ \t]+)?(?:changed|set|reset|updated)[ \t]+to"
    r"|(?:is|was)(?:[ \t]+(?:now|still))?|will[ \t]+be|became"
    r"|ist|lautet|war|est|était|es|era|это"
)
_LABEL = (
    rf"(?:{BOUND}(?i:%s)(?i:s)?(?!\w)[\"'`*]{{0,2}}|%s)"
    r"(?:[ \t]*\([^()\n]{1,40}\))?"
    rf"(?:[ \t]+(?i:{_PREP})(?:[ \t]+[^\s:=：|]{{1,40}}){{1,4}}?)?"
    r"(?P<sep>[ \t]*(?::=|=>|[:=：])[*_]{0,2}[ \t]*"
    rf"|[ \t]+(?i:{_VERB})(?:[ \t]*[:：][ \t]*|[ \t]+)"
    r"|[ \t]*[—–][ \t]*|[ \t]+-[ \t]+|[ \t]*(?:是|为|為|は|는|은)[ \t]*|[ \t]*\|[ \t]*"
    # a space alone, before a value that reads like a password: 8+ characters
    # with a lowercase letter, a digit and a capital or symbol ("passwd
    # Tr0ub4dor&3", "password Summer2024"); "password sha256", "argon2",
    # "v2.3.1", "JIRA-1234" are prose in a developer's notes
    r"|(?:['\u2019]s)?[ \t]+(?=[^\s]{8})(?=[^\s]*[a-z])(?=[^\s]*\d)(?=[^\s]*[^a-z\d\s]))"
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
    r"|(?:auth|access|refresh|api)[ _-]?token|token|credentials?|creds|токен\w{0,2}"
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
    refresh token credential creds токен ключ schl sleutel clé cle\u0301 clave | {_SECRET_CJK}"""

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
_HEXVAL = lazy(
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
_ONE_CODE = lazy(_CODE)
# between a label and its value: "is" or "was", a colon or "=", or a space
_IS_OR_COLON = r"(?:[ \t]+(?i:is|was))?[ \t]*(?:[:：=][ \t]*)?"
# One such code: "the recovery code is 8f3k-29dj-ak2m", "2FA backup code: 38291047":
# the singular label, then a value of 6-40 letters, digits and dashes with a digit.
_SINGLE_CODE = (
    r"(?a)(?<![^\W_])(?i:recovery|backup|2fa|mfa|two[ -]?factor|scratch|emergency)"
    r"(?:[ \t]+(?i:backup|recovery|login))?[ \t]+(?i:code|key)(?![\w-])"
    rf"{_IS_OR_COLON}[*_`\"']{{0,2}}"
    r"(?P<value>[A-Za-z0-9]{2,}(?:-[A-Za-z0-9]{2,}){0,5})(?![\w-])"
)


# A TOTP seed: "TOTP secret JBSWY3DPEHPK3PXP", "2FA seed: ...": 16+ base32 characters
# with a digit after an OTP word and secret, seed or key.
_OTP_SEED = (
    r"(?a)(?<![^\W_])(?i:totp|otp|2fa|mfa|authenticator)[ \t]+(?i:secret|seed|key)"
    rf"(?![\w-]){_IS_OR_COLON}[`\"']?"
    r"(?P<value>[A-Z2-7]{16,}=*|[a-z2-7]{16,}=*)(?![\w-])"
)


def _otp_seed(text: str, m: re.Match[str]) -> Span | None:
    """The seed, if it holds a digit (base32 has 2-7): a word of 16 letters is none."""
    value = m.group("value")
    return m.span("value") if any(c.isdigit() for c in value) else None


def _single_code(text: str, m: re.Match[str]) -> Span | None:
    """The code, if it is 6-40 characters and holds a digit ("backup code is
    ready" and "recovery code 7" are not codes)."""
    value = m.group("value")
    ok = 6 <= len(value) <= 40 and any(c.isdigit() for c in value)
    return m.span("value") if ok else None


def _codes(text: str, m: re.Match[str]) -> Span | None:
    """The list, if two of its codes have a digit (words make no list)."""
    s, e = m.span("value")
    codes = _ONE_CODE.finditer(text, s, e)
    digits = sum(any(c.isdigit() for c in code.group()) for code in codes)
    return (s, e) if digits >= 2 else None


# --- labels that need a second clue ----------------------------------------------
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
    cut = len(rest.rstrip(_ALNUM_ASCII + "-"))
    return rest[cut:].lower(), rest[:cut]


# "pass" and, with a space alone, "password": a label after a credential word
# ("wifi pass hunter2", "root password P@ss-word": a value of _passlike shape after
# a space, any value after ":" or "is"); a bare "pass" also where a field starts,
# before ":" or "=" and a _passlike value ("pass: hunter2", "user: x, pass: ..."),
# so "pass the salt", "boarding pass 12B", "first pass: extract" and "Pass: 42"
# stay prose.
# a network's key is its password: "wifi key is hunter22", "WPA2 key: x"
_WIFI_WORDS = "wifi wi-fi wlan wpa wpa2 wpa3 wep router hotspot network"
_WIFI = frozenset(_WIFI_WORDS.split())
_WEAK_PW = (
    r"(?<![\w.])(?P<word>(?i:pass(?:word|wd)?|pwd|key))(?![\w-])[*_\"'`]{0,2}"
    r"(?P<sep>[ \t]*(?::=|=>|[:=：])[*_]{0,2}[ \t]*"
    rf"|[ \t]+(?i:{_VERB})(?:[ \t]*[:：][ \t]*|[ \t]+)|[ \t]+)"
)


def _weak_password(text: str, m: re.Match[str]) -> Span | None:
    sep = m.group("sep")
    strong = any(c in ":=：" for c in sep)
    word = m.group("word").lower()
    bare, key = word == "pass", word == "key"
    if not (bare or key) and sep.strip():
        return None  # "password: x", "password is x": the password rule's
    head, whole = _head(text, m.start())
    cred = _word_before(head, " \t/-*_`")[0] in (_WIFI if key else _CREDS)
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
    got = _value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    value = text[start:end]
    if alone:  # a password's shape, and the clause ends: not "password e2e-tests ok";
        # letters and digits alone are a password whatever follows ("password
        # hunter2 Mira said deploy friday")
        ok = (
            value[0] != "|"  # a table's next cell: the table rule's
            and _passlike(value)
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
        ok = _plausible(value, "password", not strong, True)
    elif field:  # not a test result: "PASS: test_auth_v2"
        ok = _passlike(value) and not _test_name(value)
    elif not sep.strip():
        ok = _passlike(value)
    elif _describes(text, start):
        return None
    else:  # "wifi pass: x", "wifi pass is x"
        phrase = _phrase_at(text, start, not strong)
        if phrase:
            return phrase
        ok = _plausible(value, "password", not strong, False)
        ok = ok and not (strong and _counted(value))
    return (start, end) if ok else None


# "with password letmein": after "with", "using" or "via" (and maybe "the", "root"
# ...), a password label and a space, one word of 6+ characters that ends the
# clause (the line, a punctuation mark, or "for/on/to/at/in/from ...") and is no
# _stopword: "with password authentication", "with password reset." stay prose.
_WITH_PW = r"(?<![\w.])(?i:password|passwd|pwd|passphrase)(?![\w-])[ \t]+"
_WITH = frozenset(("with", "using", "via"))
_FILLER_WORDS = "the a an my its his her their our your this that new old same default"
_FILLERS = _CREDS | frozenset(_FILLER_WORDS.split())
_CLAUSE_END = lazy(
    r"[\"'`*)\]]*(?:[.,;:!?][ \t\r]|[.,;:!?]?[ \t]*(?:\r?\n|\Z)"
    r"|[ \t]+(?:for|on|to|at|in|from)(?![\w-])|[ \t]+(?:[(\[—–]|-[ \t]))"
)


def _with_password(text: str, m: re.Match[str]) -> Span | None:
    word, rest = _word_before(_head(text, m.start())[0], " \t")
    if word in _FILLERS:
        word = _word_before(rest, " \t")[0] if rest[-1:] in " \t" else ""
    if word not in _WITH:
        return None
    got = _value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    value = text[start:end]
    if quoted:
        ok = _plausible(value, "password", True, True)
    else:
        ok = (
            len(value) >= 6
            and not _stopword(value)
            and not _counted(value)
            and _plausible(value, "password", False, False)
            and bool(_CLAUSE_END.match(text, end))
        )
    return (start, end) if ok else None


# "set password to hunter2", "changed the wifi password to purple monkey dishwasher":
# a verb that gives a password its value, up to two words, the label, maybe "for
# ...", and "to"; the value is quoted, a passphrase or of _passlike shape, so "set
# password to expire" and "reset password to default" stay prose.
_SET_PW = (
    r"(?<![\w.])(?i:set|change[ds]?|resets?|updated?s?)(?![\w-])"
    r"(?:[ \t]+[\w'\u2019-]{1,24}){0,2}?[ \t]+"
    r"(?i:password|passwd|pwd|passphrase|pass)(?![\w-])"
    r"(?:[ \t]+(?i:for)(?:[ \t]+[^\s:=：|]{1,40}){1,4}?)?[ \t]+(?i:to)[ \t]+"
)


def _set_password(text: str, m: re.Match[str]) -> Span | None:
    got = _value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    if quoted:
        ok = _plausible(text[start:end], "password", True, True)
        return (start, end) if ok else None
    phrase = _phrase_at(text, start)
    if phrase:
        return phrase
    return (start, end) if _passlike(text[start:end]) else None


# "door PIN 4829", "passcode 918273": a PIN label, a space and 4-8 digits. "PIN",
# "PIN code" and "passcode" will do; a lowercase "pin" (to pin, a header's pin)
# needs a word for what the PIN opens or whose it is before it ("door pin 4829",
# "my pin 0917"); "GPIO pin 17", "pin 4096 pages" stay prose.
_PIN_SPACED = (
    r"(?<![\w.])(?P<label>(?i:pin(?:[ _-]?(?:code|number))?|pass[ _-]?code))"
    r"(?![\w-])[ \t]+(?P<value>\d{4,8})(?![\w%]|[.,:/-]\d)"
)
# what a PIN opens or whose it is; what has pins that are no PIN
_PIN_OF_WORDS = """door card debit credit bank atm sim phone alarm safe lock gate garage
    voicemail keypad locker my your his her our their"""
_PIN_OF = frozenset(_PIN_OF_WORDS.split())
_HARDWARE_WORDS = "gpio header pcb chip connector jumper socket board"
_HARDWARE = frozenset(_HARDWARE_WORDS.split())


def _pin_spaced(text: str, m: re.Match[str]) -> Span | None:
    word = _word_before(_head(text, m.start())[0], " \t")[0]
    label = m.group("label")
    if word in _HARDWARE:
        return None
    if label.lower() == "pin" and label != "PIN" and word not in _PIN_OF:
        return None
    s, e = m.span("value")
    return None if _not_a_pin(text, s, e) else (s, e)


# "door code 4829", "alarm code: 4829", "safe combination is 12-34-56": "code" after
# a word for what it unlocks, then a space, ":", "=" or "is" and 4-8 digits (or a
# dial's 3-4 numbers joined by "-") ("error code 4829", "zip code 90210"
# and "verification code" stay notes: they open nothing).
_CODE_PIN = (
    r"(?<![\w.])(?i:code|combo|combination)(?![\w-])[*_\"'`]{0,2}"
    r"(?:[ \t]*[:=][*_]{0,2}[ \t]*|[ \t]+(?i:is|was)[ \t]+(?:[:][ \t]*)?|[ \t]+)#?"
    r"(?P<value>\d{4,8}|\d(?:-\d){3,7}|\d{1,2}(?:-\d{1,2}){2,3})(?![\w%]|[.,:/-]\d)"
)
_UNLOCKS_WORDS = """door doors gate garage alarm safe lock unlock padlock keypad locker
    lockbox entry access bike"""
_UNLOCKS = frozenset(_UNLOCKS_WORDS.split())


def _code_pin(text: str, m: re.Match[str]) -> Span | None:
    word = _word_before(_head(text, m.start())[0], " \t*_`")[0]
    s, e = m.span("value")
    return (s, e) if word in _UNLOCKS and not _not_a_pin(text, s, e) else None


# "login admin / s3cretP@ss", "creds: admin / hunter2": a login or credential
# label, a user, "/" and a _passlike value ("creds admin/hunter2x", without spaces,
# is one secret value). A user that is a part of an app is no user: "login page /
# dashboard2" stays a note.
_LOGIN = (
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


def _login(text: str, m: re.Match[str]) -> Span | None:
    if (m.group("user") or m.group("cuser")).lower() in _APP_PARTS:
        return None
    got = _value_at(text, m.end())
    if got is None:
        return None
    start, end, _ = got
    value = text[start:end]
    ok = "/" not in value and _passlike(value)
    if ok and value.rstrip("0123456789").isalpha():  # a word and a number
        ok = bool(_CLAUSE_END.match(text, end))  # not "admin / readonly2 roles"
    return (start, end) if ok else None


# mysql and its tools take a password glued to -p (-pX; a lone -p prompts for it);
# sshpass takes it after -p.
_MYSQL_P = (
    r"(?<![\w.-])(?i:mysql(?:dump|admin|import|check|show|slap|sh)?"
    r"|mariadb(?:-?(?:dump|admin|import|check|show))?)(?![\w-])"
    r"[^\n|;&]{0,256}?[ \t]-p(?=[^\s-])"
)
_SSHPASS_P = r"(?<![\w.-])sshpass(?![\w-])[^\n|;&]{0,64}?[ \t]-p[ \t]*(?=[^\s-])"


def _flag_value(text: str, m: re.Match[str]) -> Span | None:
    """The value right after the match, if it is no placeholder (``$PW``)."""
    got = _value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    ok = _plausible(text[start:end], "password", False, quoted)
    return (start, end) if ok else None


# --- checks for shaped secrets --------------------------------------------------


def target(m: re.Match[str]) -> Span:
    """The span of a match's ``value`` group if it has one, else of the match."""
    return m.span("value") if "value" in m.re.groupindex else m.span()


def _mixed(length: int) -> Check:
    """Flag the value only if it has ``length`` chars of two classes (not a word)."""

    def check(text: str, m: re.Match[str]) -> Span | None:
        s, e = target(m)
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


_SCHEME = lazy(r"(?a)\b[A-Za-z][\w+.-]{0,20}\Z")  # searched up to the "://"


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


class _Rule(Record):
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
TABLE: tuple[_Rule, ...] = (
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
    _Rule("password", _WEAK_PW, _weak_password, "pass pw key"),
    _Rule("password", _WITH_PW, _with_password, "pass pw"),
    _Rule("password", _SET_PW, _set_password, "set change reset update"),
    _Rule("password", _LOGIN, _login, "login creds credential"),
    _Rule("password", _MYSQL_P, _flag_value, "mysql mariadb"),
    _Rule("password", _SSHPASS_P, _flag_value, "sshpass"),
    _Rule("pin", _LABEL % (_PIN, _PIN_CJK), _labelled("pin"), _PIN_WORDS),
    _Rule("pin", _PIN_SPACED, _pin_spaced, "pin pass"),
    _Rule("pin", _CODE_PIN, _code_pin, "code combo combination"),
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
    _Rule("recovery-codes", _SINGLE_CODE, _single_code, _CODE_WORDS),
    _Rule("secret", _OTP_SEED, _otp_seed, "totp otp 2fa mfa authenticator"),
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
