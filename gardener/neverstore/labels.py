"""Labelled secrets: the value after a password, PIN or secret label.

A label is a word in one of ten languages (``password``, ``API key``, ``mot de
passe``, ``密码``) before ``:``, ``=``, a verb (``is``, ``will be``), a dash, a CJK
particle or a table cell. Its value (``password: x``, ``the API key is x``,
``密码是x``, ``| password | x |``, ``--token x``, ``password will be x``,
``password's x`` with x of the space-alone shape in ``_LABEL``) must not be a
placeholder (``see vault``, ``****``, ``${VAR}``, ``str``); a ``pin`` is 4-12
digits; a ``secret`` (token, API key, ...) needs >= 6 chars of two classes, so
``max_tokens: 4096`` passes; in prose an unquoted English-looking word (``is
correct``) is not a value, nor is a table cell of letters only (a header row). A
bare ``*_key:`` label (``secret_key_base``, ``APP_KEY``) needs a hex, UUID or
base64 value, so ``sort_key: created_at`` passes.

After a password label, a passphrase (3 or more plain words up to the end of their
clause) is the value; a describing word or a count before more words is none
(``password: expires every 90 days``); a word of letters that another word follows
in its clause starts a sentence (``password: Mira knows it``), unless that word is
for/on/to/then/and..., a task or a time (``password: letmein then restart nginx``).
What a value may be is in ``values``; labels that are prose words too (``pass``,
``PIN``, ``password`` and a space) are in ``weaklabels``.
"""

from __future__ import annotations

import re

from gardener.neverstore.regex import ALNUM_ASCII, Check, Span, lazy
from gardener.neverstore.tables import alts, words_of
from gardener.neverstore.values import (
    TRAIL,
    describes,
    kind,
    not_a_pin,
    passlike,
    phrase_at,
    plausible,
    sentence,
    value_at,
)


def labelled(family: str) -> Check:
    """The check of a label rule of ``family`` (password, pin, secret): the value
    after the label, if it is one (see the module docstring)."""

    def check(text: str, m: re.Match[str]) -> Span | None:
        got = value_at(text, m.end())
        if got is None:
            return None
        start, end, quoted = got
        sep = m.group("sep")
        if not sep.strip() and not quoted and _IMAGE_TAG.fullmatch(text, start, end):
            return None  # "pg_pw postgres:16": an image's tag after a name
        if "|" in sep:
            return _cell(text, m.start(), (start, end), quoted, family)
        prose = not any(c in ":=：" for c in sep)
        if "adverb" in m.re.groupindex and m.group("adverb") and not quoted:
            value = text[start:end]
            return (start, end) if passlike(value) else None
        if family == "password" and not quoted:
            phrase = phrase_at(text, start, prose)
            if phrase:
                return phrase
            if describes(text, start):
                return None
            if text[start:end].isalpha() and sentence(text, end):
                return None  # "password: Mira knows it", "Passwort: läuft alle ..."
        if sep.strip() == "-" and not quoted:  # "Password - hunter2", not "- done"
            value = text[start:end]
            ok = (
                passlike(value)
                if family == "password"
                else plausible(value, family, False, False)
            )
            return (start, end) if ok else None
        ok = plausible(text[start:end], family, prose, quoted)
        if ok and family == "pin" and not quoted:
            ok = not not_a_pin(text, start, end)
        return (start, end) if ok else None

    return check


_IMAGE_TAG = lazy(r"[a-z][\w.-]*:\d[\w.-]*")
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
    while end > start and text[end - 1] in TRAIL:
        end -= 1
    value = text[start:end]
    if not value or not _CELL_END.match(text, end + quoted):
        return None
    if not quoted and value.isalpha():
        return None
    return (start, end) if plausible(value, family, False, quoted) else None


# A label is a word (password, API key, mot de passe, 密码) that starts a word, follows
# "_", "." or "-" (DB_PASSWORD) or a camelCase hump (dbPassword, PGPASSWORD); then
# maybe "(NAS)" and "for the NAS"; then ":", "=", a verb ("is", "is:"), a dash, a CJK
# particle, in a table row "|", or a space before a value with a digit and more.
# Matching starts at the word (see ``passes.hits``).
# where a label word may start: after a non-alphanumeric, or at a camelCase hump
BOUND = r"(?:(?<![^\W_])|(?<=[A-Za-z0-9])(?=[A-Z]))"
# an assignment: ":", "=", ":=", "=>", and make's "?=", "::=", ":::=", "+="
ASSIGN = r"(?::{1,3}=|[?+]=|=>|[:=：])"
_PREP = (
    r"for|of|to|on|at|für|fürs|von|vom|zum|zur|der|des|beim|voor|van|pour|de|du|para"
    r"|del|do|da|di|della|per|dla|na|för|till|için|от|для|к|від|до|k|ke|pro|til|på"
)
# a word naming whose password it is, between the label and its value
# ("password root: x", "mot de passe root : x"), or a Russian genitive ("токен
# доступа: x", "ПИН-код карты: x"), or French "d'..." ("jeton d'accès : x")
_WHOSE = (
    r"(?:[ \t]+(?i:root|admin|sudo|wifi|wlan|wpa2?|ssh|vpn|db|ftp|smtp|nas|api)(?![\w-])"
    r"|[ \t]+[а-яё]{3,20}(?:а|я|ов|ей|ы|и)(?![\w-])|[ \t]+d['\u2019][a-zà-ÿ]{3,20})?"
)
# What comes between a label and its value, per language (one line each): "is",
# "changed to", "lautet"...; ADVERBS are "now", "still" alone ("password now x"),
# after which the value must have a password's shape (see ``labelled``).
VERBS = (
    (
        "en",
        r"(?:(?:is|was|has[ \t]+been|got)[ \t]+)?(?:changed|set|reset|updated)[ \t]+to",
    ),
    ("en", r"(?:is|was)|will[ \t]+be|became"),
    (
        "de",
        r"(?:wurde[ \t]+)?(?:geändert|geaendert)[ \t]+(?:auf|zu|in)|ist|lautet|war",
    ),
    (
        "fr",
        r"(?:a[ \t]+été[ \t]+)?(?:changé|modifié|remplacé)e?[ \t]+(?:en|pour|par)"
        r"|est|était",
    ),
    (
        "es",
        r"(?:ha[ \t]+sido[ \t]+|fue[ \t]+)?(?:cambiad|modificad)[ao][ \t]+(?:a|por)"
        r"|es|era|sigue[ \t]+siendo",
    ),
    ("pt", r"(?:foi[ \t]+)?(?:alterad|mudad|trocad)[ao][ \t]+para|é|era"),
    ("it", r"(?:è[ \t]+stat[ao][ \t]+)?(?:cambiat|modificat)[ao][ \t]+(?:in|a)|è|era"),
    ("pl", r"jest"),
    ("cs", r"je"),
    ("sv", r"är"),
    ("da", r"er"),
    ("fi", r"on"),
    ("uk", r"це"),
    ("ru", r"это|(?:изменён|изменен|сменён|сменен)[ \t]+на"),
)
# "now", "still": alone before the value ("password now x"), after which the
# value must have a password's shape (see ``labelled``); or around a verb
# ("password is now x", "la contraseña ahora es x", "Passwort ist immer noch x")
ADVERBS = (
    ("en", r"now|still"),
    ("de", r"jetzt|(?:immer[ \t]+)?noch"),
    ("fr", r"maintenant|toujours"),
    ("es", r"ahora|todavía|aún"),
    ("pt", r"agora|ainda"),
    ("it", r"adesso|ora|ancora"),
    ("ru", r"теперь|(?:всё|все)[ \t]+ещё|ещё"),
)
# after a clause break (",", "?", a dash), maybe a few words after the label:
# "password — new one is x", "password? it's x", "le mot de passe, c'est x",
# "the vpn password stopped working; it's x now"
RESTARTS = (
    (
        "en",
        r"(?:the[ \t]+)?new[ \t]+one(?:[ \t]+is|['\u2019]s)|(?:now[ \t]+)?it['\u2019]s"
        r"|(?:now[ \t]+)?it[ \t]+is|(?:it[ \t]+)?(?:was[ \t]+|got[ \t]+|has[ \t]+been[ \t]+)?"
        r"(?:changed|reset|set)[ \t]+to",
    ),
    (
        "fr",
        r"(?:maintenant[ \t]+)?c['\u2019]est(?:[ \t]+maintenant)?|le[ \t]+nouveau[ \t]+est",
    ),
    ("es", r"(?:ahora[ \t]+)?es|la[ \t]+nueva[ \t]+es"),
    ("pt", r"(?:agora[ \t]+)?é|a[ \t]+nova[ \t]+é"),
    ("it", r"(?:adesso|ora)[ \t]+è|la[ \t]+nuova[ \t]+è"),
    ("de", r"(?:jetzt[ \t]+)?(?:ist[ \t]+es|es[ \t]+ist)|das[ \t]+neue[ \t]+ist"),
    ("ru", r"(?:теперь[ \t]+)?это|новый(?:[ \t]+[-—–])?"),
)
# CJK particles and verbs before a value: 是, は, 还是 ("still is"), 改为 ("changed to"),
# maybe after 已经/已 ("already": 已经改为) or 现在 ("now")
CJK_SEPS = "还是 還是 仍是 改为 改成了 改成 设为 设置为 换成了 换成 现在是 是 为 為 はまだ は今 は 는 은"
CJK_BEFORE = "已经 已經 已"  # "already", before a verb of CJK_SEPS


def _alternation(table: tuple[tuple[str, str], ...]) -> str:
    # longest first: "es ist" before Spanish "es", whose value would be "ist"
    return alts(table)


VERB = _alternation(VERBS)
_ADVERB = _alternation(ADVERBS)
_RESTART = _alternation(RESTARTS)
_CJK_SEP = f"(?:{'|'.join(CJK_BEFORE.split())})?(?:{'|'.join(CJK_SEPS.split())})"
_LABEL = (
    rf"(?:{BOUND}(?i:%s)(?i:s)?(?!\w)[\"'`*]{{0,2}}|%s)"
    r"(?:[ \t]*\([^()\n]{1,40}\))?"
    rf"(?:[ \t]+(?i:{_PREP})(?:[ \t]+[^\s:=：|]{{1,40}}){{1,4}}?)?{_WHOSE}"
    rf"(?P<sep>[ \t]*{ASSIGN}[*_]{{0,2}}[ \t]*"
    rf"|(?:[ \t]+[^\s,;?!—–:=：|]{{1,24}}){{0,4}}?[ \t]*[,;?!—–][ \t]*(?i:{_RESTART})"
    r"[ \t]*[:：]?[ \t]*"
    rf"|[ \t]+(?:(?i:{_ADVERB})[ \t]+)?(?i:{VERB})(?:[ \t]+(?i:{_ADVERB}))?"
    r"(?:[ \t]*[:：][ \t]*|[ \t]+)"
    rf"|[ \t]+(?P<adverb>(?i:{_ADVERB}))[ \t]+"
    rf"|[ \t]*[—–][ \t]*|[ \t]+-[ \t]+|[ \t]*(?:{_CJK_SEP})[ \t]*|[ \t]*\|[ \t]*"
    # a space alone, before a value that reads like a password: 8+ characters
    # with a lowercase letter, a digit and a capital or symbol ("passwd
    # Tr0ub4dor&3", "password Summer2024"); "password sha256", "argon2",
    # "v2.3.1", "JIRA-1234" are prose in a developer's notes; or before 32+
    # hex digits ("twilio auth token 4f15...")
    r"|(?:['\u2019]s)?[ \t]+(?=[^\s]{8})(?=[^\s]*[a-z])(?=[^\s]*\d)(?=[^\s]*[^a-z\d\s])"
    r"|[ \t]+(?=[0-9a-f]{32,}(?![\w-])))"
)
# The labels of each family, a row per language (``tables``): regex alternatives,
# matched case-insensitively at a word's start (CJK ones anywhere), and the
# routing words when an alternative has no literal start. A label in a new
# language is one row here, with a case in tests/neverstore/data/refused.tsv.
PASSWORD_LABELS = (
    # a bare "pass" needs a prefix (DB_PASS, a flag's --db-pass): "Pass: 42",
    # "all-pass = 0.6" are none (the value after a "-" needs a password's shape)
    (
        "en",
        r"pass[ _-]?phrase|pass[ _-]?code|passwords?|passwd|pwd|pw|(?<=[_.])pass"
        r"|(?<=--)pass|"
        + "|".join(f"(?<=--[a-z0-9]{{{n}}}-)pass" for n in range(1, 13)),
        "pass pw",
    ),
    # what fingers write: "pasword", "passwrod"; Redis's "requirepass", "masterauth"
    ("en", r"pasword|passwrod|passowrd|requirepass|masterauth"),
    ("fr", r"mot[ \t]+de[ \t]+passe|mdp|code[ \t]+d['\u2019]acc[eè]s"),
    ("fr", r"phrase[ \t]+secr[eè]te|phrase[ \t]+de[ \t]+passe"),
    ("de", r"passwort|kennwort"),
    ("es", r"contrase(?:ñ|n\u0303|n)a"),
    ("pt", r"senha"),
    ("it", r"parola[ \t]+d['\u2019]ordine"),
    ("nl", r"wachtwoord"),
    ("pl", r"has[łl]o"),
    ("tr", r"[şs]ifre(?:si)?", "şifre sifre"),
    ("tr", r"parola(?:sı)?"),
    ("sv", r"lösenord(?:et)?"),
    ("da", r"adgangskode(?:n)?|kodeord(?:et)?"),
    ("no", r"passord(?:et)?"),
    ("fi", r"salasana"),
    ("cs", r"hesl(?:o|a|em)"),
    ("ru", r"парол(?:ь|я|ю|ем|и|ей|е)"),
    ("zh", r"密码|密碼|口令"),
    ("ja", r"パスワード"),
    ("ko", r"비밀번호|암호|비번"),
)
PIN_LABELS = (
    ("en", r"pin[ _-]?(?:code|number)?|puk[ _-]?(?:code)?"),
    ("ru", r"пин(?:-код)?"),
    ("uk", r"пін(?:-код)?"),
    ("sv", r"pinkod(?:en)?"),
    ("zh", r"[Pp][Ii][Nn]码|[Pp][Ii][Nn]碼", "pin码 pin碼"),
    ("ja", r"暗証番号|[Pp][Ii][Nn]コード", "暗証番号 pinコード"),
)
SECRET_LABELS = (
    (
        "en",
        r"client[ _-]?secret|secret[ _-]?key|secret|api[ _-]?key|apikey|access[ _-]?key"
        r"|access[ _-]?id|private[ _-]?key|signing[ _-]?key|encryption[ _-]?key"
        r"|master[ _-]?key|(?:auth|access|refresh|api)[ _-]?token|token|credentials?"
        r"|creds",
        "client secret api access private signing encryption master auth refresh"
        " token credential creds",
    ),
    # a Romance noun before "API" ("clé API du service", "la clave API de Twilio")
    (
        "fr",
        r"jeton(?:[ \t]+(?:d['\u2019])?api)?|cl(?:é|e\u0301)(?:[ \t]+(?:d['\u2019])?api)?",
        "jeton clé cle\u0301",
    ),
    ("de", r"schl(?:ü|u\u0308|ue)ssel", "schl"),
    ("es", r"clave(?:[ \t]+(?:de[ \t]+)?api)?"),
    ("it", r"chiave(?:[ \t]+api)?"),
    ("pt", r"chave(?:[ \t]+(?:de[ \t]+)?api)?"),
    ("nl", r"sleutel"),
    ("pl", r"klucz(?:[ \t]+api)?"),
    ("tr", r"anahtar(?:ı|i)?"),
    ("sv", r"nyckel(?:n)?"),
    ("ru", r"токен\w{0,2}|ключ\w{0,2}"),
    ("zh", r"令牌|密钥|密鑰"),
    (
        "ja",
        r"トークン|(?<=[Aa][Pp][Ii])キー|(?<=[Aa][Pp][Ii][ \t])キー|アクセスキー"
        r"|シークレットキー|秘密鍵",
        "トークン キー アクセスキー シークレットキー 秘密鍵",
    ),
    ("ko", r"토큰"),
)
PASSWORD_WORDS = words_of(PASSWORD_LABELS)
PIN_WORDS = words_of(PIN_LABELS)
SECRET_WORDS = words_of(SECRET_LABELS)

# "SECRET_KEY_BASE: <hex>", "APP_KEY=base64:...": a key named by its purpose.
KEYED = (
    r"(?a)(?<=[A-Za-z0-9][_.-])(?i:key)(?:[_.-](?i:base))?(?![\w-])[\"'`]?"
    rf"(?P<sep>[ \t]*{ASSIGN}[ \t]*)"
)
# What a "<name>_key" is when it is no secret: a public key or a data key.
_KEY_KINDS = """public pub gpg pgp ssh sort primary foreign partition cache lookup
    index idempotency dedup dedupe routing shard object row group map dict hash
    composite unique cluster range s3"""
_NOT_KEYS = frozenset(_KEY_KINDS.split())
_HEXVAL = lazy(
    r"(?a)[0-9a-fA-F]{16,}|[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}"
)
_B64VAL = re.compile(r"(?a)[A-Za-z0-9+/_-]{16,}={0,2}")


def keyed(text: str, m: re.Match[str]) -> Span | None:
    """A hex, UUID or base64 value (``base64:`` allowed) after ``<name>_key``, where
    the name does not make it a public or a data key."""
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, _ = got
    value = text[start:end]
    body = value[7:] if value[:7].lower() == "base64:" else value
    if len(body) < 16 or not plausible(value, "secret", False, True):
        return None
    head = text[max(0, m.start() - 65) : m.start() - 1]  # the name before "_key"
    if head[len(head.rstrip(ALNUM_ASCII)) :].lower() in _NOT_KEYS:
        return None
    if _HEXVAL.fullmatch(body):
        ok = any(c.isdigit() for c in body) and any(c.isalpha() for c in body)
    elif _B64VAL.fullmatch(body):
        kinds = {kind(c) for c in body}
        separators = body.count("-") + body.count("_")
        pads = any(c in "+/=" for c in body)
        ok = {0, 1, 2} <= kinds or (len(body) >= 20 and 2 in kinds and pads)
        ok = ok and separators <= len(body) / 10 + 1
    else:
        ok = False
    return (start, end) if ok else None


PASSWORD = _LABEL % (alts(PASSWORD_LABELS, False), alts(PASSWORD_LABELS, True))
PIN = _LABEL % (alts(PIN_LABELS, False), alts(PIN_LABELS, True))
SECRET = _LABEL % (alts(SECRET_LABELS, False), alts(SECRET_LABELS, True))
