"""Notes as agents write them: label bullets, headings as people write them,
and cue phrases in the seven built-in languages (see docs/design.md).

Uses the shipped rules.md (``default_config()``). The whole-file outcomes are
the golden cases ``tests/golden/prose-<language>/``.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from gardener.formats.dailynote import parse_note
from gardener.formats.rules import parse_rules
from gardener.planning.classify import classify, fold
from gardener.store.settings import default_config

RULES = default_config()


def classified(line: str, heading: str | None = None, config=RULES):
    text = (f"## {heading}\n" if heading else "") + line + "\n"
    (only,) = parse_note("memory/2026-01-05.md", date(2026, 1, 5), text).entries
    return classify(only, config)


@pytest.mark.parametrize(
    ("line", "heading", "key", "value"),
    [
        # explicit structure is a keyed fact, in each way agents write it
        ("- **Region**: eu-central-1", None, "Region", "eu-central-1"),
        ("- **Backup window:** 02:00 UTC", None, "Backup window", "02:00 UTC"),
        ("- Log level: warn", None, "Log level", "warn"),
        ("- **端口**：8443", None, "端口", "8443"),
        ("- Zeitzone: Europe/Berlin", "Einrichtung", "Zeitzone", "Europe/Berlin"),
        # the label is the key, not a topic word in the value
        ("- Stack: Python with FastAPI and Postgres", None, "Stack", None),
        # a generic label takes its subject from the heading
        ("- Context: books close on the 3rd", "Billing", "Billing / Context", None),
        ("- **Note**: reboots on Sunday", "Staging box", "Staging box / Note", None),
        ("- 备注：周末重启", "测试服务器", "测试服务器 / 备注", None),
        ("- Remarque : expire bientôt", "Certificat", "Certificat / Remarque", None),
    ],
)
def test_label_bullets_are_keyed_facts(line, heading, key, value):
    result = classified(line, heading)
    assert result.durable, result
    assert result.key == key
    if value is not None:
        assert result.value == value


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        # a generic label with no subject (or only a date above it) is no key
        ("- Note: the staging box reboots on Sunday", None),
        ("- Status: green", "2026-05-20"),
        ("- 次のステップ: 監視を見直す", None),
        ("- Заметка: проверить квоты", None),
        # a label that is a transient heading word says the kind itself
        ("- Status: waiting for finance", "Billing"),
        ("- Next steps: ask Ode", "Billing"),
        # not written like a key
        ("- had lunch: noodles", None),
        ("- Files committed: 3 new files", None),
        ("- Smith (2019): a long summary of a paper", None),
        # a transient heading or cue beats the form
        ("- **Reviewer**: Ode", "Session summary"),
        ("- **Reviewer**: Ode today", None),
    ],
)
def test_not_kept_for_form(line, heading):
    assert not classified(line, heading).durable


@pytest.mark.parametrize(
    ("heading", "kind"),
    [
        ("Decision: no deploys on Fridays", "decision"),
        ("Decided: tabs", "decision"),
        ("決定: Go を使う", "decision"),
        ("Entscheidung: nur Englisch", "decision"),
        ("Décisions", "decision"),
        ("Decisión: un solo repositorio", "decision"),
        ("Key Learnings", "fact"),
        ("Lessons learned", "fact"),
        ("Configuration", "fact"),
        ("Infrastructure", "fact"),
        ("People", "fact"),
        ("Rules", "preference"),
        ("Conventions", "preference"),
        ("About me", "identity"),
        ("Session summary", "event"),
        ("Journal", "event"),
        ("Next steps", "todo"),
        ("Today", "state"),
        ("学び", "fact"),
        ("Leçons apprises", "fact"),
        ("Настройки", "fact"),
        ("Журнал", "event"),
    ],
)
def test_headings_as_people_write_them(heading, kind):
    assert classified("- the build box is in Frankfurt", heading).kind == kind


@pytest.mark.parametrize(
    ("line", "kind", "durable"),
    [
        ("- 用户喜欢简短的回答", "preference", True),
        ("- 我们决定每周一发布", "decision", True),
        ("- 我叫小林", "identity", True),
        ("- 现在在看日志", "state", False),
        ("- ユーザーは短い返事が好き", "preference", True),
        ("- 今日はデプロイの準備", "state", False),
        ("- Der Nutzer bevorzugt kurze Antworten", "preference", True),
        ("- Wir haben entschieden, nachts zu testen", "decision", True),
        ("- Gerade den Fehler untersucht", "state", False),
        ("- L'utilisatrice préfère le tutoiement", "preference", True),
        ("- Aujourd'hui je corrige le formulaire", "state", False),
        ("- El usuario prefiere respuestas cortas", "preference", True),
        ("- Ahora mismo estoy migrando la base", "state", False),
        ("- Пользователь предпочитает короткие ответы", "preference", True),
        ("- Меня зовут Кира", "identity", True),
        ("- Сейчас разбираюсь с запросом", "state", False),
    ],
)
def test_cue_phrases_in_seven_languages(line, kind, durable):
    result = classified(line)
    assert (result.kind, result.durable) == (kind, durable)


def test_a_lone_cue_beats_the_heading():
    assert classified("- we use Caddy on every box", "Status").durable
    assert not classified("- the deploy is broken right now", "Facts").durable


def test_latin_cues_stay_whole_words():
    # "hoy" (es: today) inside a word is no cue; a CJK cue inside CJK text is
    assert classified("- Mira prefers ahoy as a greeting").durable
    assert classified("- 大家都喜欢这个").durable


def test_generic_labels_are_a_setting(tmp_path):
    config = parse_rules("---\ngeneric_labels: [owner]\n---\n", base=RULES)
    assert config.generic_labels == ("owner",)
    assert classified("- Owner: Sam", None).key == "Owner"
    assert not classified("- Owner: Sam", None, config).durable
    assert classified("- Owner: Sam", "Billing", config).key == "Billing / Owner"
    # the defaults know the built-in languages
    assert replace(RULES).generic_labels == RULES.generic_labels
    assert {fold(w) for w in ("Nächste Schritte", "Próximos pasos")} <= {
        fold(w) for w in RULES.generic_labels
    }


def test_fold_takes_accents_off_latin_letters_only():
    assert fold("Décisions Äußerst") == "decisions ausserst"
    assert fold("Решения") == "решения"
    assert fold("が") == "が"
