"""How classify reads prose as agents write it: labels, headings, frames,
keys, and the traps of each language (see docs/design.md, Promote)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gardener.formats.dailynote import parse_note
from gardener.lexicon.words import lexicon
from gardener.model.facts import Fact
from gardener.planning.anchor import anchored
from gardener.planning.classify import classify
from gardener.planning.headings import read_headings
from gardener.planning.labels import label_class, split_label
from gardener.store.settings import default_config

RULES = default_config()
WORDS = lexicon()


def read(note: str):
    """The classified entries of a note's text."""
    parsed = parse_note("memory/2026-03-05.md", date(2026, 3, 5), note)
    return [classify(e, RULES) for e in parsed.entries]


def one(note: str):
    (only,) = read(note)
    return only


@pytest.mark.parametrize(
    ("label", "shape"),
    [
        ("Database", "key"),
        ("Deploy window", "key"),
        ("Status", "transient"),
        ("Deploy status", "transient"),
        ("10:30 UTC", "transient"),
        ("Step 2", "transient"),
        ("WARN", "transient"),
        ("User", "transient"),
        ("Note", "generic"),
        ("Next steps", "transient"),
        ("Context", "generic"),
        ("次のステップ", "transient"),
        ("Nächste Schritte", "transient"),
        ("Decision", "kind"),
        ("Collaboration rule", "kind"),
        ("Статус", "transient"),
    ],
)
def test_label_classes(label, shape):
    assert label_class(label, WORDS)[0] == shape


def test_split_label_takes_full_width_colons_and_refuses_urls():
    assert split_label("**语言**：中文".replace("**", "")) == ("语言", "中文")
    assert split_label("https://example.org: the docs") is None
    assert split_label("this is a much too long label for a key: x") is None


@pytest.mark.parametrize(
    ("note", "kind", "key", "value"),
    [
        ("## Setup\n- **Database:** Postgres 15\n", "fact", "database", "Postgres 15"),
        ("## Staging\n- Host: box3\n", "fact", "Staging / Host", "box3"),
        ("- Staging host: stg-1\n", "fact", "Staging / host", "stg-1"),
        ("## Log\n- Status: green\n", "state", None, "Status: green"),
        ("## 14:30 — Heartbeat\n- **Tracker:** 3 open\n", "event", None, "3 open"),
        (
            "# S\n## Session 3\n### Proton account\n- Email: none yet\n",
            "fact",
            "Proton account / Email",
            "none yet",
        ),  # fmt: skip
        (
            "## Changes\n- Deploy target: Fly.io → Hetzner\n",
            "decision",
            "deploy target",
            "Hetzner",
        ),  # fmt: skip
        (
            "- Sam wants replies in Dutch\n",
            "preference",
            "Sam / replies in Dutch",
            "Sam wants replies in Dutch",
        ),  # fmt: skip
        ("- Mira prefers dark mode\n", "preference", "Mira / theme", "dark mode"),
        ("## 10:30\n- we use SQLite\n", "decision", "database", "SQLite"),
    ],
)
def test_label_bullets_headings_and_keys(note, kind, key, value):
    c = one(note)
    assert (c.kind, c.key, c.value) == (kind, key, value)


@pytest.mark.parametrize(
    ("line", "key", "value", "ends"),
    [
        (
            "- Switched CI from CircleCI to GitHub Actions",
            "ci",
            "GitHub Actions",
            False,
        ),
        ("- We no longer use Redis", "cache", "Redis", True),
        ("- 我们决定弃用Redis。", "cache", "Redis", True),
        ("- Redisを廃止した", "cache", "Redis", True),
        ("- Wir nutzen Redis nicht mehr.", "cache", "Redis", True),
        ("- Мы отказались от Redis.", "cache", "Redis", True),
        ("- the Postgres connection pool size is 20", None, None, False),
    ],
)
def test_changes_and_removals(line, key, value, ends):
    c = one(line)
    if key is None:
        assert c.key != "database"  # the topic word is a modifier here
        return
    assert (c.key, c.value, c.ends) == (key, value, ends)


@pytest.mark.parametrize(
    "line",
    [
        "- decision: we will not use MongoDB",
        "- decision: decided against MongoDB",
        "- decision: Not going with MongoDB after all",
    ],
)
def test_a_negated_value_is_never_filed(line):
    c = one(line)
    assert c.key != "database" and c.value != "MongoDB"


@pytest.mark.parametrize(
    "line",
    [
        "- decision: We will not use Vercel, nor Netlify.",
        "- decision: We use neither Vercel nor Netlify.",
        "- decision: decided against Vercel or Netlify",
        "- decision: On a décidé de ne pas utiliser Vercel, ni Netlify.",
        "- decision: Wir nutzen weder Vercel noch Netlify.",
        "- decision: No usaremos Vercel ni Netlify.",
        "- decision: Не будем использовать ни Vercel, ни Netlify.",
        "- decision: 不用 Vercel，也不用 Netlify。",
        "- decision: 决定不用Vercel和Netlify",
    ],
)
def test_a_negation_rejects_every_name_of_its_list(line):
    # a new user's French line filed `deploy target: Netlify` (the last name)
    c = one(line)
    assert c.key != "deploy target" and c.value not in ("Vercel", "Netlify"), c


@pytest.mark.parametrize(
    "line",
    [
        "- 非常に速いビルドだった",  # 常に "always" inside 非常に "very"
        "- テストを書いています",  # いま inside -います
        "- 我叫了外卖",  # 我叫 "my name is" before an aspect particle: "I ordered"
        "- решил проблему с кэшем",  # решил alone: "solved"
    ],
)
def test_language_traps_are_not_cues(line):
    c = one(line)
    assert not c.durable
    assert c.key is None


def test_the_agent_and_the_user_have_different_names():
    assert one("- My name is Atlas").key == "name"
    assert one("- Call me Sam").key == "user / name"
    assert one("- 我叫小明").key == "name"


def test_an_undecided_entry_is_not_transient():
    c = one("- Tomás thinks the tide chart is too busy\n")
    assert c.undecided and c.rule == ""


def test_read_headings_shields_and_titles():
    assert read_headings(("2026-03-05",), {}, WORDS) == (None, None, False)
    assert read_headings(("Log", "Servers"), {}, WORDS) == ("event", "Servers", True)
    assert read_headings(("Decision: use SQLite",), {}, WORDS)[:2] == (
        "decision",
        "use SQLite",
    )


def test_a_change_naming_no_key_is_anchored_by_its_value():
    # names no topic knows (Kimi and Ollama are the `model` topic's words now)
    c = one("- decision: replaced Falcon with Osprey")
    held = Fact("Falcon", key="primary model", section="Decisions")
    other = Fact("Kestrel", key="fallback model", section="Decisions")
    assert anchored(c, [held, other]).key == "primary model"
    assert anchored(c, [other]).key is None
    # two current facts it names: ambiguous, left unkeyed
    twin = Fact("Falcon", key="coding model", section="Decisions")
    assert anchored(c, [held, twin]).key is None


def test_no_languages_reads_only_the_rules_lists():
    english_only = replace(RULES, languages=("en",))
    parsed = parse_note(
        "memory/2026-03-05.md", date(2026, 3, 5), "- 我们决定用这个方案\n"
    )
    assert classify(parsed.entries[0], english_only).undecided


@given(
    st.lists(st.text(max_size=30), max_size=4),
    st.text(max_size=120),
)
def test_classify_never_raises_under_any_headings(headings, text):
    note = "".join(
        f"{'#' * (i + 1)} {h}\n" for i, h in enumerate(headings) if h.strip()
    )
    for c in read(note + f"- {text}\n"):
        assert c.kind is None or c.kind in (
            "identity", "preference", "decision", "fact", "event", "state", "todo"
        )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # a trailing word of time is when it changed, not the value
        (
            "- CI moved from GitHub Actions to Woodpecker last night.",
            "ci",
            "Woodpecker",
        ),
        (
            "- switched the deploy target to Railway yesterday",
            "deploy target",
            "Railway",
        ),
        # a stop inside a name does not end the value
        (
            "- We moved the deploy target from Hetzner to Fly.io",
            "deploy target",
            "Fly.io",
        ),
        (
            "- We moved the deploy target from Hetzner to Fly.io. Cheaper.",
            "deploy target",
            "Fly.io",
        ),
        # an aside between the person and the verb
        (
            "- Mira (the designer) prefers light mode in all mockups.",
            "Mira / theme",
            "light mode",
        ),
        ("- Mira, our designer, prefers light mode.", "Mira / theme", "light mode"),
    ],
)
def test_phrasings_a_new_user_wrote(text: str, key: str, value: str) -> None:
    c = one(text)
    assert (c.key, c.value) == (key, value)


def test_a_name_label_under_a_subject_heading_keys_that_subjects_name() -> None:
    """ "Name: Sam Rivera" under "## User Info" was filed unkeyed, so "What
    is the user's name?" found nothing on the key."""
    c = one("## User Info\n- Name: Sam Rivera\n")
    assert (c.kind, c.key, c.value) == ("identity", "user / Name", "Sam Rivera")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("- Jonas: prefers tea over coffee", "Jonas / tea over coffee"),
        ("- Mira: likes short standups", "Mira / short standups"),
        ("- Mira: prefers dark mode", "Mira / theme"),
    ],
)
def test_a_persons_name_as_a_label_is_the_person_not_a_key(
    text: str, key: str | None
) -> None:
    """ "Jonas: <standup time>" was keyed `Jonas`, and "Jonas: prefers tea"
    then superseded it: the label is who holds the attitude, and the key is
    that person and what the attitude is about."""
    c = one(text)
    assert (c.kind, c.key) == ("preference", key)


@pytest.mark.parametrize(
    ("line", "kind", "key", "value"),
    [
        ("- We use Sentry for error tracking.", "decision", "error tracking", "Sentry"),
        ("- We now use GlitchTip for error tracking", "decision", "error tracking", "GlitchTip"),
        ("- Wir nutzen Sentry für Fehlertracking.", "decision", "Fehlertracking", "Sentry"),
        ("- Usamos Sentry para el seguimiento de errores.", "decision", "el seguimiento de errores", "Sentry"),
        ("- エラー追跡にはSentryを使う。", "decision", "エラー追跡", "Sentry"),
        ("- 我们用Sentry做错误追踪。", "decision", "错误追踪", "Sentry"),
    ],
)  # fmt: skip
def test_a_thing_chosen_for_a_purpose_is_keyed_by_the_purpose(line, kind, key, value):
    c = one(line)
    assert (c.kind, c.key, c.value) == (kind, key, value)


@pytest.mark.parametrize(
    "line",
    [
        "- We will not use Datadog for error tracking",
        "- We use Claude for code review and Gemini for the images of the site",
    ],
)
def test_no_purpose_key_for_a_negation_or_a_clause(line):
    c = one(line)
    assert c.keyed_by != "purpose"
    assert c.value != "Datadog"


@pytest.mark.parametrize(
    ("line", "kind", "key"),
    [
        ("- Sam started running before work", "preference", "Sam / running before work"),
        ("- Sam quit smoking", "preference", "Sam / smoking"),
        ("- Lucía dejó de fumar", "preference", "Lucía / fumar"),
        ("- Сэм бросил курить", "preference", None),
    ],
)  # fmt: skip
def test_a_habit_begun_or_given_up_is_a_preference(line, kind, key):
    c = one(line)
    assert c.kind == kind
    if key:
        assert c.key == key


def test_a_started_act_is_a_log_line():
    assert one("- Sam started the deploy at noon").kind == "event"


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [
        ("- The Postgres connection pool size is 20", "Postgres connection pool size", "20"),
        ("- Redis maxmemory is 2gb", "Redis maxmemory", "2gb"),
    ],
)  # fmt: skip
def test_a_topics_setting_is_a_fact(line, key, value):
    c = one(line)
    assert (c.kind, c.key, c.value) == ("fact", key, value)


def test_a_topics_state_is_not_a_setting():
    assert one("- The Postgres replica is down").kind != "fact"


def test_a_log_line_removal_names_what_it_leaves():
    c = one("- Removed RabbitMQ, jobs run from cron now")
    assert (c.durable, c.ends, c.leaves) == (False, True, "RabbitMQ")


def test_a_piece_of_code_changing_is_a_change_log_not_a_decision():
    from gardener.lexicon.words import lexicon
    from gardener.planning.frames import read_frame

    frame = read_frame("`board.py` now uses the richer data", lexicon())
    assert frame is not None and not frame.strong
    assert read_frame("Error tracking now uses GlitchTip", lexicon()).strong


@pytest.mark.parametrize(
    ("note", "key", "name"),
    [
        ("## Session summary\n- I'm Wren, Priya's coding agent.\n", "name", "Wren"),
        ("## Zusammenfassung\n- Ich bin Kiesel, der Coding-Agent von Jonas.\n", "name", "Kiesel"),
        ("- 我叫小禾，是林悦的助手。\n", "name", "小禾"),
        ("- Der Nutzer ist Jonas Weber, Kassenwart des Vereins.\n", "user / name", "Jonas Weber"),
        ("- La usuaria es Lucía Fernández, veterinaria.\n", "user / name", "Lucía Fernández"),
    ],
)  # fmt: skip
def test_a_name_in_prose_is_identity_under_any_heading(note, key, name):
    (c,) = read(note)
    assert (c.kind, c.key) == ("identity", key)
    assert c.value.startswith(name)


@pytest.mark.parametrize(
    "line", ["- I'm tired of this flaky test", "- The user is happy with it"]
)
def test_no_name_no_identity(line):
    assert one(line).key not in ("name", "user / name")


@pytest.mark.parametrize(
    "line",
    [
        "- Jonas wohnt in Leipzig.",
        "- Camille habite à Nantes.",
        "- 林悦住在杭州。",
        "- 佐藤さんは京都在住です。",
    ],
)
def test_where_someone_lives_is_a_fact(line):
    assert one(line).kind == "fact"


@pytest.mark.parametrize(
    "line",
    [
        "- Hinweis: Die Vereins-API erlaubt 60 Anfragen pro Minute.",
        "- Remarque : l'API de la banque accepte 60 requêtes par minute.",
        "- Примечание: API принимает 60 запросов в минуту.",
        "- 注意：接口每分钟 60 次",
    ],
)
def test_a_rate_limit_is_a_fact_in_every_language(line):
    assert one(line).kind == "fact"


def test_a_rate_in_a_log_line_is_an_event():
    assert one("- Ran 60 requests per minute in the load test").kind == "event"


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        # a Latin name set off by spaces inside Chinese or Japanese text
        ("- 私の名前は Pip です。", "name", "Pip"),
        ("- 我叫 Pip。", "name", "Pip"),
        ("- ユーザーは Jonas です", "user / name", "Jonas"),
        # German "von X auf Y <participle>"
        ("- Wir sind von Postgres auf SQLite umgestiegen.", "database", "SQLite"),
        # a change word in a frame's subject is when, not what
        ("- 日历同步的 cron 现在改为每两小时一次", "日历同步的 cron", "每两小时一次"),
        (
            "- The sync cron now changed to every two hours",
            "sync cron",
            "every two hours",
        ),
    ],
)
def test_a_second_new_users_phrasings(text: str, key: str, value: str) -> None:
    # "私の名前は Pip です" was filed as `package manager: Pip`
    c = one(text)
    assert (c.durable, c.key, c.value) == (True, key, value)


@pytest.mark.parametrize(
    ("heading", "text", "key", "value"),
    [
        # a value never runs into the next sentence
        (
            None,
            "- データベースは SQLite のまま。Postgres には戻さない。",
            "データベース",
            "SQLite",
        ),
        (
            None,
            "- The database stays SQLite. We won't go back to Postgres.",
            "database",
            "SQLite",
        ),
        # "Key info" is a heading of facts, not a subject
        ("关键信息", "- 月费: 55 €", "月费", "55 €"),
        ("Key info", "- Monthly fee: 55 €", "Monthly fee", "55 €"),
        # a topic word that is a compound's first part is no value
        (
            "Key Learnings",
            "- Der Timeout beim Login kam vom Redis-Client, nicht vom Netzwerk.",
            None,
            None,
        ),
    ],
)
def test_values_end_at_a_sentence_and_compounds_are_no_topic(heading, text, key, value):
    c = one((f"## {heading}\n" if heading else "") + text + "\n")
    assert c.key == key and (value is None or c.value == value), c


@pytest.mark.parametrize(
    ("heading", "text", "key", "value"),
    [
        # a Japanese "we use" ending is no part of the value (a breaker's
        # "エディタ: Neovim を使う" was then replaced by a person's preference)
        (None, "- エディタは Neovim を使う", "エディタ", "Neovim"),
        (None, "- エディタは Neovim を使います。", "エディタ", "Neovim"),
        # a shell command names the program it runs and chooses nothing (a
        # breaker's "mysql -uroot ... app" superseded `database: postgres`)
        ("Decisions", "- mysql -uroot app", None, None),
        ("Decisions", "- psql -h db.internal app", None, None),
        # a change word before a contrast is no part of the value (a new user)
        (None, "- The staging host is box7 now, not box2.", "staging / host", "box7"),
    ],
)
def test_breakers_phrasings(heading, text, key, value):
    c = one((f"## {heading}\n" if heading else "") + text + "\n")
    assert c.key == key and (value is None or c.value == value), c
