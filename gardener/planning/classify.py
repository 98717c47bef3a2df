"""Classify and key daily-note entries by the rules: the first two steps of a
promotion pass (see docs/design.md).

Kind: the explicit kind first, then the heading the entry sits under, then cue
phrases; an entry with none of these is transient. Key: the explicit
``**key**``, else the most specific rules.md pattern, else a topic, else a
short ``Label: value`` prefix; an entry with none of these stays unkeyed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from gardener.lexicon.match import find, first_frame, first_kind, unspaced
from gardener.lexicon.words import Words, lexicon
from gardener.model.config import Config
from gardener.model.facts import Entry, normalize_key, normalize_value
from gardener.planning import keying, voice
from gardener.planning.asserted import asks, asserts
from gardener.planning.copulachange import copula_change, named, unmarked
from gardener.planning.ending import names, removal_value
from gardener.planning.frames import Frame, bare, negated, read_frame
from gardener.planning.headings import read_headings
from gardener.planning.keying import (
    PATTERN_LIMIT,
    copula_split,
    copular,
    person,
    topic_of,
)
from gardener.planning.labels import (
    counter,
    folded,
    label_class,
    log_record,
    names_a_slot,
    split_label,
    status_mark,
    status_value,
)
from gardener.planning.polarity import polar_parts

_ASIDE = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")
# (?<!\s): a match never starts inside a run of spaces (quadratic on long runs)
_CONTRAST = re.compile(
    r"(?<!\s)\s*[,;(]?\s*\b(?:not|instead of|rather than|no longer)\b.*$",
    re.IGNORECASE,
)

__all__ = [
    "Classified",
    "classify",
    "match_pattern",
    "match_topic",
    "placed",
    "resolve_kind",
]


@dataclass(frozen=True, slots=True)
class Classified:
    """What an entry is: its kind, whether it is durable, and what it is about."""

    kind: str | None  # resolved kind; None for plain transient chatter
    durable: bool
    correction: bool  # states that an earlier value was wrong
    key: str | None  # None: unkeyed, can be added but never replaces anything
    value: str
    keyed_by: (
        str  # "explicit", "pattern", "label", "frame", "copula", "topic",
        # "polarity" or "none"
    )
    # the rule that placed it, for --dry-run --json and review: "explicit kind",
    # "heading", "cue", "pattern", ...; "" when no rule did (undecided)
    rule: str = ""
    # a removal ("we dropped Redis"): ends the key's current value, adds nothing
    ends: bool = False
    # the value a change or removal names as left ("replaced Postgres with ..."):
    # ``anchor`` keys an unkeyed one by the current fact holding that value
    leaves: str | None = None
    # who judged it (``gardener decide``, the llm judge): None when the rules did
    judge: str | None = None
    # the id of a current fact the judge said this entry replaces (or, with
    # ``ends``, ends), whatever its key: how an unkeyed fact is ever superseded
    replaces: str | None = None

    @property
    def undecided(self) -> bool:
        """No tier placed it: neither durable nor transient, left for the judge
        (never treated as transient, never pruned before its grace period)."""
        return self.kind is None and not self.correction


class _Words:
    """rules.md's lists and the lexicon of its languages, merged once per Config."""

    def __init__(self, config: Config) -> None:
        w = lexicon(tuple(config.languages))
        self.lexicon = w
        self.kind_cues = {
            kind: tuple(
                dict.fromkeys(
                    (*config.kind_cues.get(kind, ()), *w.kind_cues.get(kind, ()))
                )
            )
            for kind in dict.fromkeys((*config.kind_cues, *w.kind_cues))
        }
        self.durable = tuple(
            dict.fromkeys(
                (*config.durable_cues, *(c for cs in w.kind_cues.values() for c in cs))
            )
        )
        self.transient = tuple(
            dict.fromkeys((*config.transient_cues, *w.transient_cues))
        )
        self.time = w.time_words
        self.correction = tuple(
            dict.fromkeys((*config.correction_cues, *w.correction_cues))
        )
        # rules.md's templates first (its order is the rules' order), then the
        # lexicon's for the same attribute and the lexicon's own attributes
        self.patterns = {
            a: tuple(
                dict.fromkeys((*config.patterns.get(a, ()), *w.patterns.get(a, ())))
            )
            for a in dict.fromkeys((*config.patterns, *w.patterns))
        }
        self.topic_names = keying.topic_names(config.topics, w.topic_names)
        # the patterns of a name ("my name is {value}"): identity under any heading
        self.name_patterns = {
            a: t
            for a, t in self.patterns.items()
            if a.rsplit("/", 1)[-1].strip() == "name"
        }
        self.attributes = frozenset(
            a.casefold()
            for a, templates in self.patterns.items()
            if " " not in a and any("{subject}" in t for t in templates)
        )


_WORDS: dict[int, tuple[Config, _Words]] = {}


def _words(config: Config) -> _Words:
    held = _WORDS.get(id(config))
    if held is None or held[0] is not config:
        if len(_WORDS) > 32:
            _WORDS.clear()
        held = _WORDS[id(config)] = (config, _Words(config))
    return held[1]


def _first_cue(text: str, cues: tuple[str, ...], words: Words | None = None) -> int:
    """Position of the first of ``cues`` in ``text`` (casefolded), or -1."""
    m = find(text, cues, words.exclusions if words else None)
    return m.start() if m else -1


def _cue_kind(low: str, config: Config) -> str | None:
    ws = _words(config)
    found = first_kind(low, ws.kind_cues, ws.lexicon.exclusions)
    return found[1] if found else None


@lru_cache(maxsize=4096)
def _heading_path(
    headings: tuple[str, ...],
    languages: tuple[str, ...],
    extra: tuple[tuple[str, tuple[str, ...]], ...],
) -> tuple[str | None, str | None, bool]:
    return read_headings(headings, dict(extra), lexicon(languages))


def _only_names(value: str) -> bool:
    """Whether ``value`` up to a comma or a parenthesis is names and numbers
    only ("Postgres 16", "GitHub Actions (EU runners)"), no state word
    ("Postgres 16 degraded", "down since 09:00")."""
    head = value.split("(", 1)[0].split(",", 1)[0].strip(" *_`")
    return bool(head) and all(named(word) for word in head.split())


def _headings(entry: Entry, config: Config) -> tuple[str | None, str | None, bool]:
    """(kind, subject, shielded) of the entry's heading path
    (``headings.read_headings``)."""
    path = entry.headings or ((entry.heading,) if entry.heading else ())
    if not path:
        return None, None, False
    return _heading_path(path, tuple(config.languages), tuple(config.headings.items()))


def resolve_kind(entry: Entry, config: Config) -> tuple[str | None, bool]:
    """(kind, correction) for an entry, by explicit kind, label, cues, heading
    (``classify`` then tries rules.md's attribute patterns on a kind-less one)."""
    kind, correction, _ = placed(entry, config)
    return kind, correction


# a label's whole value one short change: "Fly.io → Hetzner", not a log line
# that mentions one ("state machine SILENT→PROBE→CONFIRMED ...")
_ARROW = re.compile(r"^[^→>]{1,40}?\s*(?:→|->|=>)\s*[^→>]{1,60}$")
_VERSIONED = re.compile(r"v?\d+(?:\.\d+)*[a-z]?\d*")  # "3.12", "v16", "2.1rc1"
_NAME_WORDS = 6  # words: "DaVinci Resolve for video editing" names a thing
_STATEMENT = 240  # characters: a change stated on its own is one short sentence
_BOLD_DASH = re.compile(r"^\*\*([^*]{1,60}?)\*\*\s+[-–—]\s+(\S.*)$")


def _label(entry: Entry, config: Config) -> tuple[str, str, bool] | None:
    """(label, rest, bold) of a label bullet (``**Key**: value``, ``**Key** -
    value``, ``Key: value``), or None."""
    dash = _BOLD_DASH.match(entry.value) if not entry.key and not entry.kind else None
    if dash:
        return dash.group(1).strip(), dash.group(2).strip(), True
    if entry.key:
        return (entry.key, entry.value, True) if not entry.kind else None
    found = split_label(entry.value)
    if (
        found
        and names_a_slot(found[0])
        and not _has_cue(found[0], config)
        and not _framed(found[0], _words(config).lexicon)
    ):
        return found[0], found[1], False
    if found and label_class(found[0], _words(config).lexicon)[0] == "kind":
        return found[0], found[1], False  # "Important working rule from Sam: ..."
    return None


def _framed(label: str, words: Words) -> bool:
    """Whether a label is itself a change, removal or negation ("Redis
    abgeschafft: ...", "弃用 Redis：..."): a sentence that a colon continues."""
    return read_frame(label, words) is not None or bool(negated(label, words))


def _has_cue(label: str, config: Config) -> bool:
    """Whether a label holds a cue phrase ("Priya prefers short answers:"):
    then it opens a sentence and names no slot."""
    ws = _words(config)
    low = label.casefold()
    return _first_cue(low, ws.durable, ws.lexicon) >= 0 or (
        _first_cue(low, ws.transient, ws.lexicon) >= 0
    )


def placed(entry: Entry, config: Config) -> tuple[str | None, bool, str]:
    """(kind, correction, rule) as ``resolve_kind``; ``rule`` names what placed
    it ("explicit kind", "checkbox", "correction cue", "label", "durable cue",
    "transient cue", "heading", "removal"), "" when nothing did."""
    ws = _words(config)
    low = entry.value.casefold()
    if entry.kind == "correction":
        return _cue_kind(low, config), True, "explicit kind"
    if entry.kind:
        return entry.kind, False, "explicit kind"
    if entry.checkbox:
        return "todo", False, "checkbox"
    if status_mark(entry.value):
        return "state", False, "status mark"
    if log_record(entry.value):
        return "event", False, "log record"
    if _first_cue(low, ws.correction, ws.lexicon) == 0 or low.startswith("correction"):
        return _cue_kind(low, config), True, "correction cue"
    label = _label(entry, config)
    if label:
        shape, kind = label_class(label[0], ws.lexicon, label[1])
        if shape == "kind":
            return kind, False, "label"
        if (
            shape == "transient"
            or counter(label[0], label[1], ws.lexicon)
            or status_value(label[1])
        ):
            return "state", False, "label"
        if shape == "generic" and len(label[1].split()) <= _NAME_WORDS:
            by_heading, subject, _ = _headings(entry, config)
            if (
                by_heading is None
                and subject
                and named(label[1])
                # "Context: Priya is preparing a demo": a sentence, not a name
                and not set(folded(label[1]).split()) & set(ws.lexicon.copulas)
            ):
                # "## Blackmagic Cloud Account" / "Purpose: DaVinci Resolve":
                # under a heading naming a thing, a generic label naming
                # another says what the thing is for, where or whose it is
                return "fact", False, "label"
    if _asks(low):
        # "Sollen wir auf MySQL wechseln? Noch offen.": the judge's to place
        return None, False, ""
    durable_at = _first_cue(low, ws.durable, ws.lexicon)
    transient_at = _first_cue(low, ws.transient, ws.lexicon)
    time_at = _first_cue(low, ws.time, ws.lexicon)
    by_heading, _, shielded = _headings(entry, config)
    if durable_at >= 0 and not asserts(entry.value, scoped=False):
        # "Ana's team switched to SQLite", "如果预算允许，我们就换成 SQLite",
        # "maybe we should always squash": a cue in what is not asserted
        return None, False, ""
    if durable_at >= 0 and (transient_at < 0 or durable_at < transient_at):
        # a durable heading names the kind ("## Key lessons": "always ..." is a lesson)
        if by_heading in config.durable_kinds:
            return by_heading, False, "durable cue"
        return _cue_kind(low, config) or "fact", False, "durable cue"
    if (
        label is None
        and len(low) <= PATTERN_LIMIT
        and _names_someone(entry.value, config)
    ):
        # "Der Nutzer ist Jonas Weber, ...", "I'm Wren, ...": under any heading
        return "identity", False, "pattern"
    keyed = (
        label is not None and label_class(label[0], ws.lexicon, label[1])[0] == "key"
    )
    # a frame is one sentence: matching a long paragraph costs quadratic time
    frame = (
        read_frame(entry.value, ws.lexicon) or copula_change(entry.value, ws.lexicon)
        if len(low) <= PATTERN_LIMIT
        else None
    )
    if frame is not None and frame.kind != "negation" and not asserts(entry.value):
        # a change in a question, a hedge, history, a limited scope or someone
        # else's doing ("Ana's team switched to SQLite"): the judge's to place
        return None, False, ""
    chose = (
        not keyed
        and len(low) <= _STATEMENT
        and by_heading not in config.durable_kinds
        and (frame is None or not frame.strong)
        and _purpose(entry.value, ws.lexicon) is not None
    )  # "we now use GlitchTip for error tracking": "now" is the choice's
    decided = chose or (
        frame is not None
        and frame.strong
        and not keyed
        and len(low) <= _STATEMENT
        and by_heading not in config.durable_kinds
    )
    if (
        transient_at >= 0
        and not decided  # "the database is now Postgres": "now" is the change's
        and not 0 <= voice.durable_at(entry.value, ws.lexicon) < transient_at
    ):
        return "state", False, "transient cue"  # unless an attitude or rule came first
    if keyed and label is not None and _ARROW.match(label[1]):
        return "decision", False, "change"  # "Deploy target: Fly.io → Hetzner"
    if chose and keying.owner(entry.value):
        return "preference", False, "purpose"  # "Mira uses Vim as her editor"
    if decided:
        # "switched CI from X to Y", "we no longer use Redis": a decision
        return "decision", False, frame.kind if frame and not chose else "purpose"
    readable = len(low) <= PATTERN_LIMIT
    if (
        by_heading == "state"
        and keyed
        and label is not None
        and normalize_key(label[0]) in ws.topic_names
        and not status_value(label[1])
        and _only_names(label[1])
    ):
        # "## System Health" / "**Database:** Postgres 16": a topic's label
        # naming a thing says what is used, whatever the heading says of its
        # health ("**CI:** green", "**Cache:** down since 09:00", "Postgres 16
        # degraded, replica lagging" are states)
        return "fact", False, "label"
    if by_heading and not (
        keyed and shielded and by_heading not in config.durable_kinds
    ):
        # a timed line is a log line, a paragraph a report: only a short
        # untimed sentence of a recap is what the session taught
        recap = (
            by_heading == "event"
            and not keyed
            and entry.time is None
            and len(low) <= _STATEMENT
        )
        said = voice.read_voice(entry.value, ws.lexicon) if recap else None
        if said and said.rule in _RECAPPED:
            # "## Session summary" recaps a session: "Dana likes ...", "Cron
            # jobs must ..." in it are what the session taught, not what it did
            return said.kind, False, said.rule
        if (
            recap
            and (said is None or said.rule == "statement")
            and readable
            and _recurs(low, ws.lexicon)
        ):
            # and "Standup is at 09:30 every weekday": a time that comes back,
            # in no log voice, is a routine it set down
            return "fact", False, "routine"
        return by_heading, False, "heading"
    said = voice.read_voice(entry.value, ws.lexicon) if readable else None
    if said and not keyed:  # "Sam likes ...", "X should ...", "Verified ..."
        return said.kind, False, said.rule
    if time_at >= 0 and durable_at < 0:
        return "state", False, "transient cue"
    if keyed:
        return "fact", False, "label"
    if len(low) <= PATTERN_LIMIT and (
        _setting(entry.value, config) or _topic_subject(entry.value, config)
    ):
        return "fact", False, "setting"  # "the Postgres connection pool size is 20"
    if len(low) <= PATTERN_LIMIT and _purpose(entry.value, ws.lexicon):
        return "decision", False, "purpose"  # "エラー追跡にはSentryを使う"
    if readable and _recurs(low, ws.lexicon):
        # "Send the weekly report every Monday", "Planёрка по вторникам в 11:00",
        # "朝会は毎日9:30から": no log voice, a time that comes back: a routine
        return "fact", False, "routine"
    if (
        len(low.split()) <= _CHOICE_WORDS
        and not _SENTENCES.search(entry.value)
        and not _other_slot(entry.value, config)
        and keying.match_topic(entry.value, config.topics)
    ):
        # "Python deps managed with Poetry", "Test con pytest": a statement
        # naming a topic's thing as the one used, in no voice of a log
        return "decision", False, "topic"
    return None, False, ""


_CHOICE_WORDS = 6  # a longer line naming a topic's thing may ask or muse about it


def _other_slot(text: str, config: Config) -> bool:
    """Whether ``text`` is a ``Label: value`` whose label names no topic
    ("Estimated savings: 80% vs full-time Kimi"): a topic's thing in its value
    says something of that label's slot, not that the thing is the one used."""
    found = split_label(text)
    return found is not None and topic_of(found[0], config.topics) is None


_SENTENCES = re.compile(r"[.!?。！？]\s+\S")


def _topic_head(phrase: str, config: Config) -> tuple[str, str] | None:
    """``topic_of`` when the topic's word is the phrase's head: nothing after
    it but the topic's own name or a version ("the Redis cache", "main
    database", "Postgres 16"); not a modifier of another thing ("the old cache
    keys", "Redis Sentinel", "the database backup", "the Postgres read replica")."""
    found = topic_of(phrase, config.topics)
    if found is None or not found[1]:
        return found
    low = phrase.casefold()
    at = low.rfind(found[1].casefold())
    rest = phrase[at + len(found[1]) :].strip(" .,;:!)*`'\"").casefold()
    if not rest or re.fullmatch(r"v?\d[\w.]*", rest):
        return found
    names = _words(config).topic_names.get(normalize_key(found[0]), ())
    return found if normalize_key(rest) in names else None


def _unverbed(value: str, words: Words) -> str:
    """``value`` without a verb of change and its preposition opening it
    ("verschoben auf Mittwoch 09:30" is "Mittwoch 09:30"), or as it is."""
    m = _opening_verb(words.change_verbs).match(value)
    return value[m.end() :].strip() or value if m else value


@lru_cache(maxsize=4)
def _opening_verb(verbs: tuple[str, ...]) -> re.Pattern[str]:
    spaced = sorted(
        (re.escape(v) for v in verbs if not unspaced(v[:1])), key=len, reverse=True
    )
    return re.compile(
        rf"^(?:{'|'.join(spaced) or '(?!)'})\s+(?:auf|to|à|a|au|на|в|nach|zu|on|at)\s+",
        re.IGNORECASE,
    )


def _asks(low: str) -> bool:
    """Whether a (casefolded) text opens with a question: its first sentence
    ends with a question mark, or opens as one ("should we", "¿", "是否")."""
    first = re.split(r"(?<=[.!?。！？])\s*", low.strip(), maxsplit=1)[0]
    return first.rstrip().endswith(("?", "？")) or asks(low.strip())


def _recurs(low: str, words: Words) -> bool:
    """Whether a (casefolded) text names a time that comes back (the
    lexicon's ``recurring``: "every Monday", "nightly", "по вторникам")."""
    return find(low, words.recurring, words.exclusions) is not None


def _topic_subject(text: str, config: Config) -> tuple[str, str] | None:
    """(subject, value) of a statement whose subject is a topic's name in any
    language ("Deploy target is box-a", "Die Datenbank ist PostgreSQL"), or None."""
    ws = _words(config)
    split = copula_split(text, ws.lexicon.copulas)
    if split is None:
        return None
    if normalize_key(split[0]) not in ws.topic_names:
        return None
    return split


_ARROWS = re.compile(r"→|->|=>")
# a value that opens with a quantity, after an optional "of" ("est de 500
# e-mails", "is 30s", "ist 10 Sekunden", "$12/month")
_MEASURE = re.compile(r"^(?:(?:de|d'|of|von|в|на)\s*)?(?:[$€£¥₽]\s?)?\d", re.IGNORECASE)
_MEASURED_WORDS = 6


def _measured_subject(text: str, config: Config) -> tuple[str, str] | None:
    """(subject, value) of a durable statement giving a named thing a
    quantity ("API gateway timeout is 30s", "la limite d'envoi est de 500
    e-mails par jour"): a limit or a setting holds one value at a time, so
    its subject is its key. None for a pronoun subject ("it is 5pm")."""
    split = copula_split(text, _words(config).lexicon.copulas, _MEASURED_WORDS + 1)
    if split is None or not _MEASURE.match(split[1]):
        return None
    subject = _ANY_ARTICLE.sub("", split[0])
    if len(subject.split()) > _MEASURED_WORDS or subject.casefold() in keying.PRONOUNS:
        return None
    value = re.sub(r"^(?:de|d'|of|von)\s*", "", split[1], flags=re.IGNORECASE)
    return subject, value


def _names_someone(text: str, config: Config) -> bool:
    """Whether a name pattern ("my name is {value}", "the user is {value}")
    reads a name in ``text``."""
    ws = _words(config)
    if not ws.name_patterns:
        return False
    return keying.match_pattern(text, ws.name_patterns, ws.time) is not None


def _setting(text: str, config: Config) -> bool:
    """Whether ``text`` gives a known topic's setting a name or a number
    ("Redis maxmemory is 2gb"), not a reading of a counter ("the Redis
    latency is 80ms")."""
    found = copular(text, config.topics)
    if not found:
        return False
    subject, value = found
    if not value[:1].isdigit() and not value[:1].isupper():
        return False  # "the Postgres replica is down": a state
    last = subject.split()[-1]
    return not counter(last, value, _words(config).lexicon)


# the voices that beat an event heading: an attitude, a habit, a rule
_RECAPPED = frozenset({"attitude", "habit", "rule voice"})


def _decided(
    kind: str | None,
    correction: bool,
    rule: str,
    key: str | None,
    value: str,
    keyed_by: str,
    *,
    ends: bool = False,
    leaves: str | None = None,
) -> Classified:
    return Classified(
        kind, True, correction, key, value, keyed_by, rule, ends=ends, leaves=leaves
    )


# a shell command line: a program, then a flag or an assignment ("$ psql -h x")
_COMMAND = re.compile(
    r"^(?:\$\s*)?`?[a-z][\w.+-]*(?:\s+[a-z][\w.-]*)?\s+(?:--?[\w-]|\w+=)"
)
_USER_WORDS = re.compile(
    r"(?<!\w)(?:user|users|owner|human|用户|用戶|ユーザー|nutzer|benutzer|utilisat\w*|usuari\w*|пользовател\w*)(?!\w)",
    re.IGNORECASE,
)


def _scope(
    subject: str | None, label: str, entry: Entry, kind: str | None, config: Config
) -> str:
    """A label's key: scoped by the subject heading, and by "user" for the
    user's identity and preferences (an identity heading naming the user).
    A label ending in a pattern's attribute is keyed as the pattern keys
    ("Staging host" is ``Staging / host``, as "the staging host is ...")."""
    label = label.strip().strip("*_ ").rstrip(":：").strip()
    words = label.split()
    if len(words) > 1 and words[-1].casefold() in _attributes(config):
        label = f"{' '.join(words[:-1])} / {words[-1]}"
    if kind in ("identity", "preference") and any(
        _USER_WORDS.search(h) for h in entry.headings
    ):
        return f"user / {label}"
    return f"{subject} / {label}" if subject else label


def _attributes(config: Config) -> frozenset[str]:
    """One-word attributes of the sentence patterns with a ``{subject}``."""
    return _words(config).attributes


def classify(entry: Entry, config: Config) -> Classified:
    """Kind, durability and key of one entry under ``config``'s rules."""
    ended = removal_value(entry.value) if entry.key else None
    if ended is not None:  # "- **cache**: (none)": an explicit removal
        return Classified(entry.kind or "fact", True, False, entry.key, ended,
                          "explicit", "explicit removal", ends=True)  # fmt: skip
    ws = _words(config)
    kind, correction, rule = placed(entry, config)
    durable = correction or (kind in config.durable_kinds)
    value = entry.value
    if correction:
        value = _without_correction_cue(value, ws)
    if entry.key and entry.kind:
        return Classified(kind, durable, correction, entry.key, value, "explicit", rule)
    label = _label(entry, config)
    if correction and label and not label[2]:
        found_label = split_label(value)  # the label after the cue, if any
        label = (found_label[0], found_label[1], False) if found_label else None
    shape = label_class(label[0], ws.lexicon, label[1])[0] if label else None
    # a template is one sentence: matching a long paragraph costs quadratic time
    found = None
    if (durable or kind is None) and len(value) <= PATTERN_LIMIT and shape != "key":
        found = match_pattern(value, config)
    if kind is None and not correction and found:
        # a kind-less sentence of one of rules.md's attribute patterns ("the
        # staging host is box3", "Sam's role is tech lead") states a fact: the
        # rules tell agents plain sentences about hosts, versions, roles are kept
        kind, durable, rule = "fact", "fact" in config.durable_kinds, "pattern"
    if not durable:
        # "Removed RabbitMQ, jobs run from cron now": a log line, but what it
        # names as gone may be a current value (``anchor`` decides: an ending)
        gone = (
            _weakly_removed(value, ws.lexicon)
            if kind in ("state", "event", None)  # "Black is gone": undecided
            else None
        )
        return Classified(kind, durable, correction, None, value, "none", rule,
                          ends=gone is not None, leaves=gone)  # fmt: skip
    if found:
        key, keyed_value = found
        # "stg3, not stg-1": what it is not is never the value; a correction's
        # aside ("(I misread it)") is why, not what
        keyed_value = _CONTRAST.sub("", keyed_value).strip() or keyed_value
        # "box7 now, not box2": the change word stood before the contrast
        keyed_value = unmarked(keyed_value, ws.lexicon)
        if correction:
            keyed_value = _ASIDE.sub("", keyed_value).strip() or keyed_value
        return _decided(kind, correction, rule, key, keyed_value, "pattern")
    if label:
        _, subject, _ = _headings(entry, config)
        said = f"{label[0]} {label[1]}"
        if shape == "key" and (
            voice.attitude_at(said, ws.lexicon) == 0 or person(said) == label[0]
        ):
            # "Jonas: prefers tea": the label is the person, not a key (keyed
            # `Jonas`, a later "Jonas: wants ..." would replace it)
            taste = "preference" if "preference" in config.durable_kinds else kind
            return _keyed_prose(entry, taste, correction, rule, said, config)
        if shape == "key":
            named = topic_of(label[0], config.topics)  # "Main database: SQLite"
            key = (
                named[0]
                if named and not named[1]
                else _scope(subject, label[0], entry, kind, config)
            )
            # two arrows are a sequence ("Loop: Plan → Build → Check"), not a change
            chain = len(_ARROWS.findall(label[1])) > 1
            arrow = (
                read_frame(label[1], ws.lexicon)
                if len(label[1]) < 300 and not chain
                else None
            )
            if (
                arrow
                and arrow.kind == "change"
                and arrow.new
                and not arrow.subject
                and arrow.whole
            ):
                # "Deploy target: Fly.io → Hetzner": the label's new value; a
                # frame inside a longer value ("Logic: removes the last word
                # from the code to make an id") leaves the value as written
                return _decided(
                    kind, correction, rule, key, arrow.new, "label", leaves=arrow.old
                )
            # "**Standup:** verschoben auf Mittwoch 09:30", "désormais Karim":
            # the mark of change opening a label's value is no part of it
            value = _unverbed(unmarked(label[1].strip(), ws.lexicon), ws.lexicon)
            return _decided(kind, correction, rule, key, value, "label")
        if shape == "kind" and kind == "identity" and folded(label[0]) != "identity":
            # "Name: Sam Rivera" under "## User Info": the label names the
            # attribute, as a key label does ("Decision:" names only a kind)
            key = _scope(subject, label[0], entry, kind, config)
            return _decided(kind, correction, rule, key, label[1].strip(), "label")
        if shape == "kind":
            value = label[1]  # "Decision: use SQLite" is about what follows
        elif shape == "generic" and subject and (label[2] or rule == "label"):
            key = _scope(subject, folded(label[0]), entry, kind, config)
            return _decided(kind, correction, rule, key, label[1].strip(), "label")
    return _keyed_prose(entry, kind, correction, rule, value, config)


def _keyed_prose(
    entry: Entry,
    kind: str | None,
    correction: bool,
    rule: str,
    value: str,
    config: Config,
) -> Classified:
    """A durable sentence keyed by a change or removal frame, a copula, a
    topic, or left unkeyed (added, never replacing anything)."""
    ws = _words(config)
    if len(value) > PATTERN_LIMIT:
        return _decided(kind, correction, rule, None, value, "none")
    rejected = negated(value, ws.lexicon)
    if not asserts(value):
        # "如果预算允许，我们就换成 SQLite": a condition's rule, kept whole, keys
        # no topic (it would replace what holds today)
        return _decided(kind, correction, rule, None, value, "none")
    # a question, a hedge, history or someone else's doing changes nothing
    frame = (
        read_frame(value, ws.lexicon) or copula_change(value, ws.lexicon)
        if asserts(value)
        else None
    )
    if frame and frame.kind == "removal" and frame.old:
        about = _topic_head(frame.old, config) or (
            _topic_head(frame.subject, config) if frame.subject else None
        )
        key = about[0] if about else None
        then = _then(entry, kind, correction, rule, frame, key, config)
        if then is not None:
            return then
        gone = about[1] if about and about[1] else frame.old
        how = "frame" if key else "none"  # an unkeyed one may be anchored later
        return _decided(
            kind, correction, rule, key, gone, how, ends=True, leaves=frame.old
        )
    if frame and frame.kind == "change" and frame.new:
        by_subject = _topic_head(frame.subject, config) if frame.subject else None
        by_new = keying.match_topic(frame.new, config.topics, qualify=False)
        # "upgraded to Python 3.12": the version is part of the value
        versioned = by_new and _VERSIONED.fullmatch(frame.new.split(None, 1)[-1])
        new = by_new[1] if by_new and not versioned else frame.new
        if by_subject:
            return _decided(
                kind, correction, rule, by_subject[0], new, "frame", leaves=frame.old
            )
        if by_new:
            return _decided(
                kind, correction, rule, by_new[0], new, "frame", leaves=frame.old
            )
        if frame.subject:
            # "日历同步的 cron 现在改为每两小时一次": "now" is when, not what
            subject = unmarked(frame.subject, ws.lexicon)
            return _decided(
                kind, correction, rule, subject, new, "frame", leaves=frame.old
            )
        used = _purpose(value, ws.lexicon)
        if used:  # "wir nutzen jetzt GlitchTip für Fehlertracking"
            return _decided(
                kind, correction, rule, used[0], used[1], "purpose", leaves=frame.old
            )
        return _decided(kind, correction, rule, None, new, "none", leaves=frame.old)
    about = (
        copular(value, config.topics)
        or _topic_subject(value, config)
        or _measured_subject(value, config)
    )
    if about:
        return _decided(kind, correction, rule, about[0], about[1], "copula")
    # "mysql -uroot app": a command names the program it runs, chooses nothing
    topic = (
        None
        if _COMMAND.match(value)
        else keying.match_topic(value, config.topics, rejected)
    )
    used = _purpose(value, ws.lexicon)
    if used:
        used = unmarked(used[0], ws.lexicon), unmarked(used[1], ws.lexicon)
    owner = keying.owner(value) if kind == "preference" and used else None
    # the purpose is a topic's very name, in any language ("as his editor",
    # "als Editor"), not a narrower thing ("for the analytics database")
    named = ws.topic_names.get(normalize_key(used[0])) if used else None
    if used and (owner or named):
        # "Mira uses Vim as her editor": her editor is Vim, whatever she
        # likes; "he uses Vim as his editor": the editor, not "editor for ..."
        key = named[0] if named else used[0]
        key = f"{owner} / {key}" if owner else key
        return _decided(kind, correction, rule, key, used[1], "purpose")
    held = _held(value) if kind == "preference" else None
    named = _named_topic(held[1], ws.topic_names) if held and not topic else None
    if held and named:
        # "用户喜欢深色主题", "Sam aime le thème sombre": the thing held names
        # its topic (主题, thème), so a later choice of it is the same key
        key = f"{held[0]} / {named}"
        return _decided(kind, correction, rule, key, held[1], "polarity")
    if held and not (topic and _heads(held[1], topic[1])):
        # "Sam loves coffee" / "Sam hates coffee now": one key, the newer
        # stands; "vim keybindings in VS Code" is not a choice of editor
        key = f"{held[0]} / {held[1]}"
        return _decided(kind, correction, rule, key, value, "polarity")
    if topic:
        who = person(value) if kind == "preference" else None
        key = f"{who} / {topic[0]}" if who else topic[0]
        return _decided(kind, correction, rule, key, topic[1], "topic")
    if used:  # "we use Sentry for error tracking": the purpose is the key
        return _decided(kind, correction, rule, used[0], used[1], "purpose")
    return _decided(kind, correction, rule, None, value, "none")


def _then(
    entry: Entry,
    kind: str | None,
    correction: bool,
    rule: str,
    frame: Frame,
    key: str | None,
    config: Config,
) -> Classified | None:
    """A removal whose next clause names the new value of what it removed
    ("Nous n'utilisons plus Woodpecker, la CI tourne sur GitLab CI", "不再使用
    Redis，缓存改用进程内的 LRU") as a change: the new value supersedes the
    removed one, instead of the line ending it and the new value being lost.
    None when the clause names no value (a bare clause: "which was a pain"),
    or one of another key than the removal's. Keyed ``clause``: the value
    it leaves re-anchors it in ``promote`` when another key holds that."""
    if not frame.rest or not frame.old:
        return None
    then = _keyed_prose(entry, kind, correction, rule, frame.rest, config)
    named = then.key is not None or then.value != frame.rest
    if (
        then.ends
        or not named
        or (key and then.key and normalize_key(then.key) != normalize_key(key))
    ):
        return None
    if names(frame.old, then.value):  # "dropped Redis, Redis Cloud now" is no new name
        return None
    return _decided(
        kind, correction, rule, key or then.key, then.value,
        "clause", leaves=frame.old,
    )  # fmt: skip


def _weakly_removed(text: str, words: Words) -> str | None:
    """The name a log line says was removed ("Removed RabbitMQ, ..."), when
    the removal is the line's own first clause, or None."""
    if len(text) > PATTERN_LIMIT:
        return None
    frame = read_frame(text, words) if asserts(text) else None
    if frame is not None and frame.kind == "removal" and not frame.whole:
        # "Hotjar retiré du site vitrine": the removal that opens the line, not
        # the "retiré {old}" read inside it
        first = replace(
            words,
            removals=(),
            changes=(),
            weak_removals=tuple(
                t for t in words.weak_removals if t.startswith("{old}")
            ),
        )
        opening = read_frame(text, first)
        if opening and opening.old and text.lstrip(" *_`").startswith(opening.old):
            return opening.old
    if frame is None or frame.kind != "removal" or not frame.whole or not frame.old:
        return None
    return frame.old


@lru_cache(maxsize=8)
def _time_words(time_words: tuple[str, ...]) -> re.Pattern[str]:
    """One-word words of time of the spaced scripts, with the spaces after them."""
    spaced = sorted(
        (re.escape(w) for w in time_words if w.isalpha() and not unspaced(w)),
        key=len,
        reverse=True,
    )
    if not spaced:
        return re.compile(r"(?!)")
    return re.compile(rf"(?<!\w)(?:{'|'.join(spaced)})\s+", re.IGNORECASE)


_PURPOSE_WORDS = 4  # a purpose or a thing longer than this is a clause, not a name


_PURPOSES: dict[
    tuple[str, tuple[str, ...], tuple[str, ...]], tuple[str, str] | None
] = {}


def _purpose(text: str, words: Words) -> tuple[str, str] | None:
    """(purpose, thing) of a sentence choosing a thing for a purpose (the
    lexicon's ``purposes`` frames), both short, or None. Kept per text: the
    kind (``placed``) and the key (``_keyed_prose``) both ask."""
    if not words.purposes:
        return None
    held = (text, words.purposes, words.time_words)
    if held not in _PURPOSES:
        if len(_PURPOSES) > 4096:
            _PURPOSES.clear()
        _PURPOSES[held] = _read_purpose(text, words)
    return _PURPOSES[held]


def _read_purpose(text: str, words: Words) -> tuple[str, str] | None:
    # "we now use X for Y": when is the note's valid time, not part of a frame
    text = _time_words(words.time_words).sub("", text)
    found = first_frame(text, words.purposes)
    if not found:
        return None
    template, groups, (start, end) = found
    purpose, thing = bare(groups.get("subject")), bare(groups.get("new"))
    if not purpose or not thing:
        return None
    if template.startswith(("{new}", "{subject}")) and not (
        thing[:1].isupper() or thing[:1].isdigit()
    ):
        return None  # "RabbitMQ runs the job queue", not "the agent runs the tests"
    if template.startswith("{subject}") and (
        text[:start].strip(" *_")
        or not names_a_slot(purpose)
        or voice.told_past(purpose.casefold(), words)
    ):
        # "Uptime checks via Pingdom" names what does a job; "Deployed v2 via
        # ssh" and "then the logs go to Loki" tell what happened
        return None
    if any(a < end and start < b for a, b in negated(text, words)):
        return None  # "we will not use MongoDB for sessions"
    if any(len(p.split()) > _PURPOSE_WORDS for p in (purpose, thing)):
        return None
    return purpose, thing


_HELD_WORDS = (3, 6)  # most words of a held subject and object: longer is a clause


def _held(text: str) -> tuple[str, str] | None:
    """(subject, object) as written of a person's attitude or habit ("Sam",
    "coffee"), both short and name-like, or None."""
    parts = polar_parts(text)
    if parts is None:
        return None
    subject, thing, _ = parts
    for part, most in zip((subject, thing), _HELD_WORDS, strict=True):
        if len(part.split()) > most or any(c in part for c in ",;:，；：、()（）"):
            return None
    return subject, bare(thing) or thing


def _named_topic(thing: str, names: Mapping[str, tuple[str, ...]]) -> str | None:
    """The topic whose name ``thing`` ends with, in any language ("深色主题",
    "le thème sombre" -> theme; ``names``: ``Words.topic_names``), or None."""
    low = normalize_value(thing)
    for topic, said in names.items():
        for name in said:
            if unspaced(name[:1]):
                if low.endswith(name) and len(low) > len(name):
                    return topic
            elif re.search(rf"(?<!\w){re.escape(name)}(?!\w)", low) and low != name:
                return topic
    return None


def _heads(thing: str, word: str) -> bool:
    """Whether ``word`` (a topic word) opens ``thing``: "dark mode for the
    editor" is about the theme, "vim keybindings in VS Code" not the editor."""
    thing = _ANY_ARTICLE.sub("", normalize_value(thing))
    return thing.startswith(normalize_value(word))


# an article or possessive opening a noun phrase, in the languages of the lexicon
# ("den hellen Modus", "le thème sombre", "el modo oscuro")
_ANY_ARTICLE = re.compile(
    r"^(?:the|a|an|my|our|her|his|der|die|das|den|dem|des|ein|eine|einen|einem|"
    r"sein|seine|seinen|ihr|ihre|ihren|le|la|les|l'|un|une|son|sa|ses|el|los|las|"
    r"una|su|sus|il|lo|gli|o|os|as)\s*(?<=\s|')",
    re.IGNORECASE,
)


def topic_aliases(config: Config) -> Mapping[str, tuple[str, ...]]:
    """Normalized name of a topic (rules.md's, in any language of the
    lexicon) -> the topic's normalized names in every language ("datenbank"
    -> ("database", "datenbank", "db", ...))."""
    return _words(config).topic_names


def match_pattern(text: str, config: Config) -> tuple[str, str] | None:
    """(key, value) from the most specific of rules.md's and the lexicon's
    sentence patterns (see ``keying.match_pattern``), or None."""
    ws = _words(config)
    found = keying.match_pattern(text, ws.patterns, ws.time)
    if found is None:
        return None
    # "Python version is 3.12 from now on": the mark of change is no part of it
    return found[0], unmarked(found[1], ws.lexicon)


def match_topic(text: str, config: Config) -> tuple[str, str] | None:
    """(key, topic word) for the topic word ``text`` chooses, or None."""
    return keying.match_topic(
        text, config.topics, negated(text, _words(config).lexicon)
    )


def _without_correction_cue(value: str, ws: _Words) -> str:
    """A correction's text without its leading cue ("typo: ...", "I meant
    ...", or it becomes the key) and without what it contrasts with."""
    cues = sorted(
        {"correction", "actually", "update", *ws.correction}, key=len, reverse=True
    )
    lead = "|".join(re.escape(c) for c in cues if c)
    value = re.sub(rf"^(?:{lead})(?!\w)\s*[:：,-]?\s*", "", value, flags=re.IGNORECASE)
    return _CONTRAST.sub("", value).strip() or value
