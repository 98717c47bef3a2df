"""Classify and key daily-note entries by the rules (see docs/design.md).

Uses the shipped rules.md (``default_config()``) and small variations of it.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.formats.dailynote import parse_note
from gardener.model.facts import Entry, normalize_key, normalize_value
from gardener.planning.classify import (
    classify,
    match_pattern,
    match_topic,
    resolve_kind,
)
from gardener.store.settings import default_config

RULES = default_config()


def entry(line: str, heading: str | None = None) -> Entry:
    """The one entry of a note holding ``line`` (under ``## heading``, if given)."""
    text = (f"## {heading}\n" if heading else "") + line + "\n"
    (only,) = parse_note("memory/2026-01-05.md", date(2026, 1, 5), text).entries
    return only


def classified(line: str, heading: str | None = None, config=RULES):
    return classify(entry(line, heading), config)


# --- kind: explicit, then heading, cue phrases, then patterns ----------------


@pytest.mark.parametrize(
    ("line", "heading", "kind", "durable"),
    [
        # an explicit kind wins over everything
        ("- decision: we might use SQLite", None, "decision", True),
        ("- event: Mira decided on SQLite", None, "event", False),
        ("- fact: debugging the cache today", None, "fact", True),
        ("- pref: tabs", "Log", "preference", True),
        ("- now: Mira prefers vim", "Decisions", "state", False),
        ("- [ ] decide on the database", None, "todo", False),
        # then the heading
        ("- use SQLite", "Decisions", "decision", True),
        # ... but a cue in the entry beats the heading
        ("- Mira prefers dark mode", "Log", "preference", True),
        ("- dark mode", "Preferences", "preference", True),
        ("- API rate limit is 100/min", "Facts", "fact", True),
        ("- call the vendor", "Next steps", "todo", False),
        ("- deploy is green", "Status", "state", False),
        ("- name: Sam", "About me", "identity", True),
        # then cue phrases: durable ...
        ("- Mira prefers dark mode", None, "preference", True),
        ("- always squash merge", None, "preference", True),
        ("- we decided on SQLite", None, "decision", True),
        ("- from now on we deploy on Fridays", None, "decision", True),
        ("- my name is Sam", None, "identity", True),
        ("- Tier 2 renewal list price is $3,600", None, "fact", True),
        # ... and transient
        ("- debugging the cache right now", None, "state", False),
        ("- looking at the flaky test", None, "state", False),
        ("- blocked on review", None, "state", False),
        # when both appear, the first in the text wins
        ("- right now Mira prefers vim", None, "state", False),
        ("- Mira prefers vim right now", None, "preference", True),
        # a mark of change between the person and the attitude: from now on
        ("- Mira now prefers vim", None, "preference", True),
        ("- Sam from now on wants short answers", None, "decision", True),
        ("- today we decided on SQLite", None, "state", False),
        ("- we decided on SQLite today", None, "decision", True),
        # then a sentence of one of rules.md's attribute patterns: a fact
        # (new-user trial: these were dropped though the rules call them durable)
        ("- the staging host is box3", None, "fact", True),
        ("- Sam's role is tech lead", None, "fact", True),
        ("- Tidepool version is 2.1", None, "fact", True),
        ("- right now the staging host is box4", None, "state", False),
        ("- the staging host is box3", "Log", "event", False),
        # no kind, no kind-giving heading, no cue: transient chatter
        # a one-off act told in the past tense: an event (planning/voice.py)
        ("- had lunch with the team", None, "event", False),
        ("- had lunch with the team", "Random thoughts", "event", False),
        # no kind, no heading, no cue, no voice: undecided
        ("- lunch with the team", None, None, False),
        # cues are whole words
        ("- the prefix is x", None, None, False),
        ("- nowhere to be seen", None, None, False),
    ],
)
def test_kind_and_durability(line, heading, kind, durable):
    result = classified(line, heading)
    assert (result.kind, result.durable) == (kind, durable)
    assert result.correction is False


def test_heading_words_come_from_the_rules():
    custom = replace(RULES, headings={"decision": ("rulings",)})
    # a topic's thing alone ("use SQLite") is a decision now: a plain one here
    assert classified("- keep the blue pencil", "Rulings").kind is None
    assert classified("- keep the blue pencil", "Rulings", custom).kind == "decision"


def test_durable_kinds_come_from_the_rules():
    facts_only = replace(RULES, durable_kinds=("fact",))
    assert classified("- pref: tabs", config=facts_only).durable is False
    assert classified("- fact: x", config=facts_only).durable is True


def test_cue_phrases_come_from_the_rules():
    custom = replace(
        RULES,
        durable_cues=("for good",),
        transient_cues=("meh",),
        kind_cues={"decision": ("for good",)},
        languages=(),  # the built-in lexicon adds its own cues on top
    )
    result = classified("- SQLite for good", config=custom)
    assert (result.kind, result.durable) == ("decision", True)
    assert classified("- meh, the build", config=custom).kind == "state"
    # no lexicon: "prefers" is no cue (a topic's thing alone would be a choice)
    assert classified("- Mira prefers the blue mug", config=custom).kind is None


# --- corrections -------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [
        # by kind
        ("- correction: the staging host is box7, not box2", "staging / host", "box7"),
        ("- Correction: the staging host is box7", "staging / host", "box7"),
        ("- correction: **staging / host**: box7", "staging / host", "box7"),
        # by a cue phrase that opens the entry
        ("- actually, we use MySQL, not Postgres", "database", "MySQL"),
        ("- I meant: the staging host is box7", "staging / host", "box7"),
        ("- misheard: call me Sam, not Pam", "user / name", "Sam"),
        (
            "- actually the staging host is box7 rather than box2",
            "staging / host",
            "box7",
        ),
        # the cue is not the key (regression: "typo" was keyed as a label)
        ("- typo: Tier-2 price: $3,600", "Tier-2 price", "$3,600"),
        ("- typo: it's box7", None, "it's box7"),
    ],
)
def test_corrections(line, key, value):
    result = classified(line)
    assert result.correction is True
    assert result.durable is True
    assert (result.key, result.value) == (key, value)


@pytest.mark.parametrize(
    "line",
    [
        "- the staging host is actually box7",  # the cue must open the entry
        "- we were wrong about it, actually",
        "- update: the staging host is box7",  # not a correction cue
    ],
)
def test_not_corrections(line):
    assert resolve_kind(entry(line), RULES)[1] is False


# --- keys: explicit > pattern > topic > label --------------------------------


@pytest.mark.parametrize(
    ("line", "key", "value", "keyed_by"),
    [
        (
            "- fact: **staging**: the staging host is box7",
            "staging",
            "the staging host is box7",
            "explicit",
        ),
        (
            "- fact: the db host is postgres.internal",
            "db / host",
            "postgres.internal",
            "pattern",
        ),
        # a label names the slot: the topic word is its value, not its key
        ("- fact: Storage: SQLite", "Storage", "SQLite", "label"),
        ("- fact: Main database: SQLite", "database", "SQLite", "label"),
        (
            "- fact: Deploy window: Fridays after 5",
            "Deploy window",
            "Fridays after 5",
            "label",
        ),
        ("- fact: **Deploy window**: Fridays", "Deploy window", "Fridays", "explicit"),
        # a label is short and not a URL
        (
            "- fact: this is a much too long label for a key: x",
            None,
            "this is a much too long label for a key: x",
            "none",
        ),
        ("- fact: the sky is blue", None, "the sky is blue", "none"),
    ],
)
def test_key_precedence(line, key, value, keyed_by):
    result = classified(line)
    assert (result.key, result.value, result.keyed_by) == (key, value, keyed_by)


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("- event: deployed SQLite", None),  # transient: not keyed ...
        ("- had lunch: pizza", None),
        ("- now: **db**: SQLite", "db"),  # ... unless the key is explicit
    ],
)
def test_transient_entries_are_keyed_only_explicitly(line, key):
    result = classified(line)
    assert result.durable is False
    assert result.key == key


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("my name is Sam", "name", "Sam"),
        (
            "Victoria Beckham is married to David Beckham",
            "Victoria Beckham / spouse",
            "David Beckham",
        ),
        (
            "Tier 2 renewal list price is $3,600",
            "Tier 2 renewal / list price",
            "$3,600",
        ),
        (
            "The list price of Tier 2 renewal is $3,600",
            "Tier 2 renewal / list price",
            "$3,600",
        ),
        ("Sam's timezone is CET", "Sam / timezone", "CET"),
        ("Mira works at Acme", "Mira / employer", "Acme"),
        # a leading article of the subject is dropped
        ("The Acme deal is due on 2026-03-01", "Acme deal / deadline", "2026-03-01"),
        ("A new hire works at Acme", "new hire / employer", "Acme"),
        ("the staging host is box7", "staging / host", "box7"),
        ("The API is hosted on fly.io", "API / host", "fly.io"),
        # a sentence's final period (or !) is not part of the value
        ("my name is Sam.", "name", "Sam"),
        ("my name is Sam!", "name", "Sam"),
        ("the api version is 3.12.", "api / version", "3.12"),
        ("the docs url is https://x.org/a.html.", "docs / url", "https://x.org/a.html"),
        ("Mira works at Acme .", "Mira / employer", "Acme"),
        # spacing and case are free
        ("MY  NAME   is Sam", "name", "Sam"),
    ],
)
def test_match_pattern(text, key, value):
    assert match_pattern(text, RULES) == (key, value)


@pytest.mark.parametrize("text", ["my name", "the sky is blue", "", "is married to"])
def test_match_pattern_without_a_match(text):
    assert match_pattern(text, RULES) is None


@pytest.mark.parametrize(
    "patterns",
    [
        {
            "generic": ("{subject} is {value}",),
            "host": ("{subject} is hosted on {value}",),
        },
        {
            "host": ("{subject} is hosted on {value}",),
            "generic": ("{subject} is {value}",),
        },
    ],
    ids=["specific-last", "specific-first"],
)
def test_the_most_specific_pattern_wins(patterns):
    custom = replace(RULES, patterns=patterns)
    assert match_pattern("The API is hosted on fly.io", custom) == (
        "API / host",
        "fly.io",
    )
    assert match_pattern("The API is fast", custom) == ("API / generic", "fast")


@pytest.mark.parametrize(
    ("template", "text", "expected"),
    [
        ("set {key} to {value}", "set the theme to dark.", ("theme", "dark")),
        ("the build runs on {value}", "the build runs on ubuntu", ("runner", "ubuntu")),
    ],
)
def test_key_and_keyless_templates(template, text, expected):
    custom = replace(RULES, patterns={"runner": (template,)})
    assert match_pattern(text, custom) == expected


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("decided on sqlite", "sqlite"),  # the word as written
        ("we switched from Postgres to SQLite", "SQLite"),
        ("moved away from the old Postgres setup to SQLite", "SQLite"),
        ("use SQLite instead of Postgres", "SQLite"),
        ("SQLite, not Postgres", "SQLite"),
        ("we replaced Postgres with SQLite", "SQLite"),
        ("Postgres was replaced by SQLite", "SQLite"),
        ("SQLite replaced Postgres", "SQLite"),
        ("dropped Postgres for SQLite", "SQLite"),
        ("not Postgres or MySQL, but SQLite", "SQLite"),
        ("we use PostgreSQL", "PostgreSQL"),
        # when only the word being left is named, it is still the topic's word
        ("moving off Postgres", "Postgres"),
    ],
)
def test_match_topic_picks_the_word_chosen(text, word):
    assert match_topic(text, RULES) == ("database", word)


@pytest.mark.parametrize(
    "text", ["nothing about storage", "mysqldump ran", "postgres_db is up", ""]
)
def test_match_topic_needs_a_whole_word(text):
    assert match_topic(text, RULES) is None


def test_classify_keys_a_switch_by_topic():
    result = classified("- decision: we switched from Postgres to SQLite")
    # the change frame names the new value; its topic word keys it
    assert (result.key, result.value, result.keyed_by) == (
        "database",
        "SQLite",
        "frame",
    )
    assert result.leaves == "Postgres"


def test_topics_come_from_the_rules():
    custom = replace(RULES, topics={"queue": ("rabbitmq", "kafka")})
    assert match_topic("we moved from RabbitMQ to Kafka", custom) == ("queue", "Kafka")
    assert match_topic("decided on SQLite", custom) is None


@pytest.mark.parametrize(
    "line",
    [
        "- fact: the " + " " * 100_000 + " host is x",
        "- fact: the x host is " + " " * 100_000 + ".",
        "- fact: a" + " " * 100_000 + "b",
        "- correction: the host is box7" + " " * 100_000 + ", not box2",
        "- fact: " + "lorem ipsum dolor sit amet, " * 4_000,
    ],
    ids=["subject", "value", "middle", "contrast", "words"],
)
def test_long_lines_classify(line):
    # once quadratic or worse; timings live in bench/, this only has to finish
    assert classified(line).durable


# --- keys compare alike ------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Tier 2 renewal/List  Price", "tier 2 renewal / list price"),
        ("DATABASE", "database"),
        ("  database\t", "database"),
        ("a /b", "a/ b"),
        ("Victoria Beckham / spouse", "victoria beckham/spouse"),
        ("ｄａｔａｂａｓｅ", "database"),  # fullwidth (NFKC)
        ("ﬁle", "file"),  # ligature (NFKC)
        ("Straße", "STRASSE"),  # casefold
        ("Ｔｉｅｒ ２ / price", "tier 2 / PRICE"),
    ],
)
def test_normalize_key_treats_alike(a, b):
    assert normalize_key(a) == normalize_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [("database", "data base"), ("a / b", "a b"), ("python 3.12", "python 312")],
)
def test_normalize_key_keeps_different_keys_apart(a, b):
    assert normalize_key(a) != normalize_key(b)


def test_normalize_key_is_canonical():
    assert (
        normalize_key("  Tier 2 renewal/List  Price ") == "tier 2 renewal / list price"
    )


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("SQLite.", "sqlite", True),
        ("**tabs**", "tabs", True),
        ("`uv`", "uv", True),
        ("Dark  mode", "dark mode", True),
        ("ｔａｂｓ", "tabs", True),
        ("v1.2", "v12", False),  # inner . and - of numbers are kept
        ("3.12", "312", False),
        ("2026-01-05", "20260105", False),
        ("$3,600", "$4,200", False),
    ],
)
def test_normalize_value(a, b, same):
    assert (normalize_value(a) == normalize_value(b)) is same


# --- never fails -------------------------------------------------------------

_WORDS = st.sampled_from(
    [
        "- ", "fact: ", "correction: ", "actually ", "typo: ", "**", "key", ": ",
        "the ", "host ", "is ", "married to ", "from ", "to ", "not ", "instead of ",
        "replaced by ", "Postgres ", "SQLite ", "prefers ", "right now ", "today ",
        "my name is ", "{subject} ", "(", ")", ".", " ", "x", "🌱", "中文",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)  # the first example compiles the lexicon
@given(st.lists(_WORDS | st.text(max_size=4), max_size=30).map("".join))
def test_classify_never_raises(text):
    for e in parse_note("m.md", date(2026, 1, 5), "- " + text).entries:
        result = classify(e, RULES)
        assert result.keyed_by in {
            "explicit",
            "pattern",
            "polarity",
            "topic",
            "label",
            "frame",
            "copula",
            "none",
        }
        assert (result.key is None) == (result.keyed_by == "none")
        assert result.durable or result.key is None or result.keyed_by == "explicit"


def test_templates_are_listed_with_the_specificity_their_regex_has():
    """The regexes are compiled lazily; the listing must rank them the same."""
    from gardener.planning.keying import compile_template, templates
    from gardener.store.settings import default_config

    patterns = tuple(default_config().patterns.items())
    listed = templates(patterns)
    assert listed and all(
        compile_template(t)[1] == literal for _, t, literal, _ in listed
    )


@pytest.mark.parametrize(
    ("line", "heading", "value"),
    [
        ('- Sam initialized me as "Anna", the new support desk', "Events", "Anna"),
        ("- The team named me Atlas.", None, "Atlas"),
    ],
)
def test_the_agent_named_by_whoever_set_it_up_is_its_identity(line, heading, value):
    c = classified(line, heading)
    assert (c.kind, c.key, c.value) == ("identity", "name", value)


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [
        ("- Upgraded to **Pro** plan as of today", None, "Pro plan"),
        (
            "- upgraded the render account to the Studio plan",
            "render account",
            "Studio plan",
        ),
        ("- downgraded the VPS to 2 GB", "VPS", "2 GB"),
        ("- switched the database to SQLite from now on", "database", "SQLite"),
    ],
)
def test_an_upgrade_is_a_change_and_its_time_phrase_is_not_its_value(line, key, value):
    c = classified(line)
    assert (c.kind, c.durable, c.key, c.value) == ("decision", True, key, value)


@pytest.mark.parametrize(
    ("line", "heading", "key"),
    [
        # a label that is one code span names the code it describes
        (
            "- `merger.py::dedupe`: keeps the newest row of each id",
            "Design",
            "Design / merger.py::dedupe",
        ),
        # a subject heading's date is when it was written, not what it is about
        (
            "- **Region**: eu-west-1",
            "Billing export - Feb 12, 2026",
            "Billing export / Region",
        ),
    ],
)
def test_label_keys_name_the_thing(line, heading, key):
    assert classified(line, heading).key == key


@pytest.mark.parametrize(
    "line",
    [
        "- Files committed: 2 new files, 52 lines",  # a verb closes the label
        '- User confirmed: "looks good" - staying on local Ollama',
        "- Sam said: the demo went fine",
    ],
)
def test_a_label_closed_by_a_verb_is_a_clause_not_a_key(line):
    assert classified(line, "Rollout").key is None


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("- Upload speed: 20 MB/s", "Network / Upload speed"),
        ("- Video embed: iframe", "Network / Video embed"),
    ],
)
def test_a_noun_that_ends_like_a_past_tense_still_names_a_key(line, key):
    assert classified(line, "Network").key == key


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [
        ("- we are sticking with Postgres", "database", "Postgres"),
        ("- Wir bleiben bei Postgres", "database", "Postgres"),
        ("- 继续使用 PostgreSQL", "database", "PostgreSQL"),
    ],
)
def test_a_choice_kept_is_a_decision(line, key, value):
    c = classified(line)
    assert (c.kind, c.key, c.value) == ("decision", key, value)


@pytest.mark.parametrize(
    ("heading", "subject"),
    [
        ("Token launch - Feb 12, 2026", "Token launch"),
        (
            "Video 2 — Animation progress (2026-03-22 afternoon)",
            "Video 2 — Animation progress",
        ),
        ("12 March 2026: Kickoff", "Kickoff"),
        ("Release v2.1", "Release v2.1"),
        ("Q3 2026 plan", "Q3 2026 plan"),
    ],
)
def test_a_subject_heading_loses_its_date(heading, subject):
    from gardener.planning.headings import undated

    assert undated(heading) == subject


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [
        ("- Upgraded to Python 3.12", "language", "Python 3.12"),
        ("- You initialized me as Atlas, the release helper", "name", "Atlas"),
    ],
)
def test_a_value_keeps_its_version_and_loses_its_apposition(line, key, value):
    """Breaker: 3.12 then 3.13 was rejected as a repeat of Python; the
    apposition after a name superseded the name."""
    c = classified(line)
    assert (c.key, c.value) == (key, value)


@pytest.mark.parametrize(
    "line", ["- Partner Ahmed: owns billing", "- Dog breed: beagle"]
)
def test_a_name_or_noun_ending_in_ed_closes_a_key_label(line):
    assert classified(line, "People").key == line[2:].split(":")[0]


def test_a_stay_for_a_while_is_no_decision():
    assert classified("- Staying with Sam for the weekend").kind != "decision"
