"""Keys for free text: rules.md's sentence patterns, topics, the subject of a
copula, and the person a preference belongs to (pure).

A topic word is the value only where the sentence chooses it: not after
"from", "not", "replaced"; not as a modifier ("Postgres connection pool size
is 20" is about the pool, keyed ``Postgres connection pool size``); and a
qualifier makes its own key ("Postgres for analytics": ``database for
analytics``). See docs/design.md, "Keys".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from gardener.lexicon.match import unspaced
from gardener.lexicon.wordindex import WordFilter
from gardener.model.facts import normalize_key
from gardener.planning.polarity import polar_parts
from gardener.planning.values import matched_value, strip_stop

_ARTICLE = re.compile(r"^(?:the|a|an|our|my)\s+", re.IGNORECASE)
# The word left behind follows one of these, up to two words later, but not past
# a word that brings in the new one: "from Postgres to SQLite" leaves Postgres.
_NEGATED = re.compile(
    r"\b(?:from|not|no longer|instead of|rather than|drop(?:ped)?|replac(?:e|ed|ing)|over|away from|ditch(?:ed)?|off)\s+(?:(?!(?:to|into|with|for|by|but)\b)\S+\s+){0,2}$",
    re.IGNORECASE,
)
# ... or precedes a passive "was replaced by" or an arrow: "Postgres → SQLite".
_REPLACED_BY = re.compile(
    r"^\s*(?:(?:(?:is|was|got|has been|have been|been)\s+)?(?:replaced|superseded)\s+by\b|→|->|=>)",
    re.IGNORECASE,
)
# words after a topic word that keep it the chosen value ("Redis for the queue")
_FUNCTION = frozenset(
    [
        "yesterday",
        "today",
        "tomorrow",
        "tonight",
        "anymore",
        "lately",
        "recently",
        "everywhere",
        "first",
        "for",
        "in",
        "as",
        "to",
        "and",
        "or",
        "with",
        "instead",
        "because",
        "now",
        "on",
        "at",
        "is",
        "was",
        "are",
        "were",
        "be",
        "by",
        "from",
        "of",
        "over",
        "via",
        "since",
        "until",
        "but",
        "so",
        "then",
        "than",
        "this",
        "that",
        "which",
        "who",
        "here",
        "there",
        "too",
        "also",
        "again",
        "only",
        "all",
    ]
)
_QUALIFIER = re.compile(
    r"^\s+(?:for|as)\s+(?:the\s+|our\s+|a\s+)?([\w-]+(?:\s+[\w-]+)?)"
)
_COPULA = re.compile(
    r"^(?P<subject>[^,;:.!?]{2,60}?)\s+(?:is|are|=|is set to|was set to|ist|est|es|sind)\s+(?P<value>\S.*)$"
    r"|^(?P<csubject>[^，。、：]{2,30}?)(?:是|は)(?P<cvalue>[^，。]+?)(?:です)?[。.]?$",
    re.IGNORECASE,
)
_PERSON = re.compile(
    # "Mira (the designer) prefers", "Mira, our designer, prefers": the aside is not the verb
    r"^(?:the\s+)?(user|[A-Z][\w'’-]+)(?:\s*\([^()]{1,40}\)|,\s[^,]{1,40},)?\s+"
    r"(?:prefers|likes|loves|hates|dislikes|wants|"
    r"would rather|can't stand|always|never)\b"
)
# "Mira uses Vim as her editor": a person's own tool (a pronoun is no owner)
_OWNER = re.compile(
    r"^(?:the\s+)?(user|[A-ZÀ-ÖØ-ÞА-ЯЁ][\w'’-]+)\s+(?:uses|is using|has been using|"
    r"nutzt|verwendet|benutzt|utilise|usa|utiliza|использует)\s"
)
PRONOUNS = _PRONOUNS = frozenset(
    [
        "we",
        "i",
        "they",
        "you",
        "he",
        "she",
        "it",
        "wir",
        "ich",
        "sie",
        "er",
        "nous",
        "on",
        "je",
        "il",
        "elle",
        "ils",
        "мы",
        "я",
        "они",
        "он",
        "она",
        "nosotros",
        "yo",
        "ellos",
        "él",
        "ella",
    ]
)
PATTERN_LIMIT = 1000  # characters; longer entries are not matched against patterns


@lru_cache(maxsize=1024)  # a rules.md may list a pattern per relation
def compile_template(template: str) -> tuple[re.Pattern[str], int]:
    """A rules.md template as a regex, and its specificity (literal characters)."""
    pieces = re.split(r"(\{(?:subject|value|key)\})", template.strip().rstrip("."))
    regex = ""
    literal = 0
    for piece in pieces:
        if piece in ("{subject}", "{key}", "{value}"):
            # (?=\S)...(?<!\s): a group never starts or ends inside a run of
            # spaces, so a long run costs linear, not quadratic, time
            regex += rf"(?=\S)(?P<{piece[1:-1]}>.+?)(?<!\s)"
        elif piece:
            literal += len(piece.strip())
            words = r"\s+".join(re.escape(word) for word in piece.split(" ")).replace(
                r"\s+\s+", r"\s+"
            )
            # "我叫 Pip", "私の名前は Pip です": a Latin name in Chinese or
            # Japanese text is often set off by spaces the template does not have
            edge = piece.strip()
            if edge and (unspaced(edge[0]) or unspaced(edge[-1])):
                words = rf"\s*{words}\s*"
            regex += words
    start = "^" if template.lstrip().startswith("{") else r"(?:^|(?<=\W))"
    if not template.isascii():
        start = "^" if template.lstrip().startswith("{") else ""
    return re.compile(
        start + regex + r"\s*[.!。！]?\s*$", re.IGNORECASE | re.DOTALL
    ), literal


@lru_cache(maxsize=16)
def templates(
    patterns: tuple[tuple[str, tuple[str, ...]], ...],
) -> tuple[tuple[str, str, int, tuple[str, ...] | None], ...]:
    """(attribute, template, specificity, words) of each template, in rules order.

    ``words``: the literal words a match must contain, lowercased, longest first
    (the likeliest to be missing); None unless all are ASCII, for only then is
    ``in`` on ``lower()`` the same test as the regex's IGNORECASE. The regexes
    are compiled when first tried (``compile_template``): compiling all of
    them costs ~15 ms of every promote, and most never get past their words.
    """
    out = []
    for attribute, written in patterns:
        for template in written:
            pieces = re.split(
                r"\{(?:subject|value|key)\}", template.strip().rstrip(".")
            )
            literal = sum(len(piece.strip()) for piece in pieces if piece)
            words = sorted(
                {w.lower() for piece in pieces for w in piece.split(" ") if w},
                key=len,
                reverse=True,
            )
            ascii_words = all(w.isascii() for w in words)
            out.append(
                (attribute, template, literal, tuple(words) if ascii_words else None)
            )
    return tuple(out)


@lru_cache(maxsize=16)
def _one_word_times(time_words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(t.casefold() for t in time_words if " " not in t)


@lru_cache(maxsize=16)
def _tried(
    patterns: tuple[tuple[str, tuple[str, ...]], ...], ascii_text: bool
) -> tuple[tuple[str, str, int, tuple[str, ...] | None], ...]:
    """The templates worth trying on a text that is (or is not) all ASCII (an
    ASCII text never matches a template with other letters), most specific
    first, in rules order among equals: the first that keys the text wins."""
    return tuple(
        sorted(
            (t for t in templates(patterns) if not ascii_text or t[1].isascii()),
            key=lambda t: -t[2],
        )
    )


_TOKEN = re.compile(r"\w+")


def whole_word(template: str) -> str | None:
    """The longest word of an ASCII ``template`` that its regex
    (``compile_template``) matches as a whole word, lowercased: letters,
    digits or ``_`` only, with a space (or the template's start or end, whose
    guards are no word characters either) on both sides, never a
    placeholder. Any text the template matches holds it as one of its
    ``\\w+`` runs. None when it has none."""
    if not template.isascii():
        return None
    pieces = re.split(r"(\{(?:subject|value|key)\})", template.strip().rstrip("."))
    best = None
    for n, piece in enumerate(pieces):
        if piece in ("{subject}", "{key}", "{value}") or not piece:
            continue
        words = piece.split(" ")
        for j, word in enumerate(words):
            opened = j > 0 or n == 0  # a space before it, or the start guard
            closed = j < len(words) - 1 or n == len(pieces) - 1
            longer = best is None or len(word) > len(best)
            if opened and closed and longer and _TOKEN.fullmatch(word):
                best = word.lower()
    return best


class _PatternFilter:
    """Which of ``_tried``'s templates an ASCII text (lowercased) can match:
    those whose ``whole_word`` is one of the text's words and whose words
    are all in it, found from the text's words (a set) rather than by asking
    each template's; the rest as ``WordFilter`` finds them. Positions
    ascending, as ``WordFilter`` gives them: the templates tried, and the
    first that keys the text, are the same."""

    __slots__ = ("by_word", "words", "others", "other_filter")

    def __init__(
        self, tried: Sequence[tuple[str, str, int, tuple[str, ...] | None]]
    ) -> None:
        self.by_word: dict[str, list[int]] = {}
        self.words = [words or () for _, _, _, words in tried]
        self.others: list[int] = []
        for i, (_, template, _, words) in enumerate(tried):
            word = whole_word(template) if words is not None else None
            if word is None:
                self.others.append(i)
            else:
                self.by_word.setdefault(word, []).append(i)
        self.other_filter = WordFilter([tried[i][3] for i in self.others])

    def candidates(self, low: str) -> list[int]:
        out = [self.others[j] for j in self.other_filter.candidates(low)]
        by_word, words = self.by_word, self.words
        for token in set(_TOKEN.findall(low)) & by_word.keys():
            for i in by_word[token]:
                for w in words[i]:
                    if w not in low:
                        break
                else:
                    out.append(i)
        out.sort()
        return out


_PLANS: dict[tuple[int, bool], tuple[Mapping[str, tuple[str, ...]], _Plan]] = {}
_Plan = tuple[
    tuple[tuple[str, str, int, tuple[str, ...] | None], ...], "_PatternFilter"
]


def _plan(patterns: Mapping[str, tuple[str, ...]], ascii_text: bool) -> _Plan:
    """``_tried``'s templates and a ``WordFilter`` of their words (all must
    be in an ASCII text), kept by the mapping's identity: the caller's
    patterns are built once per rules (``classify._Words``), and making
    and hashing a tuple of a hundred patterns per entry cost more than
    the filter saves."""
    held = _PLANS.get((id(patterns), ascii_text))
    if held is not None and held[0] is patterns:
        return held[1]
    if len(_PLANS) > 64:
        _PLANS.clear()
    tried = _tried(tuple(patterns.items()), ascii_text)
    plan = tried, _PatternFilter(tried)
    _PLANS[(id(patterns), ascii_text)] = (patterns, plan)
    return plan


def _subject(text: str, time_words: tuple[str, ...]) -> str:
    """A subject without its article and without time words ("Sam now")."""
    words = _ARTICLE.sub("", text.strip()).split()
    folded = _one_word_times(time_words)
    while words and words[-1].casefold() in folded:
        words.pop()
    while words and words[0].casefold() in folded:
        words.pop(0)
    return " ".join(words)


def match_pattern(
    text: str,
    patterns: Mapping[str, tuple[str, ...]],
    time_words: tuple[str, ...] = (),
) -> tuple[str, str] | None:
    """(key, value) from the most specific matching pattern, or None.

    ``{subject}`` gives the key ``subject / attribute``; ``{key}`` names the key
    itself; a template with neither gives the attribute as key.
    """
    # a template whose words are not all in the text cannot match: skip its regex
    ascii_text = text.isascii()
    tried, word_filter = _plan(patterns, ascii_text)
    order = word_filter.candidates(text.lower()) if ascii_text else range(len(tried))
    for i in order:
        attribute, template, _, _ = tried[i]
        m = compile_template(template)[0].search(text)
        if not m:
            continue
        groups = m.groupdict()
        value = matched_value(m)
        if groups.get("key"):
            key = _ARTICLE.sub("", groups["key"].strip())
        elif groups.get("subject"):
            subject = _subject(groups["subject"], time_words)
            key = f"{subject} / {attribute}" if subject else ""
        else:
            key = attribute
        if (
            value
            and attribute.rsplit("/", 1)[-1].strip() == "name"
            and not _name(value)
        ):
            continue  # "the user is happy": no name; "Sam, a backend engineer": one
        if value and key and not _aspect(template, value):
            return key, value
    return None


# a name ends where an apposition starts: "Sam, a backend engineer", "林悦，老板"
_APPOSITION = re.compile(r"\s*(?:[,，、;；(（]|\s[-–—]\s|。).*$", re.DOTALL)
_NAME_WORDS = 4
# a Japanese case particle or predicate inside a value: a clause, never a name
_PREDICATE = re.compile(
    r"[がをへ]|好き|嫌い|します|している|です$|でした|喜欢|讨厌|使用"
)


def _name(value: str) -> str | None:
    """The name a pattern's value opens with, before any apposition ("Sam, a
    backend engineer": Sam), or None when it opens with no name ("happy": a
    lowercase word in a cased script; a clause)."""
    name = _APPOSITION.sub("", value).strip().rstrip(".")
    if not name or len(name.split()) > _NAME_WORDS:
        return None
    if _PREDICATE.search(name):
        return None  # "ダークテーマが好き": a clause with a particle, not a name
    first = name[:1]
    if first.isalpha() and first.lower() != first.upper() and not first.isupper():
        return None  # a cased script writes a name with a capital
    return name


def _aspect(template: str, value: str) -> bool:
    """A Chinese value opening with an aspect particle (了 过 着) is a verb's
    object, not a name: 我叫了外卖 is "I ordered takeaway"."""
    return not template.isascii() and value[:1] in "了过過着著"


@lru_cache(maxsize=256)
def _topic_regex(words: tuple[str, ...]) -> re.Pattern[str] | None:
    if not words:
        return None
    alternatives = sorted((re.escape(w) for w in words), key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(alternatives)})(?!\w)", re.IGNORECASE)


def _modifier(after: str, topic: str) -> bool:
    """Whether the word after a topic word makes it a modifier ("Postgres
    connection pool"), not the value ("Redis for the queue", "Redis cache")."""
    name = topic.casefold().split()[-1]
    joined = re.match(r"^-([^\W\d_][\w-]*)", after)
    if (
        joined
    ):  # "vom Redis-Client": a compound's first part ("Redis-Cache" is the cache)
        return not joined.group(1).casefold().startswith(name[:4])
    if re.match(r"^['’]s\s+\w", after):
        return True  # "Hetzner's Falkenstein region": a possessive names its thing
    m = re.match(r"^\s+([a-z][\w-]*)", after)
    if not m:
        return False
    word = m.group(1).casefold()
    # a past tense after it is its verb ("SQLite replaced Postgres"), not a noun
    return (
        word not in _FUNCTION
        and not word.startswith(name[:4])
        and not (len(word) > 4 and word.endswith("ed"))
    )


def match_topic(
    text: str,
    topics: Mapping[str, tuple[str, ...]],
    rejected: list[tuple[int, int]] = (),  # type: ignore[assignment]
    qualify: bool = True,
) -> tuple[str, str] | None:
    """(key, the topic word as written) for the word the entry chooses, or None.

    A word that follows "from", "not", "instead of", "replaced" ... is the one
    being left, so it is passed over when another word of the topic is named;
    a word inside a ``rejected`` span (a negation) is never chosen.
    """
    for topic, words in topics.items():
        regex = _topic_regex(words)
        hits = [(m.start(), m.group(0)) for m in regex.finditer(text)] if regex else []
        # a word a negation rejects is never the value, wherever else it stands
        gone = {w.casefold() for at, w in hits if any(a <= at < b for a, b in rejected)}
        hits = [h for h in hits if h[1].casefold() not in gone]
        if not hits:
            continue
        hits.sort()
        chosen = [
            h
            for h in hits
            if not _NEGATED.search(text[: h[0]])
            and not _REPLACED_BY.match(text[h[0] + len(h[1]) :])
        ] or hits
        # of two words, the one that is no modifier ("vim keybindings in VS Code")
        chosen = [h for h in chosen if not _modifier(text[h[0] + len(h[1]) :], topic)]
        if not chosen:
            # every word of the topic modifies another noun ("Fly.io health
            # checks need ...", "snake_case for Python identifiers"): the
            # sentence is about that noun, not the topic's value
            continue
        at, word = chosen[0]
        q = _QUALIFIER.match(text[at + len(word) :])
        if qualify and q and _narrows(q.group(1), topic):
            return f"{topic} for {q.group(1)}", word
        return topic, word
    return None


# "for the project", "for now": a qualifier that names the whole scope or a
# time does not narrow the key
_WHOLE = frozenset(
    [
        "project",
        "projects",
        "repo",
        "repos",
        "repository",
        "monorepo",
        "codebase",
        "app",
        "apps",
        "team",
        "us",
        "everything",
        "all",
        "good",
        "now",
        "everyone",
        "it",
        "this",
        "that",
        "them",
        "default",
    ]
)


def _narrows(qualifier: str, topic: str) -> bool:
    """Whether "X for <qualifier>" names a use of its own ("for analytics")."""
    words = qualifier.casefold().split()
    if not words or words[0] in _WHOLE or words[-1] in _WHOLE:
        return False
    # "as the main database": the topic itself, its main one, narrows nothing
    rest = [w for w in words if w not in _MAIN and w not in ("the", "our", "a")]
    if not rest or rest == [topic.casefold()] or rest == [topic.casefold() + "s"]:
        return False
    return not qualifier.casefold().startswith(topic.casefold()[:4])


_MAIN = frozenset(
    ["main", "primary", "default", "core", "central", "principal", "usual"]
)


def copular(text: str, topics: Mapping[str, tuple[str, ...]]) -> tuple[str, str] | None:
    """(key, value) when a topic word is part of a longer subject of "is":
    "the Postgres connection pool size is 20" -> ("Postgres connection pool
    size", "20"); None otherwise (the topic, if any, keys it)."""
    m = _COPULA.match(text)
    if not m:
        return None
    subject = (m.group("subject") or m.group("csubject") or "").strip()
    value = first_sentence((m.group("value") or m.group("cvalue") or "").strip())
    value = value.rstrip(".。")
    subject = _ARTICLE.sub("", subject)
    for words in topics.values():
        regex = _topic_regex(words)
        hit = regex.search(subject) if regex else None
        if hit and len(subject) > len(hit.group(0)) + 2:
            return subject, value
    return None


def person(text: str) -> str | None:
    """The person a preference belongs to ("Mira prefers ..." -> "Mira"), or None."""
    m = _PERSON.match(text.strip())
    if m:
        who = m.group(1)
        return "user" if who.casefold() == "user" else who
    # in any language polarity reads ("Sam now prefers", "Сэм предпочитает",
    # "Sam bevorzugt jetzt"): a subject that is one capitalised name
    parts = polar_parts(text)
    if parts and _ONE_NAME.fullmatch(parts[0]) and parts[0].casefold() not in _PRONOUNS:
        return parts[0]
    return None


_ONE_NAME = re.compile(r"[A-ZÀ-ÖØ-ÞА-ЯЁΑ-Ω][\w'’-]{1,30}")


def owner(text: str) -> str | None:
    """The person whose tool a sentence names ("Mira uses Vim as her editor"
    -> "Mira", "Sam nutzt Firefox als Browser" -> "Sam"), or None (a pronoun,
    no verb of use)."""
    m = _OWNER.match(text.strip())
    if not m or m.group(1).casefold() in _PRONOUNS:
        return None
    return m.group(1)


def topic_of(
    phrase: str, topics: Mapping[str, tuple[str, ...]]
) -> tuple[str, str] | None:
    """(topic, word) when ``phrase`` names a topic by a word or by its name
    ("the main database" -> database)."""
    low = phrase.casefold()
    for topic, words in topics.items():
        regex = _topic_regex(words)
        hit = regex.search(phrase) if regex else None
        if hit:
            return topic, hit.group(0)
        m = re.search(rf"(?<!\w){re.escape(topic.casefold())}(?:s)?$", low)
        if m and low[: m.start()].strip() in _WHOLE_TOPIC:
            return topic, ""
    return None


# the words before a topic's name that keep it the whole topic ("the main
# database"); any other ("frontend database", "Mira editor") names one part
_WHOLE_TOPIC = frozenset(
    ("", "the", "our", "my", "main", "primary", "default", "the main")
)


# articles of a subject before its copula, in the languages of the lexicon
_SUBJECT_ARTICLE = re.compile(
    r"^(?:the|a|an|our|der|die|das|unser|unsere|le|la|les|l'|notre|el|los|las|"
    r"nuestro|nuestra)\s*(?<=\s|')",
    re.IGNORECASE,
)
# a dash between spaces ("тестовый сервер — test2") and は ("ステージングは X") are
# copulas too; a trailing copula or past ending of Japanese is not the value
_DASH = r"\s+[—–]\s+"
# what follows the value: an aside in brackets, a CJK comma's clause, a contrast
# ("stg3, nicht stg-1", "X, not Y", "X, pas Y")
_ASIDE = re.compile(
    r"\s*[（(][^()（）]*[)）]\s*[。.!]?\s*$|[，、][^，、]*$"
    r"|,\s*(?:not|nicht|kein\w*|pas|non|no|не|ne)\s.*$",
    re.IGNORECASE,
)
# a Japanese statement's ending: its copula, "stays" (のまま), "we use" (を使う)
_TAIL = re.compile(
    r"\s*(?:を使(?:う|います|っている|ってる)|を採用(?:する|します|した)?|にする|にします"
    r"|のまま|だった|でした|です|である|だ)?\s*[。！]?\s*$"
)
# where a first sentence ends: "SQLite. We won't go back", "SQLite のまま。Postgres"
_SENTENCE_END = re.compile(r"(?<=[^\s.])[.!?](?=\s+[^\W\d_])|[。！？](?=.)")


def first_sentence(text: str) -> str:
    """``text`` up to the end of its first sentence (the stop kept): a value
    never runs into the next sentence. A stop inside a name ("Fly.io", "3.12")
    is followed by no space and ends nothing."""
    m = _SENTENCE_END.search(text)
    return text[: m.end()] if m else text


_SUBJECT_WORDS, _VALUE_WORDS = 5, 8


@lru_cache(maxsize=8)
def _copula_regex(copulas: tuple[str, ...]) -> re.Pattern[str]:
    spaced = [re.escape(c) for c in copulas if not any(unspaced(ch) for ch in c)]
    dense = [re.escape(c) for c in copulas if any(unspaced(ch) for ch in c)]
    parts = [_DASH, "は", *dense]
    if spaced:
        parts.insert(0, rf"\s+(?:{'|'.join(spaced)})\s+")
    return re.compile("|".join(parts), re.IGNORECASE)


def copula_split(
    text: str, copulas: tuple[str, ...], most: int = 0
) -> tuple[str, str] | None:
    """(subject, value) of a short statement "<subject> <copula> <value>" (a
    lexicon copula, a spaced dash, は), the subject without its article and the
    value without its aside, contrast and end stop; None when ``text`` is no
    such statement (no copula, nothing before it, either side too long)."""
    m = _copula_regex(copulas).search(text)
    if m is None or m.start() == 0:
        return None
    subject = _SUBJECT_ARTICLE.sub("", text[: m.start()].strip(" *_`")).strip()
    rest = first_sentence(text[m.end() :].strip())
    value = strip_stop(_TAIL.sub("", _ASIDE.sub("", rest)))
    if not subject or not value:
        return None
    if (
        len(subject.split()) > (most or _SUBJECT_WORDS)
        or len(value.split()) > _VALUE_WORDS
    ):
        return None
    return subject, value


def topic_names(
    topics: Iterable[str], names: Mapping[str, tuple[str, ...]]
) -> dict[str, tuple[str, ...]]:
    """Normalized key -> the normalized names of its topic, for each of
    ``topics`` (rules.md's) and its names in the lexicon's languages
    ("datenbank" -> ("database", "datenbank", "db", ...))."""
    out: dict[str, tuple[str, ...]] = {}
    for topic in topics:
        all_names = tuple(
            dict.fromkeys(normalize_key(n) for n in (topic, *names.get(topic, ())))
        )
        for name in all_names:
            out.setdefault(name, all_names)
    return out
