"""Evidence scored together: a credential word anywhere in a clause, a value's
shape, and what speaks against either.

The label rules (``labels``, ``frames``, ``near``) each read one word order; a
phrasing none of them has goes through. This rule reads the clause around any
credential word of ``credwords.CRED_WORDS`` (inflected, in a compound, after a
clitic) and scores each token of it as the value:

    score = word + shape + separator - distance - context

- ``word``: what the word's kind makes likely (``WORD_WEIGHT``); none if the word
  is used in another sense (``credwords.SENSES``: "key decision", "dress code");
- ``shape``: the token's own evidence (``shapes.shape``): a password's strong
  shape, joined words, digits for a PIN word, a long random run; minus infinity
  for what is no value (a path, a version, a date, a ticket, a hash, a
  placeholder, a variable);
- ``separator``: ``:``, ``=``, an arrow, a copula right before it, quotes around it;
- ``distance``: tokens between the word and it, more for a token before the word;
  a sentence's end stops the clause;
- ``context``: the clause says where the value is rather than what it is ("in
  the vault", "ask Sam") (``shapes.ELSEWHERE``).

The best token is refused when its score reaches ``THRESHOLD``. The weights are
data here; the figures they give are in bench/README.md.
"""

from __future__ import annotations

import functools
import re

from gardener.neverstore import credwords as cw
from gardener.neverstore.regex import Span, lazy
from gardener.neverstore.shapes import (
    COPULAS,
    ELSEWHERE,
    NETWORK,
    PLAIN,
    STRONG,
    WEAK,
    changes,
    shape,
)
from gardener.neverstore.tables import cjk, trie
from gardener.neverstore.values import FUNCS, stopword

WORD_WEIGHT = {
    "pass": 3.0,
    "pin": 2.5,
    "lock": 2.5,
    "key": 2.5,
    "login": 2.0,
    "network": 2.0,
    "answer": 3.0,
}
SEPARATOR = 1.5  # ":", "=", an arrow right before the value
COPULA = 1.0  # "is", "ist", "هي" right before it
QUOTED = 1.0
STEP = 0.3  # per token between the word and the value
BEFORE = 1.0  # a value before its word
SLASH = 0.5  # "user / pass"
PAIRED = 0.5  # more, after a login's or a network's word
COMMA = 0.5  # a clause break ("," ";") between them
STORED = 2.5  # the clause says where the value is kept, or whom to ask
THRESHOLD = 6.0
BEST_SHAPE = 5.0  # the most a shape (with PAIRED) adds: bounds the work
AFTER_TOKENS = 10
READ = 24  # tokens read from the word on (asides and separators cost none)
BEFORE_CHARS = 64  # characters before the word read for values before it
WINDOW = 120  # characters before the word that are read (three times that after)
BEFORE_TOKENS = 4


def _every_word() -> set[str]:
    return {w.lower() for _, _, row in cw.CRED_WORDS for w in row.split("|")}


# every credential word, as one trie (lowercase: the engine searches a rule
# with ``anyof`` in the lowercased text; ``spans`` too); and as ``Rule.anyof``
STEMS = trie(_every_word())
WORDS = "|".join(sorted(_every_word()))


def stems(kind: str) -> str:
    """The regex of every credential word of ``kind`` in ``credwords.CRED_WORDS``,
    as a trie (``passes.trie``: a miss costs one comparison per position)."""
    words = {
        w.lower() for _, k, row in cw.CRED_WORDS if k == kind for w in row.split("|")
    }
    return rf"(?i:{trie(words)})"


def words(kind: str) -> str:
    """The credential words of ``kind``, lowercase, "|"-separated (``Rule.anyof``)."""
    found = {
        w.lower() for _, k, row in cw.CRED_WORDS if k == kind for w in row.split("|")
    }
    return "|".join(sorted(found))


# the rule id each kind of word's findings are reported under
_RULE_OF = {
    "pass": "password",
    "pin": "pin",
    "lock": "pin",
    "key": "secret",
    "login": "password",
    "network": "password",
    "answer": "security-answer",
}


@functools.cache
def _kinds() -> dict[str, tuple[tuple[str, str], ...]]:
    """Each credential word (lowercase): the (language, kind) rows it is in."""
    out: dict[str, list[tuple[str, str]]] = {}
    for lang, kind, row in cw.CRED_WORDS:
        for word in row.split("|"):
            out.setdefault(word.lower(), []).append((lang, kind))
    return {w: tuple(rows) for w, rows in out.items()}


@functools.cache
def _senses() -> dict[tuple[str, str], tuple[frozenset[str], frozenset[str]]]:
    out: dict[tuple[str, str], tuple[frozenset[str], frozenset[str]]] = {}
    for lang, stems, before, after in cw.SENSES:
        for stem in stems.split("|"):
            b, a = out.get((lang, stem), (frozenset(), frozenset()))
            out[(lang, stem)] = (b | set(before.split()), a | set(after.split()))
    return out


_UNSPACED = lazy(f"[{''.join(cw.UNSPACED)}]")


def _alnum(c: str) -> bool:
    # Arabic tatweel is part of a word; a CJK character starts another ("PIN码")
    return (c.isalnum() or c in "\u0640") and not cjk(c)


_KINDS = (
    "pass",
    "key",
    "pin",
    "lock",
    "login",
    "network",
    "answer",
)  # which kind wins where a stem has several


def word_at(text: str, start: int, end: int, only: str) -> str | None:
    """The kind of the credential word ``text[start:end]`` matched (``only``:
    ``pass``, ``pin`` or ``key``), or None if the word it sits in is no credential
    word of that kind (see ``credwords``)."""
    stem = text[start:end].lower()
    rows = [lang for lang, k in _kinds().get(stem, ()) if k == only]
    if not rows:
        return None
    if cjk(stem):
        return only
    if _UNSPACED.match(stem):  # "รหัสไปรษณีย์": a postal code
        return None if text.startswith(cw.UNSPACED_NOT, start) else only
    s, e = start, end
    while s > 0 and _alnum(text[s - 1]) and start - s < 24:
        s -= 1
    while e < len(text) and _alnum(text[e]) and e - end < 24:
        e += 1
    prefix, suffix = text[s:start], text[end:e]
    if text[s:e].lower() in cw.NOT_WORDS:
        return None
    dash = not suffix and text[e : e + 1] == "-" and text[e + 1 : e + 2].isalpha()
    if dash and not _any_stem().match(text, e + 1):
        return None  # "password-protected", "key-custody": another noun's part
    dashed = text[s - 1 : s] == "-" and s > 1 and text[s - 2].isalnum()
    # a camelCase hump names a password in code (dbPassword); other kinds of
    # word there are a field's name (schemaKey, oktaKey)
    hump = prefix[-1:].islower() and text[start].isupper() and only == "pass"
    kinds = []
    for lang in rows:
        kind = only
        if prefix and not (
            hump or lang in cw.COMPOUNDING or prefix in cw.CLITICS.get(lang, ())
        ):
            continue
        if suffix and (lang == "en" or len(suffix) > cw.INFLECTION):
            continue
        if dashed and lang == "en" and not _EN_DASHED.search(text, max(0, s - 12), s):
            continue  # "product-code"; but "wifi-key", "door-code"
        if suffix and not suffix.isalpha():
            continue
        if _other_sense(text, s, e, lang, stem):
            return None
        kinds.append(kind)
    return min(kinds, key=_KINDS.index, default=None)


@functools.cache
def _any_stem() -> re.Pattern[str]:
    words = {w for _, _, row in cw.CRED_WORDS for w in row.split("|")}
    return re.compile(rf"(?i:{'|'.join(sorted(words, key=len, reverse=True))})")


_EN_DASHED = lazy(
    r"(?i)(?:wi-?fi|wlan|door|gate|alarm|access|api|lock|pin|root|admin|master|app"
    r"|db|vpn)-$"
)
_AT = lazy(r"[\s\S]+")  # a whole span: ``_windowed``'s word as a match
# a word's letters, with the vowel signs of the Indic scripts (no ``\w``)
_MARKS = "\u0900-\u0dff"
_WORD_BEFORE = lazy(
    rf"([^\W\d_][^\W_]*(?:[{_MARKS}][^\W_]*)*)[^\w\n,;，、{_MARKS}]{{0,3}}_?$"
)
_WORD_AFTER = lazy(rf"[ \t\-]{{0,3}}([^\W\d_][\w'{_MARKS}-]*)")


def _other_sense(text: str, s: int, e: int, lang: str, stem: str) -> bool:
    """Whether the word at ``s:e`` has another sense by the word before or after
    it (``credwords.SENSES``)."""
    sense = _senses().get((lang, stem))
    if sense is None:
        return False
    before, after = sense
    b = _WORD_BEFORE.search(text[max(0, s - 40) : s])
    if b and b.group(1).lower() in before:
        return True
    a = _WORD_AFTER.match(text, e)
    return bool(a and a.group(1).lower() in after)


_CUT = "\u2e80-\u9fff\uac00-\ud7a3\u3000-\u303f\uff00-\uffef"
_TOKEN = lazy(
    rf"[^\s{_CUT}]+|[\u2e80-\u9fff\uac00-\ud7a3]+|[\u3000-\u303f\uff00-\uffef]"
)
_OPEN = "([{<\"'`“‘«「*|"
_END = ".,;:?)]}>\"'`”’»」*|"
_STOP = ".!?。！？"
_BREAK = ",;，、；،"
_ARROWS = (":", "=", "：", "->", "→", "=>", "—", ":：")


class _Tok:
    __slots__ = ("end", "lead", "quoted", "start", "tail", "text")

    def __init__(self, m: re.Match[str]) -> None:
        raw = m.group()
        core = raw.lstrip(_OPEN + ":=：")
        alone = not core.rstrip(_END)
        if alone:
            core = raw  # punctuation alone (":", "—"): a separator token
        self.start = m.start() + len(raw) - len(core)
        self.lead = raw[: len(raw) - len(core)]
        cut = len(core)
        while cut and core[cut - 1] in _END and not alone:
            cut -= 1
        self.tail = core[cut:]
        self.text = core[:cut]
        self.end = self.start + cut
        self.quoted = bool(self.lead[-1:] and self.lead[-1] in "\"'`“‘«「")


def _tokens(
    text: str, start: int, end: int, at: int | None = None, most: int = 0
) -> list[_Tok]:
    """The tokens of ``text[start:end]``; with ``at``, at most ``most`` of them
    from the one ``at`` falls in on."""
    out = []
    after = 0
    for m in _TOKEN.finditer(text, start, end):
        if at is not None and m.end() > at:
            after += 1
            if after > most:
                break
        out.append(_Tok(m))
    return out


_HASH_NAME = lazy(r"(?i)(?:sha\d*|md5|blake2\w*)[:=]")
_CLITIC_DASH = lazy(r"[\u05d0-\u05ea]{1,2}[-\u05be](?=\d)")


def _value_parts(tok: _Tok) -> list[tuple[int, int, str, bool]]:
    """The value a token may hold: itself, or what follows "=" or ":" in it
    (``psk=Älgstig!93``, ``user:pass``): (start, end, text, after a separator)."""
    out = [(tok.start, tok.end, tok.text, False)]
    clitic = _CLITIC_DASH.match(tok.text)
    if clitic:  # Hebrew "ל-9021": "to 9021"
        out.append((tok.start + clitic.end(), tok.end, tok.text[clitic.end() :], False))
    for sep in "=:":
        at = tok.text.find(sep)
        if 0 < at < len(tok.text) - 1 and not _HASH_NAME.match(tok.text):
            inner = tok.text[at + 1 :]
            if inner.startswith(("`", "$(")):
                continue  # a command's output
            core = inner.lstrip(_OPEN)
            start = tok.start + at + 1 + len(inner) - len(core)
            core = core.rstrip(_END)
            if core:
                out.append((start, start + len(core), core, True))
    return out


def check(text: str, m: re.Match[str]) -> tuple[int, int, str] | None:
    """The rule's check: the best value of any kind the word at ``m`` is of
    (``score``), with the rule id it is reported under (``RULES``)."""
    found = [
        (got, rule)
        for kind in _kinds_of(m.group())
        if (got := score(text, m, kind))
        for rule in (_RULE_OF[kind],)
    ]
    if not found:
        return None
    (start, end), rule = found[0]
    return start, end, rule


@functools.cache
def _kinds_of(word: str) -> tuple[str, ...]:
    """The kinds a credential word is of, in ``KINDS`` order."""
    kinds = {k for _, k in _kinds().get(word.lower(), ())}
    return tuple(k for k in KINDS if k in kinds)


def score(text: str, m: re.Match[str], only: str) -> Span | None:
    """The best-scoring value in the clause around a credential word, if its score
    reaches ``THRESHOLD`` (see the module docstring). Only the word's line is
    read, at most ``WINDOW`` characters before the word and three times that
    after it; the same window scores the same (a note's lines are read many
    times over: ``_windowed`` keeps the last few thousand)."""
    start, end = m.span()
    low = text.rfind("\n", max(0, start - WINDOW), start) + 1
    low = max(low, start - WINDOW)
    if low > 0 and text[low - 1] != "\n":
        low = text.find(" ", low, start) + 1 or low
    high = text.find("\n", end, end + 3 * WINDOW)
    high = min(len(text), end + 3 * WINDOW) if high < 0 else high
    got = _windowed(text[low:high], start - low, end - low, only)
    return None if got is None else (got[0] + low, got[1] + low)


@functools.lru_cache(maxsize=4096)
def _windowed(text: str, start: int, end: int, only: str) -> Span | None:
    """``score`` in a window of one line: the word at ``start:end``."""
    return windowed(text, start, end, only)


def windowed(
    text: str, start: int, end: int, only: str, prune: bool = True
) -> Span | None:
    """``_windowed`` uncached; ``prune`` False shapes every candidate, the
    slow path the pruning of ``consider`` must agree with (a property test)."""
    m = _AT.match(text, start, end)  # the word again, as a match of its own
    if m is None:
        return None
    kind = word_at(text, m.start(), m.end(), only)
    if kind is None or _verb(text, m):
        return None
    if prune and kind in ("login", "network") and _no_value(text, kind):
        return None
    line_start, line_end = 0, len(text)
    if kind == "answer":
        return _answer(text, m.end(), line_end)
    # the tokens read: a few before the word's own, up to ``READ`` from it on
    head = text.rfind(" ", 0, max(0, m.start() - BEFORE_CHARS)) + 1
    toks = _tokens(text, head, line_end, m.start(), READ)
    here = next((i for i, t in enumerate(toks) if t.end > m.start()), len(toks))
    # the token the word ends in ("mot de passe" spans three; a CJK word's own
    # token may end in a copula: "暗証番号は", "密码是")
    tail = next((i for i, t in enumerate(toks) if t.end >= m.end()), len(toks))
    weight = WORD_WEIGHT[kind]
    best: list[tuple[float, Span]] = []
    changed: list[bool] = []  # read once, when a word of letters needs it

    def consider(s: int, e: int, value: str, bonus: float, cost: float) -> None:
        if weight + CONTEXT + BEST_SHAPE + bonus - cost < THRESHOLD:
            return  # no shape could make it: skip the shape's regexes
        if prune and kind in ("login", "network") and value.isalpha():
            return  # at most ``PLAIN``: under ``WEAK``, which both kinds need
        # "user / x": a login's or a network's value; after a password's word
        # too ("пароль от роутера? Ответ: admin / Kotik2019")
        paired = kind in ("login", "network", "pass") and _paired(text, s)
        if prune and not paired and kind in ("login", "network"):
            # unpaired, a network word's value never counts, and a login
            # word's only with ``STRONG``, the one shape of 4 or more a "pass"
            # value has, which ``near.strong`` gives only to 8 characters or
            # more with a digit: skip the change words' and the shape's
            # regexes (docs/internals.md, "Work in proportion to what changed")
            if kind == "network" or len(value) < 8:
                return
            if not any(c.isdigit() for c in value):
                return
        quoted = _quoted_word(text, s, e)
        if value.isalpha() and not quoted:
            if not changed:
                changed.append(bool(changes().search(text, line_start, line_end)))
            if not changed[0]:
                return  # a word of letters is a value only where the clause sets one
        got = shape(value, "pass" if paired or kind == "login" else kind, text, s, e)
        if got is None:
            return
        if kind == "login" and got < STRONG and not (got >= WEAK and paired):
            return  # a login word's value: a strong shape, or the pass of a pair
        if kind == "network" and not (got >= WEAK and paired):
            return  # a network's word: its name follows, and its key after "/"
        bonus += PAIRED if paired else 0.0
        if got == PLAIN:
            # a plain word is a value only right after "to" or ":" ("set ... to
            # Ember"), or before "as" ("Lokum olarak"), and is no verb itself
            if changes().fullmatch(value) or value.lower() in COPULAS:
                return
            if quoted and bonus >= QUOTED + COPULA:
                pass  # a quoted word after ":" or "is": «Барсик», "pancakes"
            elif not (
                _TO_BEFORE.search(text, max(0, s - 16), s)
                or _POST_COPULA.match(text, e)
            ):
                return
            else:
                bonus += CHANGE
        best.append((weight + got + bonus - cost, (s, e)))

    own = toks[tail] if tail < len(toks) else None
    if own is not None and own.start < m.end() <= own.end:
        rest = text[m.end() : own.end]
        if rest[:1] in ("=", ":", "：") and len(rest) > 1:  # "psk=x", "Passwort:x"
            value = rest[1:]
            if not value.startswith(("`", "$(")):  # a command's output
                core = value.lstrip(_OPEN)
                start = own.end - len(core)
                consider(start, own.end, core, SEPARATOR, 0.0)
        if _identifier(text, m.start(), m.end()):
            return _best(best, text, line_start, line_end)  # DB_PASSWORD_FILE=...
        after = toks[tail + 1 :]
        pending = rest[len(rest.rstrip("".join(_ARROWS))) :]
        if rest and rest[-1] in _CJK_COPULAS:
            pending = "is"
        if any(c in _STOP for c in own.tail):
            if not _answered(own, after):
                after = []
            elif after[0].quoted:
                pending = ":"  # the question's answer
    else:
        after, pending = toks[tail:], ""
    _scan_after(text, after, pending, consider)
    cost = BEFORE
    copula = 0.0  # "8815 is the gate code", "4862 ist der neue Code"
    for tok in reversed(toks[max(0, here - BEFORE_TOKENS) : here]):
        if any(c in _STOP or c in _BREAK for c in tok.tail):
            break
        consider(tok.start, tok.end, tok.text, copula, cost)
        if tok.text.lower() in COPULAS:
            copula = COPULA
        cost += _step(tok)
    return _best(best, text, line_start, line_end)


_QUOTES = "\"'`“‘«「"  # what opens a quoted value (``_Tok.quoted``)


def _quoted_word(text: str, s: int, e: int) -> bool:
    """Whether the value at ``s:e`` is quoted alone ("«Барсик»", '"pancakes"')."""
    close = _QUOTE_PAIRS.get(text[s - 1 : s]) if s else None
    if close is None or text[e : e + 1] != close:
        return False
    value = text[s:e]  # a constant's name ('USERNAME') or a field's is none
    return not value.isupper() and not _any_stem().search(value)


_MARKED = frozenset(cw.ANSWER_MARKS.split())


def _answered(own: _Tok, after: list[_Tok]) -> bool:
    """Whether the word's question is answered next: "keypad? A: 3947"."""
    if "?" not in own.tail and "？" not in own.tail:
        return False
    first = after[0] if after else None
    if first is not None and first.quoted:
        return True  # 'wifi pw? "pancakes"'
    return bool(
        first and first.text.lower() in _MARKED and first.tail[:1] in (":", "：")
    )


_ALNUM4 = lazy(r"[a-zA-Z0-9]{4}")
_AFTER_SLASH = lazy(r"[ \t]*(\S*)")


def _no_value(text: str, kind: str) -> bool:
    """Whether no value in the window ``text`` can count for a login or a
    network word (``consider``'s pruning, read off the whole window). A
    paired value (``_paired``) starts right after "/" and its spaces: one
    that counts is no word of letters (``WEAK`` at least), so the run of
    non-space characters there is 4 long or more and not all letters, or four
    groups (``_grouped``: runs holding 4 ASCII letters or digits each) follow
    one another somewhere. Else a network word has no value, and a login
    word's needs ``STRONG``: 8 characters or more with a digit, inside one
    run unless it is a quoted phrase."""
    runs = text.split()  # the whitespace of ``_TOKEN``'s ``\s``
    streak = 0
    for run in runs:
        streak = streak + 1 if _ALNUM4.search(run) else 0
        if streak >= 4:
            return False
    at = text.find("/")
    while at >= 0:
        after = _AFTER_SLASH.match(text, at + 1)
        run = after.group(1) if after else ""
        if len(run) >= 4 and not run.isalpha():
            return False
        at = text.find("/", at + 1)
    if kind == "network":
        return True
    if any(q in text for q in _QUOTES):
        return False
    return not any(len(r) >= 8 and any(c.isdigit() for c in r) for r in runs)


def _best(
    found: list[tuple[float, Span]], text: str, start: int, end: int
) -> Span | None:
    """The best candidate's span if, with the clause's context (``_context``,
    read only now: most words have no candidate), it reaches ``THRESHOLD``."""
    top = max(found, default=None)
    if top is None or top[0] + CONTEXT < THRESHOLD:
        return None
    return top[1] if top[0] + _context(text, start, end) >= THRESHOLD else None


def _scan_after(text: str, toks: list[_Tok], pending: str, consider) -> None:  # type: ignore[no-untyped-def]
    """Score the tokens after the word, up to ``AFTER_TOKENS``, to the end of
    the clause's sentence and one more (at a cost: "... lösenordet till sin iPad
    igen. Det är x"): ``consider(start, end, value, bonus, cost)`` for each."""
    cost = 0.0
    previous = "is" if pending == "is" else ""
    pending = "" if pending == "is" else pending
    aside = False
    scope = 0  # tokens since a colon, which names what follows
    sentences = 0
    n = 0
    for k, tok in enumerate(toks):
        if n >= AFTER_TOKENS:
            return
        if tok.text in _ARROWS or tok.text in _LONE:
            pending += tok.text  # a separator standing alone
            continue
        n += 1
        bonus = 0.0
        separated = any(a in pending for a in _ARROWS) or (
            tok.lead[:1] != "" and tok.lead[:1] in ":=："
        )
        scope = 1 if separated else scope + 1 if scope else 0
        if separated:
            bonus += SEPARATOR
        elif previous.lower() in COPULAS:
            bonus += COPULA
        elif "/" in pending:
            bonus += SLASH  # "user / pass"
        if scope in (2, 3) and not separated:
            bonus += SEPARATOR / 2  # "also: EC-Karte 3817"
        if tok.quoted:
            bonus += QUOTED
        # a value right after a colon that ends the label's phrase: the words
        # before it name the value ("TOTP secret for ops@ (backup here): x")
        here_cost = min(cost, COLON_COST) if scope else cost
        for s, e, value, inner in _value_parts(tok):
            consider(s, e, value, bonus + (SEPARATOR if inner else 0.0), here_cost)
        group = _grouped(toks, k) if 4 <= len(tok.text) <= 5 and not tok.tail else None
        if group is not None:
            consider(*group, bonus, here_cost)
        if tok.quoted:
            quoted = _quoted(text, tok)
            if quoted is not None:
                consider(*quoted, bonus, here_cost)
        if _FIELD.fullmatch(tok.text + tok.tail) and k:
            return  # another field's name ('"id":'): what follows is its value
        ended = any(c in _STOP for c in tok.tail) or tok.text.endswith(("!", "。"))
        if ended and not _answered(tok, toks[k + 1 : k + 2]):  # "...? Ответ: x"
            sentences += 1
            if sentences > 1:
                return
            cost += SENTENCE
        opened = "(" in tok.lead or "（" in tok.lead
        aside = (aside or opened) and not (")" in tok.tail or "）" in tok.tail)
        cost += ASIDE if (aside or opened) else _step(tok)
        previous = tok.text
        pending = tok.tail[-1:] if tok.tail[-1:] and tok.tail[-1:] in "/:=" else ""
        if tok.tail.endswith(":") or tok.tail.endswith("："):
            pending = ":"


_FIELD = lazy(r"[\w.-]+[\"'][ \t]*[:=]")  # a quoted field name and its colon
SENTENCE = 1.0  # a sentence's end between the word and the value
_QUOTE_PAIRS = {'"': '"', "'": "'", "`": "`", "“": "”", "‘": "’", "«": "»", "「": "」"}


def _quoted(text: str, tok: _Tok) -> tuple[int, int, str] | None:
    """A quoted phrase of two to six words from ``tok`` on ('tangerine lobby
    velvet 42'): (start, end, ``PHRASE`` marker text), or None."""
    close = _QUOTE_PAIRS.get(tok.lead[-1])
    end = text.find(close, tok.start, tok.start + 80) if close else -1
    if end < 0 or "\n" in text[tok.start : end]:
        return None
    phrase = text[tok.start : end]
    if _any_stem().search(phrase):
        return None  # 'Salasana liian lyhyt': a message about the password
    words = phrase.split()
    if not 2 <= len(words) <= 6:
        return None
    return tok.start, end, phrase


_LONE = ("-", "/", "|", "–")
_CJK_COPULAS = "は是为為成到는은이가"
# what a plain word follows when it is the new value: "to", ":", an arrow
_TO_BEFORE = lazy(
    r"(?i)(?:(?<![^\W\d_])(?:to|auf|zu|in|en|à|a|por|para|naar|na|till|til|på|в|на|ל|إلى"
    r"|olarak)|[:：→]|->|[为成にを로])[ \t]*\Z"
)
_POST_COPULA = lazy(r"[ \t]*(?:olarak|に|로|으로|と)")
ASIDE = 0.1  # per token of an aside in brackets
COLON_COST = 1.0  # at most, for a value right after a colon


def _step(tok: _Tok) -> float:
    """What a token between the word and a value costs: a function word, a
    copula or a setting verb less ("... is gewijzigd naar x")."""
    low = tok.text.lower()
    cheap = low in FUNCTION_WORDS or len(low) <= 3 or low in COPULAS or low in _OPENS
    cost = FUNCTION_STEP if cheap or changes().fullmatch(low) else STEP
    return cost + (COMMA if any(c in _BREAK for c in tok.tail) else 0.0)


FUNCTION_STEP = 0.1
_OPENS = frozenset(w for _, row in cw.OPEN_WORDS for w in row.split("|"))
FUNCTION_WORDS = FUNCS
_GROUP = lazy(r"[a-zA-Z0-9]{4,5}")


def _grouped(toks: list[_Tok], k: int) -> tuple[int, int, str] | None:
    """Four or more groups of 4-5 letters and digits from token ``k`` on, most
    with a digit (a TOTP seed as shown: ``436y fk5q kotl skfe``): (start, end, text)."""
    run = []
    for tok in toks[k : k + 16]:
        if not _GROUP.fullmatch(tok.text):
            break
        run.append(tok)
        if tok.tail:
            break
    digits = sum(any(c.isdigit() for c in t.text) for t in run)
    if len(run) < 4 or digits * 2 < len(run):
        return None
    return run[0].start, run[-1].end, "".join(t.text for t in run)


_IDENT_AROUND = lazy(r"[A-Za-z0-9]_|_[A-Za-z0-9]")


def _identifier(text: str, start: int, end: int) -> bool:
    """Whether the word is part of a snake_case name (``POSTGRES_PASSWORD_FILE``)."""
    return bool(
        _IDENT_AROUND.match(text, max(0, start - 2)) or _IDENT_AROUND.match(text, end)
    )


def _verb(text: str, m: re.Match[str]) -> bool:
    """Whether a lowercase "pin" starts its clause: the verb ("pin 4096 pages")."""
    if m.group() != "pin":
        return False
    head = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
    return not head.strip(" \t-*>#0123456789.)") or head.rstrip().endswith((";", "."))


def _context(text: str, start: int, end: int) -> float:
    """Evidence of the clause as a whole: ``CONTEXT`` for a network word ("wifi"),
    minus ``STORED`` if it says where the value is kept or whom to ask."""
    out = -STORED if ELSEWHERE.search(text, start, end) else 0.0
    if NETWORK.search(text, start, end):
        out += CONTEXT
    return out


CONTEXT = 1.5
CHANGE = 1.5  # a verb that sets the value, for a plain word


_PAIRED = lazy(r"[^\s/]{2,64}[ \t]*/[ \t]*\Z")


def _paired(text: str, start: int) -> bool:
    """Whether the value at ``start`` follows ``user /`` (a login pair)."""
    return bool(_PAIRED.search(text, max(0, start - 72), start))


# after a security question's words and maybe an aside: a separator or a verb
# of answering, then the answer
_ANSWER_SEP = lazy(
    r"(?i)(?:[ \t]*(?:[:：=]|->|→|—)[ \t]*"
    r"|[ \t]+(?:is|ist|est|es|é|è|это|je|är|er|on|was|answered|odpowiedzia\w+"
    r"|geantwortet|répondu|respondí|risposto|respondi|ответил\w*|cevap|svar(?:et)?"
    r"|vastaus|答え|答案|答)[ \t]+)"
)
_ANSWER_BODY = lazy(r"[^\n.,;!?()（）。，]{2,40}")


def _answer(text: str, pos: int, end: int) -> Span | None:
    """The answer after a security question's words: the words after a
    separator, to the end of their clause, if a password could be them."""
    # each separator in turn: the first may be a word of the question ("on
    # the insurance site is x": Finnish "on" is "is")
    for sep in _ANSWER_SEP.finditer(text, pos, min(end, pos + 96)):
        if sep.start() - pos > 80 or "\n" in text[pos : sep.start()]:
            return None
        got = _answer_body(text, sep.end(), end)
        if got is not None:
            return got
        if sep.group().strip() in (":", "：", "=", "->", "→", "—"):
            return None  # after a colon, the answer or nothing
    return None


def _answer_body(text: str, pos: int, end: int) -> Span | None:
    """The answer's words at ``pos``, to the end of their clause, if a password
    could be them (``_answer``)."""
    body = _ANSWER_BODY.match(text, pos, end)
    if body is None:
        return None
    s, e = body.span()
    while e > s and (text[e - 1].isspace() or text[e - 1] in "\"'“”»*"):
        e -= 1
    while s < e and text[s] in "\"'“„«*":
        s += 1
    value = text[s:e]
    words = value.split()
    if not words or len(words) > 3 or len(value) < 2:
        return None
    if any(w.lower() in FUNCS or stopword(w) for w in words[:1]):
        return None
    return (s, e)


_NUMBERISH = lazy(r"[vV]?[\d.,%+-]+")
# "<label>: user / password", whatever the label's words: a pair after a colon
PAIR = r"[:：](?P<sep>[ \t]*)(?P<user>[^\s/:：|]{2,64})[ \t]*/[ \t]*(?=\S)"


def pair(text: str, m: re.Match[str]) -> Span | None:
    """The password of ``label: user / password``, if it has a password's strong
    shape and the user is a name (no path, number or URL)."""
    user = m.group("user")
    if _NUMBERISH.fullmatch(user) or user.startswith(("~", ".", "http")):
        return None  # "1 / 2", "v1.2 / v1.3", a path or a URL; "pekka.v" is a name
    # only the token right after the pair's "/" is read: a token ends before a
    # line's end, so the rest of the line (a megabyte, maybe) is never tokenised
    first = _TOKEN.match(text, m.end())
    if first is None:
        return None
    tok = _Tok(first)
    if tok.start != m.end():
        return None
    got = shape(tok.text, "pass", text, tok.start, tok.end)
    return (tok.start, tok.end) if got == STRONG else None


KINDS = ("pass", "pin", "lock", "key", "login", "network", "answer")


def spans(text: str) -> list[Span]:
    """Every value this rule alone refuses in ``text`` (without the table's other
    rules, the engine's placeholders or markers), sorted: for tests and benches."""
    out: set[Span] = set()
    for m in re.finditer(
        STEMS, text.lower() if text.lower().__len__() == len(text) else text
    ):
        got = check(text, m)
        if got:
            out.add(got[:2])
    for m in re.finditer(PAIR, text):
        got = pair(text, m)
        if got:
            out.add(got)
    return sorted(out)
