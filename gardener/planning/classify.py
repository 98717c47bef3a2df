"""Classify and key daily-note entries by the rules: the first two steps of a
promotion pass (see docs/design.md).

Kind: the explicit kind first, then the heading the entry sits under (a cue
phrase of the other durability in the entry beats it), then cue phrases, then
explicit structure: a ``**Key**: value`` or short ``Key: value`` item is a
fact. An entry with none of these is transient. Key: the explicit
``**key**``, else the most specific rules.md pattern, else a topic, else a
short ``Label: value`` prefix; a generic label ("Status", "备注", rules.md
``generic_labels``) is no key alone: it becomes ``<heading> / <label>``, or,
with no heading, the entry stays unkeyed.

Cue phrases and heading words match as whole words, except at a CJK end,
which may sit inside a run of CJK characters (no spaces between words there).
Heading words also match case- and accent-insensitively and in the plural.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from gardener.model.config import Config
from gardener.model.facts import Entry

_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
# (?<!\s): a match never starts inside a run of spaces (quadratic on long runs)
_CONTRAST = re.compile(
    r"(?<!\s)\s*[,;(]?\s*\b(?:not|instead of|rather than|no longer)\b.*$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^([^:：.!?`]{1,60}?)\s*(?::\s+|：\s*)(\S.*)$")
# Han, kana, Hangul, half-width kana: scripts written without spaces
_CJK = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff66-\uff9f]"
)
# The word left behind follows one of these, up to two words later, but not past
# a word that brings in the new one: "from Postgres to SQLite" leaves Postgres.
_NEGATED = re.compile(
    r"\b(?:from|not|no longer|instead of|rather than|drop(?:ped)?|replac(?:e|ed|ing)|over|away from|ditch(?:ed)?|off)\s+(?:(?!(?:to|into|with|for|by|but)\b)\S+\s+){0,2}$",
    re.IGNORECASE,
)
# ... or precedes a passive "was replaced by": "Postgres was replaced by SQLite".
_REPLACED_BY = re.compile(
    r"^\s+(?:(?:is|was|got|has been|have been|been)\s+)?(?:replaced|superseded)\s+by\b",
    re.IGNORECASE,
)


PATTERN_LIMIT = 1000  # characters; longer entries are not matched against patterns


@dataclass(frozen=True, slots=True)
class Classified:
    """What an entry is: its kind, whether it is durable, and what it is about."""

    kind: str | None  # resolved kind; None for plain transient chatter
    durable: bool
    correction: bool  # states that an earlier value was wrong
    key: str | None  # None: unkeyed, can be added but never replaces anything
    value: str
    keyed_by: str  # "explicit", "pattern", "topic", "label" or "none"


@lru_cache(maxsize=64)
def _cue_regex(cues: tuple[str, ...]) -> re.Pattern[str] | None:
    """One regex for a list of phrases, each as whole words (casefolded)."""
    if not cues:
        return None
    # longest first, so "we will use" wins over "we" at the same position
    words = sorted((c.casefold() for c in cues if c), key=len, reverse=True)
    return re.compile("|".join(_fast_phrase(w) for w in words))


def _fast_phrase(phrase: str) -> str:
    """``_phrase`` for a literal, with the start check after the first
    character: an alternation of branches that each start with a literal
    lets the regex engine skip to the positions where one could start,
    which halves a promote's classification time over a hundred cues."""
    head, tail = re.escape(phrase[0]), re.escape(phrase[1:])
    before = "" if _CJK.match(phrase[0]) else r"(?<!\w[\s\S])"
    after = "" if _CJK.match(phrase[-1]) else r"(?!\w)"
    return f"{head}{before}{tail}{after}"


def _phrase(phrase: str, body: str) -> str:
    """``body`` (a regex for ``phrase``) bounded as a whole word, except at an
    end that is a CJK character: \\w matches CJK too, and CJK text has no
    spaces, so "决定" must match inside "我们决定用SQLite"."""
    before = "" if _CJK.match(phrase[0]) else r"(?<!\w)"
    after = "" if _CJK.match(phrase[-1]) else r"(?!\w)"
    return f"{before}(?:{body}){after}"


def fold(text: str) -> str:
    """``text`` casefolded, with the accents of Latin letters taken off
    ("Décisions" -> "decisions"); other scripts are left as they are."""
    low = text.casefold()
    if low.isascii():
        return low
    return "".join(
        unicodedata.normalize("NFKD", ch)[0] if "\u00c0" <= ch < "\u0250" else ch
        for ch in low
    )


@lru_cache(maxsize=64)
def _heading_regex(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """Heading words as one regex over ``fold``-ed text; a word's last Latin
    word also matches singular or plural ("decision" / "decisions",
    "identity" / "identities")."""
    out = []
    for word in sorted((fold(w) for w in words if w), key=len, reverse=True):
        body = re.escape(word)
        if re.search(r"[a-z]$", word):
            if word.endswith("ies"):
                body = re.escape(word[:-3]) + "(?:y|ies)"
            elif word.endswith("y"):
                body = re.escape(word[:-1]) + "(?:y|ies)"
            elif word.endswith("s") and not word.endswith(("ss", "us")):
                body = re.escape(word[:-1]) + "(?:s|es)?"
            else:
                body += "(?:s|es)?"
        out.append(_phrase(word, body))
    return re.compile("|".join(out)) if out else None


def _first_cue(text: str, cues: tuple[str, ...]) -> int:
    """Position of the first of ``cues`` in ``text`` (casefolded), or -1."""
    regex = _cue_regex(cues)
    m = regex.search(text) if regex else None
    return m.start() if m else -1


def _heading_kind(heading: str | None, config: Config) -> str | None:
    if not heading:
        return None
    low = fold(heading)
    for kind, words in config.headings.items():
        regex = _heading_regex(words)
        if regex and regex.search(low):
            return kind
    return None


def _label_kind(entry: Entry, config: Config) -> str | None:
    """The kind a label gives when the whole label is a heading word
    ("Next steps:" todo, "Status:" state, "Learnings:" fact), or None."""
    label = entry.key or (found[0] if (found := label_of(entry.value)) else None)
    if not label:
        return None
    low = fold(label.strip("*:： "))
    for kind, words in config.headings.items():
        regex = _heading_regex(words)
        if regex and regex.fullmatch(low):
            return kind
    return None


def generic_label(label: str, config: Config) -> bool:
    """Whether ``label`` (a key or a ``Label:`` prefix) is one of rules.md's
    ``generic_labels``, which name no subject ("Status", "Next steps", "备注")."""
    return fold(label.strip("*:： ")) in _folded(config.generic_labels)


@lru_cache(maxsize=16)
def _folded(labels: tuple[str, ...]) -> frozenset[str]:
    return frozenset(fold(label.strip()) for label in labels)


@lru_cache(maxsize=1024)  # one entry's value is asked about several times
def label_of(value: str) -> tuple[str, str] | None:
    """(label, rest) of a short ``Label: value`` entry (at most six words, no
    URL in the label), or None."""
    lm = _LABEL.match(value)
    if lm and len(lm.group(1).split()) <= 6 and "http" not in lm.group(1).casefold():
        return lm.group(1).strip("* "), lm.group(2).strip()
    return None


def _structured(entry: Entry, config: Config) -> bool:
    """Whether the entry is a keyed fact by its form: ``**Key**: value`` or a
    short ``Key: value`` (up to four words, not starting lowercase), with a
    key-like label (``_key_like``) that is not a generic label or that has a
    heading to make one."""
    label = entry.key or (found[0] if (found := label_of(entry.value)) else None)
    if not label:
        return False
    # a plain label is written like a key ("Timezone: UTC", "端口：8080"), not
    # like the start of a sentence ("had lunch: pizza")
    if not entry.key and (label[0].islower() or len(label.split()) > 4):
        return False
    if not _key_like(label, entry.value):
        return False
    # a generic label is a key only with the heading it belongs to
    return not generic_label(label, config) or subject_of(entry.heading) is not None


def _cue_kind(low: str, config: Config) -> str | None:
    best: tuple[int, str] | None = None
    for kind, cues in config.kind_cues.items():
        at = _first_cue(low, cues)
        if at >= 0 and (best is None or at < best[0]):
            best = (at, kind)
    return best[1] if best else None


def resolve_kind(entry: Entry, config: Config) -> tuple[str | None, bool]:
    """(kind, correction) for an entry, by explicit kind, heading, then cues
    (``classify`` then tries rules.md's attribute patterns on a kind-less one)."""
    low = entry.value.casefold()
    if entry.kind == "correction":
        return _cue_kind(low, config), True
    if entry.kind:
        return entry.kind, False
    if entry.checkbox:
        return "todo", False
    if _first_cue(low, config.correction_cues) == 0 or low.startswith("correction"):
        return _cue_kind(low, config), True
    # a label that is a heading word ("Next steps:", "Status:", "Learnings:")
    # says the entry's kind as a heading would, and first
    by_heading = _label_kind(entry, config) or _heading_kind(entry.heading, config)
    durable_at = _first_cue(low, config.durable_cues)
    transient_at = _first_cue(low, config.transient_cues)
    if by_heading:
        # a cue of the other durability alone in the entry beats the heading:
        # "we use X" under "## Status" is a decision
        if by_heading in config.durable_kinds:
            if transient_at >= 0 and durable_at < 0:
                return "state", False
        elif durable_at >= 0 and transient_at < 0:
            return _cue_kind(low, config) or "fact", False
        return by_heading, False
    if durable_at >= 0 and (transient_at < 0 or durable_at < transient_at):
        return _cue_kind(low, config) or "fact", False
    if transient_at >= 0:
        return "state", False
    if _structured(entry, config):
        return "fact", False  # classify tells this case by ``kept_for_form``
    return None, False


# the first or last word of a label that reports an action ("Files
# committed", "Installed"): English past participles, with the few that
# describe a thing rather than report an action
_DONE_WORD = re.compile(r"^[A-Za-z]{2,}ed$")
_NOT_DONE = frozenset(
    {
        "preferred",
        "required",
        "shared",
        "based",
        "related",
        "need",
        "seed",
        "speed",
        "feed",
    }
)
FORM_VALUE_LIMIT = 160  # characters; a longer value is a summary, not a fact's value


def _key_like(label: str, value: str) -> bool:
    """Whether a label and its value read like a key and a value: no
    parenthesis or stray ``**`` in the label (a citation, a description),
    no action word at either end, a value of at most FORM_VALUE_LIMIT."""
    if "(" in label or "*" in label or len(value) > FORM_VALUE_LIMIT:
        return False
    words = label.split()
    return not any(
        _DONE_WORD.match(w) and w.lower() not in _NOT_DONE
        for w in (words[0], words[-1])
    )


def subject_of(heading: str | None) -> str | None:
    """The heading as the subject of a generic label, or None for no
    heading or one that is only a date or time ("2026-05-20", "14:05")."""
    if not heading or not re.sub(r"[\d\W_]+", "", heading):
        return None
    return heading.strip()


def kept_for_form(entry: Entry, config: Config) -> bool:
    """Whether ``resolve_kind`` made the entry durable for its form alone
    (a ``Key: value`` item with no kind, heading kind or cue phrase, whose
    label gives a durable kind or none)."""
    low = entry.value.casefold()
    return (
        not entry.kind
        and not entry.checkbox
        and _heading_kind(entry.heading, config) is None
        and _label_kind(entry, config) in (None, *config.durable_kinds)
        and _first_cue(low, config.durable_cues) < 0
        and _first_cue(low, config.transient_cues) < 0
        and _first_cue(low, config.correction_cues) != 0
        and _structured(entry, config)
    )


@lru_cache(maxsize=256)
def compile_template(template: str) -> tuple[re.Pattern[str], int]:
    """A rules.md template as a regex, and its specificity (literal characters)."""
    pieces = re.split(r"(\{(?:subject|value|key)\})", template.strip().rstrip("."))
    regex = ""
    literal = 0
    for piece in pieces:
        if piece in ("{subject}", "{key}"):
            regex += rf"(?=\S)(?P<{piece[1:-1]}>.+?)(?<!\s)"
        elif piece == "{value}":
            # (?=\S)...(?<!\s): a group never starts or ends inside a run of
            # spaces, so a long run costs linear, not quadratic, time (the groups
            # are stripped anyway)
            regex += r"(?=\S)(?P<value>.+?)(?<!\s)"
        elif piece:
            literal += len(piece.strip())
            regex += r"\s+".join(re.escape(word) for word in piece.split(" ")).replace(
                r"\s+\s+", r"\s+"
            )
    start = "^" if template.lstrip().startswith("{") else r"(?:^|(?<=\W))"
    return re.compile(
        start + regex + r"\s*[.!]?\s*$", re.IGNORECASE | re.DOTALL
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


def match_pattern(text: str, config: Config) -> tuple[str, str] | None:
    """(key, value) from the most specific matching pattern, or None.

    ``{subject}`` gives the key ``subject / attribute``; ``{key}`` names the key
    itself; a template with neither gives the attribute as key.
    """
    best: tuple[int, str, str] | None = None
    # a template whose words are not all in the text cannot match: skip its regex
    low = text.lower() if text.isascii() else None
    for attribute, template, literal, words in templates(
        tuple(config.patterns.items())
    ):
        if best and best[0] >= literal:
            continue
        # the longest word first: it is the likeliest to be missing
        if (
            low is not None
            and words
            and (words[0] not in low or not all(w in low for w in words[1:]))
        ):
            continue
        m = compile_template(template)[0].search(text)
        if not m:
            continue
        groups = m.groupdict()
        value = groups["value"].strip().rstrip(".")
        if groups.get("key"):
            key = _ARTICLE.sub("", groups["key"].strip())
        elif groups.get("subject"):
            key = f"{_ARTICLE.sub('', groups['subject'].strip())} / {attribute}"
        else:
            key = attribute
        if value and key:
            best = (literal, key, value)
    return (best[1], best[2]) if best else None


@lru_cache(maxsize=256)
def _topic_regex(words: tuple[str, ...]) -> re.Pattern[str] | None:
    if not words:
        return None
    alternatives = sorted((re.escape(w) for w in words), key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(alternatives)})(?!\w)", re.IGNORECASE)


def match_topic(text: str, config: Config) -> tuple[str, str] | None:
    """(topic, the topic word as written) for the word the entry chooses, or None.

    A word that follows "from", "not", "instead of", "replaced" ... is the one
    being left, so it is passed over when another word of the topic is named.
    """
    for topic, words in config.topics.items():
        regex = _topic_regex(words)
        hits = [(m.start(), m.group(0)) for m in regex.finditer(text)] if regex else []
        if not hits:
            continue
        hits.sort()
        chosen = [
            h
            for h in hits
            if not _NEGATED.search(text[: h[0]])
            and not _REPLACED_BY.match(text[h[0] + len(h[1]) :])
        ] or hits
        return topic, chosen[0][1]
    return None


def classify(entry: Entry, config: Config) -> Classified:
    """Kind, durability and key of one entry under ``config``'s rules."""
    kind, correction = resolve_kind(entry, config)
    durable = correction or (kind in config.durable_kinds)
    value = entry.value
    if correction:
        # drop the leading cue ("typo: ...", "I meant ..."), or it becomes the key
        cues = sorted(
            {"correction", "actually", "update", *config.correction_cues},
            key=len,
            reverse=True,
        )
        lead = "|".join(re.escape(c) for c in cues if c)
        value = re.sub(
            rf"^(?:{lead})(?!\w)\s*[:,-]?\s*", "", value, flags=re.IGNORECASE
        )
        value = _CONTRAST.sub("", value).strip() or value
    # an explicit kind keeps its explicit key as written, generic or not
    if entry.key and (entry.kind or not generic_label(entry.key, config)):
        return Classified(kind, durable, correction, entry.key, value, "explicit")
    labelled = None if entry.key else label_of(value)
    if (
        labelled
        and not generic_label(labelled[0], config)
        and kept_for_form(entry, config)
    ):
        # kept for its form alone: the label is what it is about
        return Classified(kind, durable, correction, *labelled, "label")
    # a template is one sentence: matching a long paragraph costs quadratic time
    found = None
    if (durable or kind is None) and len(value) <= PATTERN_LIMIT:
        found = match_pattern(value, config)
    if kind is None and not correction and found:
        # a kind-less sentence of one of rules.md's attribute patterns ("the
        # staging host is box3", "Sam's role is tech lead") states a fact: the
        # rules tell agents plain sentences about hosts, versions, roles are kept
        kind, durable = "fact", "fact" in config.durable_kinds
    if not durable:
        return Classified(kind, durable, correction, None, value, "none")
    if found:
        key, keyed_value = found
        if correction:
            keyed_value = _CONTRAST.sub("", keyed_value).strip() or keyed_value
        return Classified(kind, durable, correction, key, keyed_value, "pattern")
    topic = match_topic(value, config)
    if topic:
        return Classified(kind, durable, correction, topic[0], topic[1], "topic")
    generic = entry.key or (
        labelled[0] if labelled and generic_label(labelled[0], config) else None
    )
    if generic:
        # a generic label names no subject: the heading does, or nothing
        subject = subject_of(entry.heading)
        if subject is None:
            return Classified(kind, durable, correction, None, value, "none")
        rest = value if entry.key else labelled[1]  # type: ignore[index]
        key = f"{subject} / {generic.strip('* ')}"
        return Classified(kind, durable, correction, key, rest, "label")
    if labelled:
        return Classified(kind, durable, correction, *labelled, "label")
    return Classified(kind, durable, correction, None, value, "none")
