"""Classify and key daily-note entries by the rules: the first two steps of a
promotion pass (see docs/design.md).

Kind: the explicit kind first, then the heading the entry sits under, then cue
phrases; an entry with none of these is transient. Key: the explicit
``**key**``, else the most specific rules.md pattern, else a topic, else a
short ``Label: value`` prefix; an entry with none of these stays unkeyed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from gardener.model.config import Config
from gardener.model.facts import Entry
from gardener.planning.ending import removal_value
from gardener.planning.values import matched_value

_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
# (?<!\s): a match never starts inside a run of spaces (quadratic on long runs)
_CONTRAST = re.compile(
    r"(?<!\s)\s*[,;(]?\s*\b(?:not|instead of|rather than|no longer)\b.*$",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^([^:.!?`]{1,60}?)\s*:\s+(\S.*)$")
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
    # the rule that placed it, for --dry-run --json and review: "explicit kind",
    # "heading", "cue", "pattern", ...; "" when no rule did (undecided)
    rule: str = ""
    # a removal ("we dropped Redis"): ends the key's current value, adds nothing
    ends: bool = False

    @property
    def undecided(self) -> bool:
        """No tier placed it: neither durable nor transient, left for the judge
        (never treated as transient, never pruned before its grace period)."""
        return self.kind is None and not self.correction


@lru_cache(maxsize=64)
def _cue_regex(cues: tuple[str, ...]) -> re.Pattern[str] | None:
    """One regex for a list of phrases, each as whole words (casefolded)."""
    if not cues:
        return None
    # longest first, so "we will use" wins over "we" at the same position
    words = sorted((re.escape(c.casefold()) for c in cues), key=len, reverse=True)
    return re.compile(rf"(?<!\w)(?:{'|'.join(words)})(?!\w)")


def _first_cue(text: str, cues: tuple[str, ...]) -> int:
    """Position of the first of ``cues`` in ``text`` (casefolded), or -1."""
    regex = _cue_regex(cues)
    m = regex.search(text) if regex else None
    return m.start() if m else -1


def _heading_kind(heading: str | None, config: Config) -> str | None:
    if not heading:
        return None
    low = heading.casefold()
    for kind, words in config.headings.items():
        if _first_cue(low, words) >= 0:
            return kind
    return None


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
    kind, correction, _ = placed(entry, config)
    return kind, correction


def placed(entry: Entry, config: Config) -> tuple[str | None, bool, str]:
    """(kind, correction, rule) as ``resolve_kind``; ``rule`` names what placed
    it ("explicit kind", "checkbox", "correction cue", "heading", "durable cue",
    "transient cue"), "" when nothing did."""
    low = entry.value.casefold()
    if entry.kind == "correction":
        return _cue_kind(low, config), True, "explicit kind"
    if entry.kind:
        return entry.kind, False, "explicit kind"
    if entry.checkbox:
        return "todo", False, "checkbox"
    if _first_cue(low, config.correction_cues) == 0 or low.startswith("correction"):
        return _cue_kind(low, config), True, "correction cue"
    by_heading = _heading_kind(entry.heading, config)
    if by_heading:
        return by_heading, False, "heading"
    durable_at = _first_cue(low, config.durable_cues)
    transient_at = _first_cue(low, config.transient_cues)
    if durable_at >= 0 and (transient_at < 0 or durable_at < transient_at):
        return _cue_kind(low, config) or "fact", False, "durable cue"
    if transient_at >= 0:
        return "state", False, "transient cue"
    return None, False, ""


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
        value = matched_value(m)
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
    ended = removal_value(entry.value) if entry.key else None
    if ended is not None:  # "- **cache**: (none)": an explicit removal
        return Classified(entry.kind or "fact", True, False, entry.key, ended,
                          "explicit", "explicit removal", ends=True)  # fmt: skip
    kind, correction, rule = placed(entry, config)
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
    if entry.key:
        return Classified(kind, durable, correction, entry.key, value, "explicit", rule)
    # a template is one sentence: matching a long paragraph costs quadratic time
    found = None
    if (durable or kind is None) and len(value) <= PATTERN_LIMIT:
        found = match_pattern(value, config)
    if kind is None and not correction and found:
        # a kind-less sentence of one of rules.md's attribute patterns ("the
        # staging host is box3", "Sam's role is tech lead") states a fact: the
        # rules tell agents plain sentences about hosts, versions, roles are kept
        kind, durable = "fact", "fact" in config.durable_kinds
        rule = "pattern"
    if not durable:
        return Classified(kind, durable, correction, None, value, "none", rule)
    if found:
        key, keyed_value = found
        if correction:
            keyed_value = _CONTRAST.sub("", keyed_value).strip() or keyed_value
        return Classified(kind, durable, correction, key, keyed_value, "pattern", rule)
    topic = match_topic(value, config)
    if topic:
        return Classified(kind, durable, correction, topic[0], topic[1], "topic", rule)
    lm = _LABEL.match(value)
    if lm and len(lm.group(1).split()) <= 6 and "http" not in lm.group(1).casefold():
        return Classified(
            kind,
            durable,
            correction,
            lm.group(1).strip("* "),
            lm.group(2).strip(),
            "label",
            rule,
        )
    return Classified(kind, durable, correction, None, value, "none", rule)
