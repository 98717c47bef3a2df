"""Restatements of a current key (pure): a sentence that names a current
fact's key and says its value was set anew gives that key the new value,
whatever voice it is written in ("rate limit raised to 300 requests/min"
after "Rate limit: 100 requests/min"; "Webhook-Timeout auf 25 Sekunden
hochgesetzt"; "limite d'envoi relevée à 2 000 e-mails"; "周会改到周三下午").

A log line ("raised ...", "hochgesetzt") is an event to the classifier, and
the key it would infer ("gateway timeout") is not the one MEMORY.md holds
("API gateway timeout"), so without this the new value is dropped or filed
beside the old one. What makes a restatement (docs/design.md, "Changes and
removals"):

- a mark of change: a lexicon ``change_verbs`` phrase ("raised", "goes to",
  "改为"), a ``change_words`` word ("now", "désormais") or an arrow;
- the words of one current key, more of them than of any other key (words
  compared by their first five letters; Chinese and Japanese keys by their
  first two characters);
- a new value read from the sentence: a change frame's, else a quantity
  where the old value holds one ("25 Sekunden" for "10 Sekunden"), else the
  words after the mark's preposition ("to", "auf", "à", "на", "为", "に");
- no question, no hedge ("maybe", "vielleicht", "也许"), no negated value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

from gardener.lexicon.match import unspaced
from gardener.lexicon.words import Words
from gardener.model.facts import Fact
from gardener.planning.asserted import asserts
from gardener.planning.frames import bare, negated, read_frame

_WORD = re.compile(  # words of spaced scripts: a Chinese or Japanese run is none
    r"[^\W\d_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]{3,}|[^\W\d_]*\d[\w]*"
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
# words of a key that name nothing of their own
_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "und",
        "für",
        "mit",
        "von",
        "vom",
        "zum",
        "zur",
        "les",
        "des",
        "une",
        "pour",
        "avec",
        "par",
        "dans",
        "sur",
        "del",
        "los",
        "las",
        "con",
        "por",
        "para",
        "una",
        "как",
        "для",
        "про",
        "при",
        "над",
        "под",
    ]
)
_QUESTION = re.compile(r"[?？]")
_CODE = re.compile(r"`|\w\.(?:py|js|ts|rs|go|rb|sh|md|json|toml|ya?ml)\b|\(\)|/\w")
_MAX_TEXT = 250  # a longer entry is a log paragraph: it names keys in passing
_NEAR = 4  # words between the key and the mark of change, at most
_COMMON = 300  # keys (or facts) sharing a word past which it names none of them
_SENTENCE = re.compile(r"(?<=[.!。！])\s+(?=\S)|(?<=[。！])")
_MAX_VALUE_WORDS = 6
# a quantity: a number with its currency, unit and per-unit ("$15/month",
# "25 Sekunden", "2 000 e-mails/jour", "300 requests/min", "10:00 Uhr")
# words after a number that are no unit of it ("3000 so it matches")
_FUNCTION = (
    r"(?:so|for|to|and|or|in|on|at|as|after|because|if|when|with|from|by|then|now|"
    r"und|oder|für|mit|bis|ab|et|ou|pour|avec|dès|y|o|para|con|desde|и|или|для|с|до)\b"
)
_QUANTITY = re.compile(
    r"(?:[$€£¥₽]\s?|R\$\s?)?\d[\d.,:]*(?:[ \u00a0\u202f]\d{3})*(?:\s?[–-]\s?\d[\d.,:]*)?"
    r"(?:\s?(?:%|(?!" + _FUNCTION + r")[^\W\d_][\w-]*(?:/[^\W\d_]+)?|/[^\W\d_]+))?"
    r"|[一二三四五六七八九十两\d]+[点點:：][\d一二三四五六七八九十半]*"
)


@dataclass(frozen=True, slots=True)
class Restated:
    """The current fact a sentence restates, and the value it gives it."""

    fact: Fact
    value: str


_ACRONYM = re.compile(r"(?<![A-Za-z])[A-Z]{2}(?![A-Za-z])")  # "JS", "DB", "DBを"


def _stems(text: str) -> frozenset[str]:
    """The words of ``text`` that can name a key, casefolded."""
    low = text.casefold()
    out = {w for w in _WORD.findall(low) if w not in _STOP}
    out.update(a.casefold() for a in _ACRONYM.findall(text))
    return frozenset(out)


def meet(a: str, b: str) -> bool:
    """Whether two words are one word inflected: equal, the same first five
    letters ("updates", "updated"), or one the other's start with at most
    three more letters ("poll", "polling"; not "work", "workspace")."""
    if a == b or (len(a) >= 5 and a[:5] == b[:5]):
        return True
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 4 and long_.startswith(short) and len(long_) - len(short) <= 3


def _says(low: str, mine: frozenset[str], name: str) -> bool:
    """Whether a text (casefolded, and its words) says a topic's ``name``."""
    if _CJK.match(name):
        return name in low
    said = [w for w in _WORD.findall(name) if w not in _STOP] or name.split()
    return bool(said) and all(any(meet(w, k) for w in mine) for k in said)


def apart(mine: str, theirs: str) -> bool:
    """Whether two keys name two things: each has a word the other lacks
    ("JS runtime", "Container runtime"); "registry" and "Container
    registry", or "team VPN" and "VPN", may be one."""
    a, b = _stems(key_part(mine)), _stems(key_part(theirs))
    return any(not any(meet(x, y) for y in b) for x in a) and any(
        not any(meet(y, x) for x in a) for y in b
    )


def key_part(key: str) -> str:
    """The part of a key that names the attribute: its last part ("Pricing /
    Pro plan" -> "Pro plan")."""
    return key.rsplit(" / ", 1)[-1].strip()


class KeyIndex:
    """Stems of the current keys -> their normalized keys, grown with the
    keys a pass adds (``slots`` only grows, in insertion order)."""

    def __init__(self, names: Mapping[str, tuple[str, ...]] | None = None) -> None:
        # a topic's names in every language ("datenbank" -> "db", "数据库" ...):
        # a key that is one is named by any of them ("DB auf PostgreSQL umgezogen")
        self.names = names or {}
        self.aliases: dict[str, tuple[str, ...]] = {}
        self.by_stem: dict[str, set[str]] = {}
        self.stems: dict[str, frozenset[str]] = {}
        self.ends: dict[str, tuple[str, str]] = {}  # its first and last word
        self.cjk: dict[
            str, tuple[str, ...]
        ] = {}  # key -> its first and last two characters
        self.known = 0

    def grow(self, slots: Sequence[str] | Mapping[str, object]) -> None:
        """Index the keys of ``slots`` (normalized, in the order they came)
        not indexed yet; a list is read from where the last call stopped
        (``islice`` of a dict walks every key before that point again: a pass
        of 18,000 new keys spent ~0.5 s so)."""
        if len(slots) == self.known:
            return
        new = (
            slots[self.known :]
            if isinstance(slots, list)
            else islice(slots, self.known, None)
        )
        for nk in new:
            part = key_part(nk)
            if _CODE.search(part):
                continue  # a file or a command is named, not restated
            if nk in self.names:
                self.aliases[nk] = tuple(n for n in self.names[nk] if n != nk)
            if _CJK.match(part):
                # a modifier first, the head last ("事務所の住所", "周会时间")
                self.cjk[nk] = (part[:2], part[-2:]) if len(part) > 2 else (part,)
                continue
            said = [w for w in _WORD.findall(part.casefold()) if w not in _STOP]
            said += [a.casefold() for a in _ACRONYM.findall(part)]
            if said:
                self.stems[nk] = frozenset(said)
                self.ends[nk] = (said[0], said[-1])
                for w in said:
                    self.by_stem.setdefault(w[:4], set()).add(nk)
        self.known = len(slots)

    def whole(self, text: str, nk: str) -> bool:
        """Whether ``text`` names every word of a key of one or two words
        (or one of its topic's names, or it is longer)."""
        stems = self.stems.get(nk)
        if stems is None or len(stems) > 2:
            return True
        mine = _stems(text)
        low = text.casefold()
        if any(_says(low, mine, name) for name in self.aliases.get(nk, ())):
            return True
        return all(any(meet(w, k) for w in mine) for k in stems)

    def words_of(self, nk: str) -> set[str]:
        """The words of a key and of its topic's names."""
        out = set(self.stems.get(nk, ()))
        for name in self.aliases.get(nk, ()):
            out.update(_stems(name) or {name.casefold()})
        return out

    def named(self, text: str) -> list[str]:
        """The keys ``text`` names best (ties all returned), best first."""
        mine = _stems(text)
        met: dict[str, set[str]] = {}  # key -> its words the text names
        for w in mine:
            posted = self.by_stem.get(w[:4], ())
            if len(posted) > _COMMON:
                continue  # a word of hundreds of keys ("list", "price") tells none apart
            for nk in posted:
                hit = {k for k in self.stems[nk] if meet(w, k)}
                if hit:
                    met.setdefault(nk, set()).update(hit)
        ranked: list[tuple[float, int, str]] = []
        for nk, hit in met.items():
            n, k = len(hit), len(self.stems[nk])
            # half its words, or a third with its first or last word (the head:
            # "Лимит запросов к API", "rate limit", "Webhook-Timeout")
            first, last = self.ends[nk]
            if n * 2 >= k or (n * 3 >= k and (first in hit or last in hit)):
                ranked.append((n / k, n, nk))
        if self.aliases:
            low = text.casefold()
            for nk, said in self.aliases.items():
                if any(_says(low, mine, name) for name in said):
                    ranked.append((1.0, len(self.stems.get(nk, ())) or 1, nk))
        if _CJK.search(text):
            for nk, ends in self.cjk.items():
                if any(e in text for e in ends):
                    ranked.append((1.0, len(key_part(nk)), nk))
        ranked.sort(reverse=True)
        if not ranked:
            return []
        best = ranked[0][:2]
        return [nk for score, n, nk in ranked if (score, n) == best]


def marks_of_change(words: Words) -> re.Pattern[str]:
    """What marks a change in ``words``' languages: a ``change_verbs`` or
    ``change_words`` phrase ("raised", "switched to", "now", "改成")."""
    global _last_marks
    verbs, said = words.change_verbs, words.change_words
    last = _last_marks
    if last is not None and last[0] is verbs and last[1] is said:
        return last[2]  # hashing the phrases' tuple per call cost more than a search
    got = _marks((*verbs, *said))
    _last_marks = (verbs, said, got)
    return got


# the tables (by identity: tuples, so the same phrases) and their regex
_last_marks: tuple[tuple[str, ...], tuple[str, ...], re.Pattern[str]] | None = None


@lru_cache(maxsize=8)
def _marks(said: tuple[str, ...]) -> re.Pattern[str]:
    phrases = sorted(set(said), key=len, reverse=True)
    spaced = [re.escape(p) for p in phrases if not unspaced(p[:1])]
    joined = [re.escape(p) for p in phrases if unspaced(p[:1])]
    parts = []
    if spaced:
        parts.append(rf"(?<!\w)(?:{'|'.join(spaced)})(?!\w)")
    if joined:
        parts.append("|".join(joined))
    parts.append(r"→|->|=>")
    return re.compile("|".join(parts), re.IGNORECASE)


# the preposition a value follows after a mark ("to", "auf", "à", "на", "为")
_TO = re.compile(
    r"(?<!\w)(?:to|into|at|on|auf|nach|zu|à|a|au|sur|vers|en|на|в|до)\s+(.+)$"
    r"|(?:为|成|到|至)\s*(.+)$",
    re.IGNORECASE | re.DOTALL,
)
# a clause ends at a comma, a colon (not a clock's: "09:00"), a dash or a reason
_CLAUSE_END = re.compile(
    r"\s*(?:[,;(（，；。!！—–]|(?<!\d):|:(?!\d)|\s-\s|\s(?:because|since|so|after|as|for|per|until|"
    r"starting|from|weil|da|damit|ab|seit|parce|car|pour|depuis|porque|desde|para|"
    r"потому|так|после|с)\b).*$",
    re.IGNORECASE | re.DOTALL,
)
# a verb at the end, its value before it: "DB auf PostgreSQL umgezogen"
_BEFORE = re.compile(r"(?<!\w)(?:auf|zu|nach|in|an|à|a|en|на|в)\s+([^,;:]+?)\s*$", re.I)
# Japanese: the value before に/へ and a change ("DBをAuroraに移行")
_JA_VALUE = re.compile(
    r"([^\sをはがもの、。]{1,20})[にへ](?:変更|移行|引き上げ|引き下げ|切り替え|変わ|なり|延長|短縮|移転|アップグレード)"
)


def restate(
    text: str,
    index: KeyIndex,
    current: Callable[[str], Fact | None],
    words: Words,
    given: str | None = None,
) -> Restated | None:
    """The current fact ``text`` restates with a new value, or None (see the
    module's docstring). ``current``: normalized key -> its current fact;
    ``given``: the value the rules read, if they keyed the entry ("frontend":
    "Svelte"), used as it is."""
    if len(text) > _MAX_TEXT or _QUESTION.search(text) or not asserts(text):
        return None
    if len(_ARROWS.findall(text)) > 1:
        return None  # two arrows are a pipeline ("static → animation → static")
    marks = marks_of_change(words)
    # each sentence holding a mark, alone ("Pro plan goes to $15. Team plan
    # unchanged."; "We moved! New office is at 220 Ferris Street.")
    for sentence in _SENTENCE.split(text):
        mark = marks.search(sentence)
        if mark is not None:
            found = _restated(sentence, mark, index, current, words, given)
            if found is not None:
                return found
    return None


def _restated(
    text: str,
    mark: re.Match[str],
    index: KeyIndex,
    current: Callable[[str], Fact | None],
    words: Words,
    given: str | None,
) -> Restated | None:
    keys = index.named(text)
    if len(keys) != 1 or not _near(text, mark, keys[0], index):
        return None
    if _narrowed(text, index.words_of(keys[0]), mark):
        return None  # "moved the rate limit docs to the wiki": the docs moved
    fact = current(keys[0])
    if fact is None or fact.kind == "event":
        return None
    # an entry the rules keyed by nothing names all of a short key, unless
    # both values are quantities ("l'API écoute maintenant sur 8443" after
    # "Port de l'API : 8080"); "pond moved to foreground" is no "Pond ripples"
    partial = given is None and not index.whole(text, keys[0])
    if partial and not any(c.isdigit() for c in fact.value):
        return None
    value = _new_value(text, mark, fact, words, given)
    if partial and not any(c.isdigit() for c in value or ""):
        return None
    if not value or _same(value, fact.value):
        return None
    if any(a <= text.find(value) < b for a, b in negated(text, words)):
        return None
    return Restated(fact, value)


def _near(text: str, mark: re.Match[str], key: str, index: KeyIndex) -> bool:
    """Whether a word of ``key`` stands within ``_NEAR`` words of the mark
    ("rate limit raised to", "swapped embeddings to"): a key named far from
    it is named in passing ("value-tiered-logger.py ... now does X")."""
    part = key_part(key)
    if _CJK.match(part):
        spots = [text.find(e) for e in {part[:2], part[-2:]} if e in text]
        if any(abs(at - mark.start()) <= 3 * _NEAR for at in spots):
            return True
        if not index.aliases.get(key):  # else by its topic's names ("DBを")
            return False
    stems = index.words_of(key) or _stems(part)
    before = len(_TOKEN.findall(text[: mark.start()]))
    after = before + len(_TOKEN.findall(mark.group(0)))
    for n, word in enumerate(_TOKEN.findall(text)):
        w = word.casefold()
        close = before - n <= _NEAR if n < before else n - after < _NEAR
        if close and any(meet(w, k) for k in stems):
            return True
    return False


_TOKEN = re.compile(  # a word of a spaced script, or one Chinese or Japanese character
    r"[^\W_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]"
)
_ARROWS = re.compile(r"→|->|=>")


# after a key's last word, what makes it a modifier of another thing or a
# narrower one: a content word ("rate limit docs"), or "of"/"for" ("version of
# the lockfile format", "rate limit for the partner API")
_NARROWING = frozenset(["of", "for", "von", "für", "de", "des", "du", "del", "для"])
_AFTER_KEY = frozenset(
    [
        "to",
        "into",
        "from",
        "is",
        "was",
        "are",
        "were",
        "now",
        "has",
        "have",
        "had",
        "got",
        "gets",
        "will",
        "be",
        "been",
        "on",
        "at",
        "in",
        "auf",
        "zu",
        "nach",
        "ist",
        "war",
        "sind",
        "jetzt",
        "wurde",
        "wird",
        "à",
        "a",
        "au",
        "est",
        "sont",
        "passe",
        "passé",
        "sur",
        "en",
        "es",
        "ahora",
        "pasa",
        "на",
        "в",
        "теперь",
        "стал",
        "стала",
    ]
)


def _narrowed(text: str, key_words: set[str], mark: re.Match[str]) -> bool:
    """Whether the key's word nearest the mark is followed by a content word
    or a narrowing preposition: the sentence is about another thing."""
    tokens = list(_TOKEN.finditer(text))
    spots = [
        n for n, t in enumerate(tokens)
        if any(meet(t.group(0).casefold(), k) for k in key_words)
    ]  # fmt: skip
    if not spots:
        return False
    at = min(spots, key=lambda n: abs(tokens[n].start() - mark.start()))
    while at + 1 in spots:  # the mention's last word: "rate limit", not "rate"
        at += 1
    if _CJK.match(tokens[at].group(0)[:1]) or at + 1 >= len(tokens):
        return False
    nxt = tokens[at + 1]
    after = nxt.group(0).casefold()
    if mark.start() <= nxt.start() < mark.end() or any(c.isdigit() for c in after):
        return False
    if after in _AFTER_KEY or _CJK.match(after[:1]):
        return False
    # a content word or "of"/"for": "rate limit docs", "version of the lockfile"
    return after in _NARROWING or len(after) > 2


# what may follow a thing's name at the end of what a removal names
_TRAILING = frozenset(
    [
        "entirely",
        "completely",
        "altogether",
        "too",
        "again",
        "now",
        "anymore",
        "as",
        "well",
        "for",
        "good",
        "ganz",
        "komplett",
        "vollständig",
        "wieder",
        "jetzt",
        "complètement",
        "entièrement",
        "encore",
        "completamente",
        "totalmente",
        "полностью",
        "совсем",
    ]
)


def headed(phrase: str, key_words: set[str]) -> bool:
    """Whether a key's words end ``phrase`` (an adverb aside): "the nightly
    build", "site search entirely" name the key; "the old cache keys" does not."""
    tokens = [t.group(0).casefold() for t in _TOKEN.finditer(phrase)]
    spots = [n for n, t in enumerate(tokens) if any(meet(t, k) for k in key_words)]
    if not spots:
        return not key_words  # a CJK key: named as a whole or not at all
    return all(t in _TRAILING for t in tokens[spots[-1] + 1 :])


def _same(a: str, b: str) -> bool:
    return a.casefold().strip() == b.casefold().strip()


def _new_value(
    text: str, mark: re.Match[str], fact: Fact, words: Words, given: str | None
) -> str | None:
    frame = read_frame(text, words) if len(text) < 300 else None
    if frame is not None and frame.kind == "change" and frame.new:
        return frame.new
    if given:
        return given
    old = fact.value
    ja = _JA_VALUE.search(text)
    if ja:
        return ja.group(1)
    after = text[mark.end() :]
    if unspaced(mark.group(0)[-1:]) and _phrase(after):
        return _phrase(after)  # "周会改到周三下午3点，..."
    counted = any(c.isdigit() for c in old)
    m = _TO.search(after) or _TO.search(text[mark.start() :])
    phrase = _phrase(m.group(1) or m.group(2)) if m else None
    if phrase and (not counted or _fits(phrase)):
        return phrase  # "New office is at 220 Ferris Street", "raised to 300 rpm"
    before = _BEFORE.search(text[: mark.start()])
    said = _phrase(before.group(1)) if before else None
    if said and (not counted or _fits(said)):
        return said  # "DB auf PostgreSQL umgezogen"
    if counted:  # the mark is no unit: "auf 3.12 gehoben" is 3.12
        return _quantity(
            text[: mark.start()] + ", " + text[mark.end() :], old, fact.key or ""
        )
    return None


def _fits(phrase: str) -> bool:
    """Whether a phrase may replace a value holding a number: it holds one
    too, or it opens with a name ("PostgreSQL" for "MariaDB 10.11")."""
    return any(c.isdigit() for c in phrase) or phrase[:1].isupper()


def _quantity(text: str, old: str, key: str) -> str | None:
    """The first quantity of ``text`` in the old value's unit ("25 Sekunden"
    for "10 Sekunden", "8443" for "8080"; not "v5" for "4s") that is not the
    old value's own nor part of the key ("API v2")."""
    olds = [q.group(0).strip() for q in _QUANTITY.finditer(old)]
    units = {_unit(q) for q in olds}
    for q in _QUANTITY.finditer(text):
        found = q.group(0).strip()
        if found.casefold() in {o.casefold() for o in olds} or found in key:
            continue
        if _unit(found) in units:
            return found
    return None


_DIGITS = re.compile(r"[\d\s.,:–-]+")


def _unit(quantity: str) -> str:
    """A quantity's unit: what is left without its digits ("$/month",
    "sekunden", "requests/min", "" for a bare number or a clock time)."""
    return _DIGITS.sub("", quantity).casefold()


def _phrase(rest: str) -> str | None:
    phrase = _CLAUSE_END.sub("", rest).strip()
    phrase = bare(phrase) or ""
    if not phrase or len(phrase.split()) > _MAX_VALUE_WORDS:
        return None
    return phrase


class FactWords:
    """The words of the pass's facts a subclass keeps (``of``) -> their
    positions in its facts, posted under ``post(word)`` once each (a list
    that only grows; a fact replaced in place is read again at its
    position). ``words``: position -> the fact's words."""

    def __init__(self) -> None:
        self.by_stem: dict[str, list[int]] = {}
        self.words: dict[int, frozenset[str]] = {}
        self.known = 0

    def of(self, fact: Fact) -> frozenset[str]:
        """The words of ``fact`` to index; empty: not indexed."""
        raise NotImplementedError

    def post(self, word: str) -> str:
        return word

    def grow(self, facts: list[Fact]) -> None:
        for at in range(self.known, len(facts)):
            theirs = self.of(facts[at])
            if theirs:
                self.words[at] = theirs
                for w in theirs:
                    posted = self.by_stem.setdefault(self.post(w), [])
                    if not posted or posted[-1] != at:
                        posted.append(at)
        self.known = len(facts)


class LooseIndex(FactWords):
    """The words of current unkeyed facts that hold a number, posted by their
    first four letters."""

    def of(self, fact: Fact) -> frozenset[str]:
        if fact.key or fact.superseded or not any(c.isdigit() for c in fact.value):
            return frozenset()
        return _stems(_QUANTITY.sub(" ", fact.value))

    def post(self, word: str) -> str:
        return word[:4]


def restate_unkeyed(
    text: str,
    facts: list[Fact],
    index: LooseIndex,
    words: Words,
    given: str | None = None,
) -> Restated | None:
    """The one current unkeyed fact ``text`` gives a new quantity ("changed
    the dev port to 3000" after "Dev server runs on port 5173"; "Планёрку
    перенесли на четверг, 16:00" after "Планёрка по вторникам в 11:00"), or
    None. Stricter than a key's restatement, as an unkeyed fact is a whole
    sentence: a mark of change, half the fact's words and at least two (one
    for a fact of two), and a quantity of the fact's unit that differs.
    The value given is ``text`` itself, as the fact is a sentence.
    ``facts``: the pass's facts, indexed by ``index`` (grown here)."""
    if len(text) > _MAX_TEXT or _QUESTION.search(text) or not asserts(text):
        return None
    if len(_ARROWS.findall(text)) > 1:
        return None
    if not marks_of_change(words).search(text):
        return None
    index.grow(facts)
    mine = _stems(_QUANTITY.sub(" ", text))
    spots = {
        at
        for w in mine
        if len(posted := index.by_stem.get(w[:4], ())) <= _COMMON
        for at in posted
    }
    found: list[tuple[Fact, str]] = []
    for at in sorted(spots):
        fact = facts[at]
        if fact.key or fact.superseded or fact.kind == "event" or not fact.id:
            continue
        if fact.get("until"):
            continue
        theirs = index.words[at]
        shared = sum(1 for k in theirs if any(meet(w, k) for w in mine))
        if shared * 2 < len(theirs) or shared < min(2, len(theirs)):
            continue
        value = given if given and any(c.isdigit() for c in given) else None
        value = value or _quantity(text, fact.value, "")
        if value and not _same(value, fact.value):
            found.append((fact, value))
    if len(found) != 1:
        return None
    # the new value of a whole sentence is the whole sentence that gave it
    # ("standup moved to 10:15 from next week on", not "10:15 ..."): the
    # quantity alone would lose what it is a quantity of
    return Restated(found[0][0], text.strip())
