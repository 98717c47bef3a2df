"""Frames: a credential written as a pair, a sentence, an answer or markup.

Each frame is a pattern built from per-language word lists (the tables below:
adding a word in a language is one line, with a test row in
tests/neverstore/data/) and a check that reads the value after it:

- a pair after a network or login word: ``wifi: HomeNet / Kestrel-1984``,
  ``creds for the db: app / Harbor-9``, ``FTP login: uploader:Sv4Lq8Xn``,
  ``服务器账号 admin / Vx5Kn2Wt``: the second half, of password shape (a
  letter and a digit or symbol, 6+ characters);
- a password set to a value, in the word order of each language: ``changed the
  router password to Pelican``, ``mot de passe changé en ...``, ``j'ai mis le mot
  de passe à Sapin``, ``поменял пароль роутера на Ryabina``, ``Passwort auf
  Forelle gesetzt``, ``パスワードを X に変更``: a single word will do here
  (``set password to expire`` and ``to default`` stay prose);
- the answer to a security question: ``security question (first pet):
  Fluffy``, ``Sicherheitsfrage (...): Meier``, ``密保问题（...）：...``;
- a bare ``key`` before ``=``, ``:`` or ``is`` with a token's value:
  ``Using Key=Rb3Nv8Lq1Ks6``, ``Mailgun key is Pq7Wm2Xc9Lz4``, ``hubspotKey =
  "..."`` (``key decision: we use SQLite`` is prose; ``sort_key`` is
  ``labels.keyed``'s);
- markup: an element named for a secret, ``<secret>...</secret>``,
  ``<password>...</password>``, and a config line's ``key="DbPassword"
  value="..."``.
"""

from __future__ import annotations

import re

from gardener.neverstore.regex import Span, lazy
from gardener.neverstore.tables import alts as _alts
from gardener.neverstore.tables import words_of
from gardener.neverstore.tokens import public
from gardener.neverstore.values import (
    TRAIL,
    classes,
    passlike,
    phrase_at,
    plausible,
    stopword,
    value_at,
)

# -- a pair: what it opens, then user / password ---------------------------------

# what a user-and-password pair is for, or that it is one (regex words per line)
PAIR_WORDS = (
    ("en", r"wifi|wi-fi|wlan|hotspot|ssid|login|logins|creds|credentials|account"),
    # a remote login is a pair too: "ssh into the pi with pi / x", "rdp: admin / x"
    ("en", r"ssh|sftp|rdp|vnc|telnet"),
    ("de", r"zugangsdaten|zugang|anmeldung|anmeldedaten|konto"),
    ("fr", r"identifiants|connexion|accès|acces|compte"),
    ("es", r"credenciales|acceso|cuenta|usuario[ \t]+y[ \t]+contraseña"),
    ("it", r"credenziali|accesso|utenza|utente[ \t]+e[ \t]+password"),
    ("pt", r"credenciais|acesso|conta|usuário[ \t]+e[ \t]+senha"),
    ("ru", r"доступ|учётка|учетка|логин[ \t]+и[ \t]+пароль|учётные[ \t]+данные"),
    ("zh", r"账号|帐号|账户|登录|登陆"),
    ("ja", r"ログイン|アカウント|ID/パス"),
    ("nl", r"inloggegevens|inlog"),
    ("pl", r"dane[ \t]+logowania|logowanie|konto"),
    ("tr", r"giriş[ \t]+bilgileri|hesap[ \t]+bilgileri"),
    ("sv", r"inloggningsuppgifter|inloggning"),
)
# the label, then up to four words saying for what ("for the staging db", "du
# serveur"), then ":" or "=" (or, after a CJK label, a space), then the user
# and "/" or ":" before the password (" : " too after a ":" or an arrow:
# "creds -> bot : x", while "identifiants du serveur : admin / x" is no user
# "serveur")
PAIR = (
    # a CJK word anywhere ("sshログイン"), another one where a word starts
    rf"(?:(?:(?<![\w.-])|(?<=[\u2e80-\u9fff]))(?i:{_alts(PAIR_WORDS, False)})(?![\w-])"
    rf"|(?:{_alts(PAIR_WORDS, True)}))"
    r"(?:[ \t]+[^\s:：=/|]{1,30}){0,5}?"
    r"(?:[ \t]*(?P<lsep>[:：=]|->|→)[*_]{0,2}[ \t]*|(?<=[^\x00-\u2e7f])[ \t]*|[ \t]+)"
    r"[\"'`]?(?P<user>[^\s/:：\"'`|]{1,64})[\"'`]?(?P<sep>[ \t]*/[ \t]*|:(?![\s/*_])|(?(lsep)[ \t]+:[ \t]+|(?!)))"
)
PAIR_ROUTE = words_of(PAIR_WORDS)
_APP_WORDS = """page pages screen form flow button modal view route endpoint url link
    ui redirect logout signup signin register dialog component bug fix
    issue api path handler template field state step box section tab menu window
    popup http https"""
_APP = frozenset(_APP_WORDS.split())
# after these the "user" is a host or a route: "ssh to prod via bastion / jump-2"
_ROUTE_WORDS = "via through to into from behind over"
_ROUTES = frozenset(_ROUTE_WORDS.split())


def pair(text: str, m: re.Match[str]) -> Span | None:
    """The password of a pair (see the module docstring), if the user is no part
    of an app (``login page / dashboard2``) and the password has its shape."""
    user = m.group("user")
    if user.lower() in _APP or user.lower().rstrip("s") in _APP:
        return None
    before = text[max(0, m.start("user") - 12) : m.start("user")].split()
    if before and before[-1].lower() in _ROUTES:
        return None
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    if public(text, start, end):
        return None  # "fingerprint SHA256:<base64>": a public key's digest
    value = text[start:end]
    if m.group("sep").strip() == ":" and ("/" in value or value.startswith("/")):
        return None  # a URL or a path: "login: https://..."
    if quoted:
        return (start, end) if plausible(value, "password", False, True) else None
    ok = "/" not in value and passlike(value)
    if ok and value.rstrip("0123456789").isalpha():  # a word and a number
        ok = _clause_ends(text, end)  # not "admin / readonly2 roles"
    return (start, end) if ok else None


def _clause_ends(text: str, end: int) -> bool:
    """Whether nothing but punctuation, "(" or a dash follows ``end`` on its line."""
    rest = text[end : end + 3].split("\n", 1)[0]
    return (
        not rest.strip()
        or rest[0] in ".,;:!?)—–("
        or rest.startswith((" (", " —", " -"))
    )


# -- a password set to a value ---------------------------------------------------

_PW = (
    r"password|passwd|pwd|pw|pass|passphrase|passwort|kennwort|mot[ \t]+de[ \t]+passe"
    r"|mdp|contraseña|clave|пароль|senha|wachtwoord"
)
# verb before the label, and the preposition before the value (regex, per line)
SET_BEFORE = (
    ("en", r"set|sets|change|changed|changes|reset|resets|update|updated", r"to"),
    ("fr", r"mis|mets|changé|modifié|défini|réglé|remis", r"à|a|en|pour"),
    (
        "es",
        r"cambié|cambie|cambió|puse|puso|cambiamos|establecí|configuré",
        r"a|en|por",
    ),
    ("pt", r"mudei|alterei|troquei|defini", r"para"),
    (
        "ru",
        r"поменял[аи]?|сменил[аи]?|изменил[аи]?|установил[аи]?|поставил[аи]?",
        r"на",
    ),
)
_SET_VERBS = _alts(tuple((lang, verbs) for lang, verbs, _ in SET_BEFORE))
_SET_PREPS = _alts(tuple((lang, preps) for lang, _, preps in SET_BEFORE))
SET_TO = (
    rf"(?<![\w.])(?i:{_SET_VERBS})(?![\w-])(?:[ \t]+[\w'’-]{{1,24}}){{0,3}}?[ \t]+"
    rf"(?i:{_PW})(?![\w-])(?:[ \t]+[^\s:=：|]{{1,30}}){{0,3}}?"
    rf"(?:[ \t]+(?i:{_SET_PREPS})[ \t]+|(?<=ь)[ \t]+(?=[A-Za-z0-9]))"
)
SET_WORDS = words_of(tuple((lang, verbs) for lang, verbs, _ in SET_BEFORE))
# the verb after the value: "Passwort auf Forelle gesetzt", "パスワードを X に変更"
SET_AFTER = (
    r"(?<![\w.])(?i:passwort|kennwort)(?:[ \t]+[^\s:=：|]{1,30}){0,3}?[ \t]+auf[ \t]+"
    r"(?P<value>[^\s,;]{2,64})[ \t]+(?i:geändert|gesetzt|umgestellt|zurückgesetzt)"
    r"|(?:パスワード|暗証番号)を[ \t]*(?P<jvalue>[!-~]{2,64})[ \t]*に"
    r"(?:変更|リセット|設定|変え)"
)


def _one_word(text: str, start: int, end: int) -> bool:
    """A single word that is a value where a frame has named it one: 4+ letters
    (or a password's shape), no word that says what a password is like, and the
    end of its clause after it."""
    value = text[start:end]
    if passlike(value):
        return True
    if not value.isalpha() or len(value) < 4 or stopword(value):
        return False
    if not plausible(value, "password", False, False):
        return False
    return _clause_ends(text, end)


def set_to(text: str, m: re.Match[str]) -> Span | None:
    """The value a password is set to, before or after its verb."""
    if m.lastindex and (m.group("value") or m.group("jvalue")):
        s, e = m.span("value") if m.group("value") else m.span("jvalue")
        while e > s and text[e - 1] in TRAIL:
            e -= 1
        value = text[s:e]
        word = value.isalpha() and len(value) >= 4 and not stopword(value)
        ok = passlike(value) or word and plausible(value, "password", False, False)
        return (s, e) if ok else None  # the verb after it ends the clause
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    if quoted:
        return (
            (start, end) if plausible(text[start:end], "password", True, True) else None
        )
    phrase = phrase_at(text, start)
    if phrase:
        return phrase
    return (start, end) if _one_word(text, start, end) else None


# -- the answer to a security question ------------------------------------------

ANSWER_WORDS = (
    (
        "en",
        r"security[ \t]+questions?(?:[ \t]+answers?)?|security[ \t]+answers?"
        r"|security[ \t]+q|secret[ \t]+question|answer[ \t]+to",
    ),
    ("de", r"sicherheitsfrage|sicherheitsantwort|geheimfrage"),
    (
        "fr",
        r"question[ \t]+secrète|question[ \t]+de[ \t]+sécurité|réponse[ \t]+secrète",
    ),
    (
        "es",
        r"pregunta[ \t]+de[ \t]+seguridad|respuesta[ \t]+de[ \t]+seguridad|pregunta[ \t]+secreta",
    ),
    (
        "pt",
        r"pergunta[ \t]+de[ \t]+segurança|resposta[ \t]+de[ \t]+segurança|pergunta[ \t]+secreta",
    ),
    (
        "it",
        r"domanda[ \t]+di[ \t]+sicurezza|risposta[ \t]+di[ \t]+sicurezza|domanda[ \t]+segreta",
    ),
    ("ru", r"контрольный[ \t]+вопрос|секретный[ \t]+вопрос"),
    ("zh", r"密保问题(?:的)?答案|安全问题(?:的)?答案|密保问题|安全问题|密保答案"),
    ("ja", r"秘密の質問(?:の答え)?|秘密の答え"),
)
# the label, maybe "(what it asks)" or "for the bank", maybe a quoted question,
# then a close paren if the label was inside one, then ":" or "is"
ANSWER = (
    rf"(?:(?<![\w.])|(?<=[\u2e80-\u9fff]))(?i:{_alts(ANSWER_WORDS)})(?![\w-])"
    r"(?:[ \t]*[(（][^()（）\n]{1,60}[)）](?:の答え|的答案)?"
    r"|[ \t]+(?:for|of|für|pour|para|для)[^\n:：]{1,40}?"
    r"|[ \t]*[\"“„«'][^\"“”»'\n]{1,80}[\"”“»'])?[)）]?"
    # where it was asked: "... 'first pet' on the insurance site is x"
    r"(?:[ \t]+(?i:on|at|for|bei|für|sur|chez|en|su|no|na)(?:[ \t]+[^\s:：=]{1,24}){1,3}?)?"
    r"(?P<sep>[ \t]*(?:[:：=]|->|→)[ \t]*|[ \t]+(?i:is|ist|est|es|é|è|это)[ \t]+)"
)
# after the question, who answered: "security question is x, I answered y",
# "Sicherheitsfrage ... Antwort: y", "question secrète ..., réponse : y"
ANSWERED = (
    rf"(?:(?<![\w.])|(?<=[\u2e80-\u9fff]))(?i:{_alts(ANSWER_WORDS)})(?![\w-])"
    r"[^\n]{0,80}?(?<![\w-])(?i:i[ \t]+answered|answered(?:[ \t]+with)?|the[ \t]+answer[ \t]+is"
    r"|answer[ \t]*:|antwort(?:[ \t]+(?:ist|hinterlegt|lautet))?[ \t]*:?"
    r"|réponse[ \t]*(?:est|:)|respuesta[ \t]*(?:es|:)|resposta[ \t]*(?:é|:)"
    r"|risposta[ \t]*(?:è|:)|ответ[ \t]*[:—-]?)(?![\w-])[ \t]*[:：]?[ \t]*"
)
ANSWER_WORDS_ROUTE = words_of(ANSWER_WORDS)
_ANSWER_END = lazy(r"[^\n.,;!?()（）]{1,40}")
_ASKED = lazy(r"[^\n:：?？]{1,80}?(?:[ \t]*(?:->|→|=>)|[?？])[ \t]*")


def answered(text: str, m: re.Match[str]) -> Span | None:
    """The answer after the question's label and "I answered", "Antwort:"."""
    return _answer_at(text, m.end())


def answer(text: str, m: re.Match[str]) -> Span | None:
    """The answer: up to the end of its clause, at most 40 characters; after
    the question's own words, when an arrow or "?" follows them ("security
    question: first school -> Elm Park")."""
    asked = _ASKED.match(text, m.end())
    return _answer_at(text, asked.end() if asked else m.end())


def _answer_at(text: str, pos: int) -> Span | None:
    """An answer's span from ``pos``: its clause, without trailing marks; None
    for less than two characters or a first word no password could be."""
    got = _ANSWER_END.match(text, pos)
    if got is None:
        return None
    start, end = got.span()
    while end > start and (text[end - 1].isspace() or text[end - 1] in TRAIL):
        end -= 1
    value = text[start:end].strip("\"'“”")
    if len(value) < 2 or not plausible(value.split()[0], "password", False, True):
        return None
    return (start, end)


# -- a bare "key" with a token's value ------------------------------------------

KEY = (
    r"(?:(?:(?<![\w.-])|(?<=[a-z0-9])(?=K))(?i:key)(?![\w-])|(?<=の)キー)[\"'`]?"
    r"(?P<sep>[ \t]*(?::{1,3}=|[?+]=|=>|[:=：])[ \t]*|[ \t]+(?i:is)[ \t]+(?:[:][ \t]*)?)"
)
_NOT_SECRET_KEY_WORDS = """public pub gpg pgp ssh sort primary foreign partition cache lookup index
    idempotency dedup routing shard object row group map dict hash composite
    unique cluster range s3 music musical piano license product registry"""
_NOT_SECRET_KEYS = frozenset(_NOT_SECRET_KEY_WORDS.split())
_HEAD = lazy(r"([A-Za-z]+)\Z")


def tokenlike(value: str) -> bool:
    """A value shaped like an API key: 8+ characters of lower, upper and digits;
    or hex of 16+ with letters and digits; or 20+ of two classes."""
    body = value.strip("{}")
    if len(body) < 8 or " " in body:
        return False
    hexed = len(body) >= 16 and all(c in "0123456789abcdefABCDEF-" for c in body)
    if hexed:
        return any(c.isdigit() for c in body) and any(c.isalpha() for c in body)
    lower = any(c.islower() for c in body)
    upper = any(c.isupper() for c in body)
    digit = any(c.isdigit() for c in body)
    if lower and upper and digit:
        return True
    return len(body) >= 20 and digit and (lower or upper) and classes(body) >= 2


def key(text: str, m: re.Match[str]) -> Span | None:
    """The token after a bare ``key`` (or ``fooKey``) and an assignment or "is"."""
    if m.start() and text[m.start() - 1].isalpha():
        head = _HEAD.search(text, max(0, m.start() - 40), m.start())
        if head and head.group(1).lower() in _NOT_SECRET_KEYS:
            return None
    word = _HEAD.search(text, max(0, m.start() - 41), max(0, m.start() - 1))
    if word and word.group(1).lower() in _NOT_SECRET_KEYS:
        return None  # "the public key: ..."
    got = value_at(text, m.end())
    if got is None:
        return None
    start, end, quoted = got
    value = text[start:end]
    ok = tokenlike(value) and plausible(value.strip("{}"), "secret", False, quoted)
    return (start, end) if ok else None


# -- markup ---------------------------------------------------------------------

_SECRET_TAGS = r"password|passwd|secret|token|apikey|api_key|key|passphrase"
# <secret>...</secret>, <clientSecret>...: matched at the label word (the element
# name may start before it: the check looks back for "<")
ELEMENT = rf"(?i:{_SECRET_TAGS})>"
_OPEN = lazy(r"<(?:[A-Za-z][\w.:-]{0,40})?\Z")


def element(text: str, m: re.Match[str]) -> Span | None:
    """The content of an element named for a secret, up to its closing tag."""
    if not _OPEN.search(text, max(0, m.start() - 42), m.start()):
        return None
    close = text.find("</", m.end(), m.end() + 600)
    if close < 0 or "\n" in text[m.end() : close]:
        return None
    start, end = m.end(), close
    while start < end and text[start] in " \t{":
        start += 1
    while end > start and text[end - 1] in " \t}":
        end -= 1
    value = text[start:end]
    if not value or not plausible(value, "secret", False, True):
        return None
    return (start, end)


ATTRIBUTE = (
    r"(?<![\w-])(?i:key|name)=(?P<q>[\"'])[\w.:-]{0,40}?"
    r"(?i:password|passwd|pwd|secret|token|apikey|api_key)[\w.:-]{0,40}?(?P=q)"
    r"[ \t]+(?i:value)="
)


def attribute(text: str, m: re.Match[str]) -> Span | None:
    """The value of ``key="...Password..." value="x"``."""
    got = value_at(text, m.end())
    if got is None or not got[2]:
        return None
    start, end, _ = got
    ok = plausible(text[start:end], "password", False, True)
    return (start, end) if ok else None
