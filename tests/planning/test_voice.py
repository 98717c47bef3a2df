"""The sentence voice of entries the rules leave undecided (planning/voice.py),
in each supported language. All sentences are invented."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.formats.dailynote import parse_note
from gardener.lexicon.words import lexicon
from gardener.planning.classify import placed
from gardener.planning.voice import durable_at, read_voice
from gardener.store.settings import default_config

WORDS = lexicon()
RULES = default_config()


@pytest.mark.parametrize(
    ("text", "kind", "rule"),
    [
        # an attitude anywhere in a clause, after a leading clause too
        (
            "If the nightly job breaks, Priya likes a two-line summary",
            "preference",
            "attitude",
        ),
        (
            "On her own laptop Dana is comfortable with sweeping refactors",
            "preference",
            "attitude",
        ),
        (
            "Pushing tags is fine, but Omar wants a heads-up first",
            "preference",
            "attitude",
        ),
        ("Lena deeply enjoys tidy dashboards", "preference", "attitude"),
        (
            "Kofi does not strongly prioritize speed over polish",
            "preference",
            "attitude",
        ),
        ("The user finds long stack traces frustrating", "preference", "attitude"),
        ("用户希望回答简短一些", "preference", "attitude"),
        ("ユーザーは短い説明を希望している", "preference", "attitude"),
        ("Jonas möchte morgens keine Pings", "preference", "attitude"),
        ("Inès veut des commits atomiques", "preference", "attitude"),
        ("Marta quiere los informes en PDF", "preference", "attitude"),
        ("Олег хочет отчёты по пятницам", "preference", "attitude"),
        # a rule: a modal norm or a present conditional
        ("Flaky suites should be quarantined within a day", "fact", "rule voice"),
        (
            "If a migration touches billing, run it in a maintenance window",
            "fact",
            "rule voice",
        ),
        ("上线前必须先做备份", "fact", "rule voice"),
        ("本番では必ずレビューを通す", "fact", "rule voice"),
        ("Vor jedem Release muss das Changelog stehen", "fact", "rule voice"),
        ("Il faut taguer chaque version", "fact", "rule voice"),
        ("Hay que rotar las claves cada mes", "fact", "rule voice"),
        ("Перед релизом нужно обновить схему", "fact", "rule voice"),
        # a log line: what the agent did
        ("Verified the restore script on a scratch volume", "event", "log voice"),
        ("The retry queue was drained by hand", "event", "log voice"),
        ("The canary run succeeded on the second try", "event", "log voice"),
        ("Snapshot archived and checksummed", "event", "log voice"),
        ("昨天修复了导出的问题", "event", "log voice"),
        ("ログの設定を直しました", "event", "log voice"),
        ("Ich habe den Index neu aufgebaut", "event", "log voice"),
        ("J'ai corrigé le script d'export", "event", "log voice"),
        ("Se reinició el servidor de pruebas", "event", "log voice"),
        ("Исправил экспорт отчётов", "event", "log voice"),
        # ... unless it states a lasting result
        ("Editor theme set to solarized", "fact", "result"),
        ("The build box was upgraded to 64 GB of RAM", "fact", "result"),
        ("Proxy reconfigured from port 80 to the TLS listener", "fact", "result"),
        ("Added a cleanup helper at `tools/prune.sh`", "fact", "result"),
        ("Mira granted the bot read access to the wiki", "fact", "result"),
        # a state report
        ("The search index is working again", "state", "state voice"),
        ("Mirror still not reachable from the office", "state", "state voice"),
        ("Two workers ready to take jobs", "state", "state voice"),
        ("索引还没建好", "state", "state voice"),
        ("Der Export läuft wieder", "state", "state voice"),
        # a plain present statement with a short subject
        ("The shared drive is the archive of record", "fact", "statement"),
        ("Tomás's team means the platform group", "fact", "statement"),
    ],
)
def test_voice_classes(text, kind, rule):
    said = read_voice(text, WORDS)
    assert said is not None, text
    assert (said.kind, said.rule) == (kind, rule), text


@pytest.mark.parametrize(
    "text",
    [
        "lunch with the team",
        "Looks like the mirror is slow",  # a state, never an attitude
        "Sam will deploy on Friday",  # German "will" is no English attitude
        "Tomás thinks the tide chart is too busy",  # an opinion in a clause
        "This is fine",  # too short to be a statement
    ],
)
def test_no_attitude_or_statement(text):
    said = read_voice(text, WORDS)
    assert said is None or said.rule not in ("attitude", "statement"), said


def test_a_statement_needs_no_time_word():
    assert read_voice("The shared drive is the archive of record today", WORDS) is None


def test_a_state_before_a_rule_wins_and_a_rule_before_a_state_wins():
    said = read_voice(
        "The legacy hook is no longer needed and should be removed", WORDS
    )
    assert said is not None and said.kind == "state"
    said = read_voice("Slow checks should be cached so the board stays current", WORDS)
    assert said is not None and said.kind == "fact"


def test_a_lead_in_gives_way_to_what_it_introduces():
    said = read_voice("A lesson surfaced: long exports should stream", WORDS)
    assert said is not None and (said.kind, said.rule) == ("fact", "rule voice")
    said = read_voice("Tooling was hardened: `board.py` gained a cache", WORDS)
    assert said is not None and said.kind == "event"


def entry(text: str, heading: str | None = None):
    note = (f"## {heading}\n" if heading else "") + f"- {text}\n"
    (only,) = parse_note("memory/2026-03-05.md", date(2026, 3, 5), note).entries
    return only


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a transient cue after the attitude does not make it a state report
        (
            "Rui wants the bot to ask first instead of waiting for a prompt",
            "preference",
        ),
        ("For exports, Rui wants the totals checked before sending", "preference"),
        # a time word does not make an attitude or a rule transient
        ("Rui wants replies in Portuguese now", "preference"),
        ("Deploys must be tagged from today", "fact"),
        # ... but a transient cue before it does
        ("Right now Rui wants the bot quiet", "state"),
    ],
)
def test_placed_reads_the_voice_around_cues(text, kind):
    assert placed(entry(text), RULES)[0] == kind


def test_a_heading_still_beats_a_statement_but_not_an_attitude():
    """A log section's plain statements are what happened then; an attitude,
    a habit or a rule in a session's recap is what it taught (a new user's
    "## Session summary" lost "Dana likes benchmark numbers in PRs")."""
    assert (
        placed(entry("The deploy script has three steps", "Log"), RULES)[0] == "event"
    )
    assert placed(entry("Rui wants short replies", "Log"), RULES)[0] == "preference"
    assert (
        placed(entry("Cron jobs must write to /var/lib/app", "Session summary"), RULES)[
            0
        ]
        == "fact"
    )


def test_durable_at_finds_the_first_attitude_or_rule():
    assert durable_at("checked it; Sam wants more", WORDS) == 12
    assert durable_at("nothing to see here", WORDS) == -1


_PIECES = st.sampled_from(
    [
        "Sam ", "wants ", "should ", "If ", "when ", ", ", ": ", "was ", "added ",
        "at ", "`a/b.py` ", "set to ", "again ", "is ", "from ", "to ", "✅", "用户",
        "希望", "必须", "了", "ました", "habe ", "gemacht ", "a ", "corrigé ",
        "хочет ", "нужно ", "x", " ", "…", "ZERO ",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES | st.text(max_size=5), max_size=25).map("".join))
def test_read_voice_never_raises_and_stays_inside_the_text(text):
    said = read_voice(text, WORDS)
    if said is not None:
        assert 0 <= said.at <= len(text)
        assert said.kind in ("preference", "fact", "event", "state")
    assert -1 <= durable_at(text, WORDS) <= len(text)


def test_a_timed_or_long_line_of_a_log_section_stays_an_event():
    """The demo's "18:00 retro ..., nobody has looked at accessibility yet,
    which has to happen before ..." became a current fact and the second
    answer to `recall cache`: a timed line is a log line."""
    assert (
        placed(entry("18:00 Cron jobs must write to /var/lib/app", "Shipped"), RULES)[0]
        == "event"
    )
