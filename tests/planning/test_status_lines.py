"""Status reports, log records and clause subjects: lines that look like
facts but report a moment (see docs/design.md, "Classify")."""

from __future__ import annotations

from datetime import date

import pytest

from gardener.formats.dailynote import parse_note
from gardener.lexicon.words import lexicon
from gardener.planning.classify import classify
from gardener.planning.frames import read_frame
from gardener.store.settings import default_config

RULES = default_config()
WORDS = lexicon()


def one(line: str, heading: str = "## Notes"):
    parsed = parse_note(
        "memory/2026-03-05.md", date(2026, 3, 5), f"{heading}\n{line}\n"
    )
    (entry,) = parsed.entries
    return classify(entry, RULES)


@pytest.mark.parametrize(
    "line",
    [
        "- ✅ Token moved to the vault",
        "- ✔️ Nightly backups running",
        "- ❌ Staging deploy failed again",
        "- ⚠️ Disk at 91%",
        "- 🟢 Webhooks healthy",
    ],
)
def test_a_status_mark_opens_a_status_line(line):
    c = one(line)
    assert (c.kind, c.rule, c.key) == ("state", "status mark", None)


@pytest.mark.parametrize(
    "line",
    [
        "- **Reviewer (security)**: ✅ PASSED - found two unsafe calls",
        "- **Writer**: ⚠️ PARTIAL - good drafts",
        "- Smoke tests: FAILED on arm64",
        "- Awaiting: the launch date from Dana",
        "- Pending: DNS change for the apex",
    ],
)
def test_a_status_value_or_waiting_label_is_transient(line):
    c = one(line)
    assert c.kind == "state" and not c.durable and c.rule in ("label", "status mark")


@pytest.mark.parametrize(
    "line",
    [
        "- Forum reply (9f3c2a1b): thanks for the pointer on retries",
        "- Deploy (#412): green after one retry",
        "- Комментарий (a1b2c3d4e5): ответил про кэш",
    ],
)
def test_a_label_naming_a_record_by_its_id_is_an_event(line):
    c = one(line)
    assert (c.kind, c.rule) == ("event", "log record")


def test_the_words_before_a_verb_of_change_must_name_a_thing():
    # a clause, not a subject: nothing is decided
    assert (
        read_frame("v2 approved — logo moved to top, menu pushed to footer", WORDS)
        is None
    )
    # a bracket left open: the verb sits inside a parenthesis
    assert read_frame("Key rotated (moved to vault)", WORDS) is None
    frame = read_frame("We moved the staging box to Hetzner", WORDS)
    assert frame is not None and frame.new == "Hetzner"


def test_a_key_value_fact_still_files():
    c = one("- **Deploy target**: Hetzner", "## Infrastructure")
    assert c.durable and c.key and c.value == "Hetzner"


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("- **Root cause**: the webhook retried on a 409", "fact"),
        ("- **Clarification:** Dana means the weekly digest by 'report'", "fact"),
        ("- **Release strategy:** ship behind a flag first", "decision"),
        ("- **Ursache**: der Cron lief doppelt", "fact"),
        ("- **根本原因**：缓存没有过期时间", "fact"),
    ],
)
def test_a_label_naming_a_kind_gives_it_under_a_log_heading(line, kind):
    c = one(line, "## Events")
    assert (c.kind, c.rule) == (kind, "label") and c.durable


@pytest.mark.parametrize(
    "line",
    [
        "- **Every 6 hours:** the digest job runs",
        "- **Nightly:** backup to the NAS",
        "- **Täglich:** Bericht an Dana",
        "- **每天**：同步日历",
    ],
)
def test_a_recurrence_label_states_a_schedule(line):
    c = one(line, "## Next actions")
    assert (c.kind, c.rule) == ("fact", "label") and c.durable


def test_a_clock_label_is_still_one_day():
    assert one("- **14:00:** call with Dana", "## Next actions").kind != "fact"


@pytest.mark.parametrize(
    "line",
    [
        "- Important working rule from Dana: test before saying it works.",
        "- Shared goal: keep the field guide free for schools.",
        "- Regel von Dana: nie freitags deployen.",
    ],
)
def test_a_kind_word_heads_a_longer_label(line):
    c = one(line, "## 2026-03-05")
    assert c.kind == "fact" and c.rule == "label" and c.key is None


def test_a_label_of_a_thing_keeps_its_words():
    c = one("- **Source of truth:** the Postgres primary", "## Infrastructure")
    assert c.key == "Source of truth"


def test_the_main_one_of_a_topic_is_the_topic():
    # "as the main database" narrows nothing: a later switch of the main database supersedes it
    assert one("- We use Postgres as the main database.").key == "database"
    assert one("- We use Postgres for the analytics database.").key != "database"


# found by a new user's trial (issue 14): each line once went wrong


def test_we_dropped_x_ends_it():
    c = one("- We dropped Redis.")
    assert (c.kind, c.key, c.value, c.ends) == ("decision", "cache", "Redis", True)


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [
        ("- The database is now Postgres", "database", "Postgres"),
        ("- The team lead is now Omar", "team lead", "Omar"),
    ],
)
def test_x_is_now_a_name_is_a_change(line, key, value):
    c = one(line)
    assert (c.kind, c.key, c.value) == ("decision", key, value)


def test_x_is_now_a_state_stays_a_state():
    assert one("- The build is now green").kind == "state"


@pytest.mark.parametrize(
    "line",
    [
        "- Fly.io health checks need the /healthz route to answer within 2 s",
        "- Priya prefers snake_case for all Python identifiers",
    ],
)
def test_a_topic_word_that_modifies_another_noun_is_not_the_value(line):
    # keyed by the topic, these were rejected as repeats or lost their content
    c = one(line, "## Key learnings")
    assert c.durable and c.key is None
