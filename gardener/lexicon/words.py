"""``Words``: what one language contributes to the classifier, and ``merged``.

Every field is plain data (tuples of phrases, maps of kind -> phrases), so a
language is a module holding one ``WORDS`` value and a test can build its own.
Phrases are matched casefolded; see ``gardener.lexicon.match`` for how.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import import_module
from typing import Any

LANGUAGES = ("en", "zh", "ja", "de", "fr", "es", "ru")


@dataclass(frozen=True)
class Words:
    """One language's words (or several merged).

    kind_cues       durable kind -> phrases that make a kind-less entry that kind
    transient_cues  phrases of state, not belief ("right now", "debugging")
    time_words      words of time ("today", "now"): transient on their own, never
                    stronger than a durable cue, never part of a subject
    correction_cues phrases that open a correction ("actually", "I meant")
    headings        kind -> words of a heading that give its entries that kind
    kind_labels     kind -> labels that name the kind ("Decision:", "Lesson:")
    generic_labels  labels that are never a key on their own ("Status:", "Note:")
    transient_labels labels of state or events ("Status:", "Result:", "User:")
    changes         frames of a change: {subject}, {old}, {new} placeholders
    removals        frames that end a value: {old} (and {subject})
    weak_removals   frames that end a value only in an entry durable by other
                    means or about a known topic ("removed X" is often an event)
    negations       frames that reject a value: {old} is never filed
    conjunctions    words joining a list ("and", "nor", "ni", "noch", "也不"): a
                    negation rejects every name of the list it opens
    purposes        frames of a thing chosen for a purpose: {new} the thing, the
                    value, {subject} the purpose, the key ("we use {new} for
                    {subject}": "we use Sentry for error tracking")
    patterns        attribute -> sentence templates, as rules.md ``patterns``
    topic_names     topic of the default rules.md -> its name in the language
                    ("database" -> "Datenbank"): a label so named is that topic
    exclusions      phrase -> longer words containing it that are not it
                    (Japanese 常に "always" inside 非常に "very")
    compound_heads  kind -> heading words that name the kind also as the last
                    part of a compound ("Systemstatus", "Architekturentscheidungen")

    The sentence voice (``gardener.planning.voice``) of an entry no rule placed:
    persons         words naming the user as a subject ("the user", "she"); in
                    spaced scripts a capitalised name is a person too
    attitudes       a person's standing attitude ("wants", "is comfortable
                    with"), read after a person
    habits          regexes (casefolded) of a habit begun or given up, read
                    after a person ("started \\w+ing": "Sam started running"
                    is a habit, "Sam started the deploy" a log line)
    adverbs         words between a person and an attitude ("also", "deeply")
    norms           phrases of a rule ("should", "must", "is not allowed")
    conditionals    words opening a conditional rule ("if", "when"), at the start
    past_forms      regexes (casefolded) of one past-tense word ("\\w+ed")
    log_verbs       past forms of one-off acts the regexes miss ("built")
    results         frames of a lasting result, durable in a log line
                    ("{subject} set to {new}", "granted {new}")
    placements      frames whose ``{new}`` is a place an artefact now is
                    ("created {subject} at {new}"): durable when it is a path
    states          phrases of a state report ("is ready", "working again")
    copulas         present verbs of a plain statement ("is", "means")

    Against the current facts (``gardener.planning.slots``):
    change_words    words saying a value holds from now on ("now", "from now on",
                    "instead"): a sentence that differs from a current fact in
                    one place and says one of these replaces it
    change_verbs    verbs and phrases that set a value anew ("raised ... to",
                    "goes to", "hochgesetzt", "relevée à", "改为", "に変更"): with
                    a current key named, the sentence gives that key a new value
                    (``gardener.planning.restate``)
    recurring       times that come back ("mornings", "Fridays", "abends", "по
                    утрам", "毎朝"): a label's value naming one states a schedule
    calendar_words  names of weekdays and months: with ``recurring``, numbers and
                    clock times, the quantities a schedule or a limit holds one
                    of at a time
    """

    kind_cues: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    transient_cues: tuple[str, ...] = ()
    time_words: tuple[str, ...] = ()
    correction_cues: tuple[str, ...] = ()
    headings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    kind_labels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    generic_labels: tuple[str, ...] = ()
    transient_labels: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()
    removals: tuple[str, ...] = ()
    weak_removals: tuple[str, ...] = ()
    negations: tuple[str, ...] = ()
    conjunctions: tuple[str, ...] = ()
    purposes: tuple[str, ...] = ()
    patterns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    topic_names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    exclusions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    compound_heads: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    persons: tuple[str, ...] = ()
    attitudes: tuple[str, ...] = ()
    habits: tuple[str, ...] = ()
    adverbs: tuple[str, ...] = ()
    norms: tuple[str, ...] = ()
    conditionals: tuple[str, ...] = ()
    past_forms: tuple[str, ...] = ()
    log_verbs: tuple[str, ...] = ()
    results: tuple[str, ...] = ()
    placements: tuple[str, ...] = ()
    states: tuple[str, ...] = ()
    copulas: tuple[str, ...] = ()
    change_words: tuple[str, ...] = ()
    change_verbs: tuple[str, ...] = ()
    calendar_words: tuple[str, ...] = ()
    recurring: tuple[str, ...] = ()


def merge(parts: Iterable[Words]) -> Words:
    """One ``Words`` holding every part's phrases, in order, without repeats."""
    parts = list(parts)

    def seq(name: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for w in parts for p in getattr(w, name)))

    def table(name: str) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for w in parts:
            for key, phrases in getattr(w, name).items():
                out[key] = tuple(dict.fromkeys((*out.get(key, ()), *phrases)))
        return out

    values: dict[str, Any] = {
        name: table(name) if isinstance(getattr(Words(), name), Mapping) else seq(name)
        for name in Words.__dataclass_fields__
    }
    return Words(**values)


@lru_cache(maxsize=8)
def lexicon(languages: tuple[str, ...] = LANGUAGES) -> Words:
    """The merged words of ``languages`` (codes of ``LANGUAGES``; unknown
    codes are passed over: ``gardener check`` reports them)."""
    return merge(
        import_module(f"gardener.lexicon.{code}").WORDS
        for code in languages
        if code in LANGUAGES
    )
