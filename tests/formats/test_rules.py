"""rules.md front matter: settings as strings, errors that name file and line,
defaults for whatever is missing (see docs/design.md)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from gardener.errors import ConfigError
from gardener.formats.rules import parse_rules, unknown_settings
from gardener.model.config import Config
from gardener.store.settings import default_config, load, packaged


def rules(*lines: str) -> str:
    """rules.md text whose front matter holds ``lines`` (the first on line 2)."""
    return "---\n" + "\n".join(lines) + "\n---\n\n# Notes for the agent\n"


def error(text: str, path: str = "rules.md") -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_rules(text, path)
    return caught.value


# --- numbers arrive as strings ------------------------------------------------


@pytest.mark.parametrize(
    ("line", "name", "value"),
    [
        ("note_ttl_days: 7", "note_ttl_days", 7),
        ("note_ttl_days: '7'", "note_ttl_days", 7),
        ('note_ttl_days: " 7 "', "note_ttl_days", 7),
        ("note_ttl_days: 1", "note_ttl_days", 1),
        ("review_grace_days: 0", "review_grace_days", 0),
        ("superseded_retention_days: 120", "superseded_retention_days", 120),
        ("memory_budget_chars: 8000", "memory_budget_chars", 8000),
        ("max_loss: 0.5", "max_loss", 0.5),
        ("max_loss: 1", "max_loss", 1.0),
        ("max_loss: 0", "max_loss", 0.0),
    ],
)
def test_numbers_are_converted(line, name, value):
    config = parse_rules(rules(line))
    assert getattr(config, name) == value
    assert type(getattr(config, name)) is type(value)


@pytest.mark.parametrize(
    ("lines", "name", "line"),
    [
        (["note_ttl_days: seven"], "note_ttl_days", 2),
        (["note_ttl_days: 7.5"], "note_ttl_days", 2),
        (["note_ttl_days: -1"], "note_ttl_days", 2),
        (["note_ttl_days: 0"], "note_ttl_days", 2),
        (["superseded_retention_days: 0"], "superseded_retention_days", 2),
        (["memory_file: .git/config"], "memory_file", 2),
        (["notes_dir: .git"], "notes_dir", 2),
        (["notes_dir: .git/refs/heads"], "notes_dir", 2),
        (["notes_dir: ./.GIT/x"], "notes_dir", 2),
        (["notes_dir: .gardener/notes"], "notes_dir", 2),
        (["memory_file: rules.md"], "memory_file", 2),
        (["notes_dir: ."], "notes_dir", 2),
        (["memory_file: C:/memory.md"], "memory_file", 2),
        (["note_ttl_days:"], "note_ttl_days", 2),
        (["note_ttl_days: [1, 2]"], "note_ttl_days", 2),
        (["note_ttl_days: 99999999"], "note_ttl_days", 2),
        (
            ["# a comment", "timezone: UTC", "memory_budget_chars: lots"],
            "memory_budget_chars",
            4,
        ),
        (
            ["timezone: UTC", "superseded_retention_days: 1e3"],
            "superseded_retention_days",
            3,
        ),
        (["max_loss: most"], "max_loss", 2),
        # a share of current entries: nan, inf and out-of-range values are refused
        (["max_loss: nan"], "max_loss", 2),
        (["max_loss: inf"], "max_loss", 2),
        (["max_loss: 5"], "max_loss", 2),
        (["max_loss: -0.1"], "max_loss", 2),
    ],
)
def test_a_bad_number_names_the_file_and_line(lines, name, line):
    err = error(rules(*lines))
    assert (err.path, err.line) == ("rules.md", line)
    assert str(err).startswith(f"rules.md:{line}: ")
    assert repr(name) in str(err)


def test_the_error_names_the_path_it_was_given():
    err = error(rules("note_ttl_days: x"), "workspace/rules.md")
    assert str(err).startswith("workspace/rules.md:2: ")


# --- timezone ------------------------------------------------------------------


@pytest.mark.parametrize(
    "zone", ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"]
)
def test_known_timezones(zone):
    config = parse_rules(rules(f"timezone: {zone}"))
    assert config.timezone == zone
    assert config.zone.key == zone


@pytest.mark.parametrize(
    ("lines", "line"),
    [
        (["timezone: Mars/Olympus_Mons"], 2),
        (["note_ttl_days: 3", "timezone: CEST+2"], 3),
        (["timezone: ../../etc/passwd"], 2),
        (["timezone: '/etc/localtime'"], 2),
    ],
)
def test_an_unknown_timezone_is_a_config_error_with_its_line(lines, line):
    err = error(rules(*lines))
    assert err.line == line
    assert "timezone" in err.message


def test_an_empty_timezone_is_a_config_error():
    assert error(rules("timezone: ''")).line == 2


# --- regexes, shapes ---------------------------------------------------------


def test_never_store_regexes_are_compiled():
    config = parse_rules(rules("never_store:", "  employee id: '\\bEMP-\\d{6}\\b'"))
    assert config.never_store == (("employee id", r"\bEMP-\d{6}\b"),)


@pytest.mark.parametrize(
    ("lines", "line"),
    [
        (["never_store:", "  bad: '([a-'"], 2),
        (["timezone: UTC", "never_store:", "  ok: 'x'", "  bad: '(unclosed'"], 3),
        (["allow: ['(']"], 2),
        (["never_store: [a, b]"], 2),
        (["never_store:", "  bad: '(a+)+$'"], 2),  # exponential backtracking
        (["allow: ['(\\w+\\s?)+$']"], 2),
    ],
)
def test_a_bad_never_store_or_allow_rule_is_a_config_error(lines, line):
    err = error(rules(*lines))
    assert (err.path, err.line) == ("rules.md", line)


@pytest.mark.parametrize(
    ("lines", "line"),
    [
        (["topics: [postgres, sqlite]"], 2),
        (["headings:", "  decision: {a: b}"], 2),
        (["patterns:", "  spouse: '{subject} is married to'"], 2),  # no {value}
        (["patterns:", "  x: '{who} is {value}'"], 2),
        (["memory_file: ''"], 2),
        (["notes_dir: ../elsewhere"], 2),
        (["notes_dir: '/tmp/notes'"], 2),
        (["notes_dir: ' ../elsewhere'"], 2),  # regression: spaces hid the ..
    ],
)
def test_a_setting_of_the_wrong_shape_is_a_config_error(lines, line):
    assert error(rules(*lines)).line == line


def test_front_matter_that_is_not_yaml_is_a_config_error():
    err = error("---\ntopics: [unclosed\n---\n")
    assert (err.path, err.line) == ("rules.md", 1)


# --- defaults ----------------------------------------------------------------


def test_missing_settings_fall_back_to_the_base():
    config = parse_rules(rules("note_ttl_days: 7"))
    assert config.note_ttl_days == 7
    defaults = Config()
    for f in fields(Config):
        if f.name != "note_ttl_days":
            assert getattr(config, f.name) == getattr(defaults, f.name), f.name


def test_missing_settings_fall_back_to_the_shipped_rules():
    shipped = default_config()
    config = parse_rules(rules("note_ttl_days: 7"), base=shipped)
    assert config.note_ttl_days == 7
    assert config.topics == shipped.topics
    assert config.patterns == shipped.patterns


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# Just notes\n\nNo front matter here.\n",
        "---\n---\n",
        "---\n# only comments\n---\n",
    ],
)
def test_rules_without_settings_give_the_defaults(text):
    assert parse_rules(text) == Config()


def test_empty_lists_and_mappings_clear_the_default():
    config = parse_rules(rules("durable_cues: []", "topics: {}"), base=default_config())
    assert config.durable_cues == ()
    assert config.topics == {}


def test_load_without_rules_md_gives_the_defaults(tmp_path):
    assert load(tmp_path) == default_config()


def test_load_reads_the_workspace_rules_over_the_defaults(tmp_path):
    (tmp_path / "rules.md").write_bytes(
        b"\xef\xbb\xbf---\r\nnote_ttl_days: 7\r\ntimezone: Europe/Berlin\r\n---\r\n"
    )
    config = load(tmp_path)
    assert (config.note_ttl_days, config.timezone) == (7, "Europe/Berlin")
    assert config.topics == default_config().topics


def test_load_reports_a_bad_workspace_setting_with_its_line(tmp_path):
    (tmp_path / "rules.md").write_text("---\n# comment\nnote_ttl_days: soon\n---\n")
    with pytest.raises(ConfigError) as caught:
        load(tmp_path)
    assert str(caught.value).startswith("rules.md:3: ")


def test_load_refuses_rules_that_are_not_utf8(tmp_path):
    (tmp_path / "rules.md").write_bytes(b"---\ntimezone: \xff\xfe\n---\n")
    with pytest.raises(ConfigError):
        load(tmp_path)


# --- the shipped rules.md ------------------------------------------------------


def test_the_shipped_rules_parse():
    source = Path(packaged("rules.md"))
    assert source.exists()
    assert (
        parse_rules(source.read_text(encoding="utf-8"), str(source)) == default_config()
    )


def test_the_shipped_rules_have_what_the_classifier_needs():
    config = default_config()
    assert config.timezone == "UTC"
    assert (config.note_ttl_days, config.superseded_retention_days) == (30, 90)
    assert config.durable_kinds == ("identity", "preference", "decision", "fact")
    assert "sqlite" in config.topics["database"]
    assert "{subject} is married to {value}" in config.patterns["spouse"]
    assert config.durable_cues and config.transient_cues and config.correction_cues
    assert set(config.kind_cues) <= set(config.durable_kinds)
    assert "decisions" in config.headings["decision"]
    assert "language" in config.multi_valued


# -- the parsed settings are cached in .git/gardener/config.json --------------------


def test_an_edited_rules_file_wins_over_the_cache(tmp_path):
    from tests.helpers import new_workspace

    ws = new_workspace(tmp_path, "2026-01-05T09:00")
    assert load(ws.root).note_ttl_days == 30
    assert (ws.root / ".git" / "gardener" / "config.json").exists()
    rules = ws.root / "rules.md"
    rules.write_text(rules.read_text().replace("note_ttl_days: 30", "note_ttl_days: 7"))
    assert load(ws.root).note_ttl_days == 7
    rules.unlink()
    assert load(ws.root).note_ttl_days == default_config().note_ttl_days


def test_a_damaged_cache_is_ignored_and_replaced(tmp_path):
    from tests.helpers import new_workspace

    ws = new_workspace(tmp_path, "2026-01-05T09:00")
    cache = ws.root / ".git" / "gardener" / "config.json"
    for junk in ("{not json", '{"key": 1}', "[]", '{"key": "x", "config": {}}'):
        cache.write_text(junk)
        assert (
            load(ws.root)
            == load(ws.root)
            == parse_rules(
                (ws.root / "rules.md").read_text(), "rules.md", default_config()
            )
        )


# --- a misspelled setting is reported, not an error ----------------------------


def test_unknown_settings_name_line_and_closest_known_name():
    text = rules(
        "timezone: UTC",
        "note_tll_days: 7",
        "kind_cues:",
        "  fact: [x]",
        "colour: blue",
    )
    assert parse_rules(text).note_ttl_days == 30  # parsed as before: ignored
    assert unknown_settings(text) == [
        ("note_tll_days", 3, "note_ttl_days"),
        ("colour", 6, None),
    ]
    assert unknown_settings(rules("note_ttl_days: 7")) == []
    assert unknown_settings("no front matter\n") == []
    assert (
        unknown_settings(Path(packaged("rules.md")).read_text(encoding="utf-8")) == []
    )


def test_check_reports_a_misspelled_setting_with_its_line(ws, run_cli):
    text = (ws.root / "rules.md").read_text(encoding="utf-8")
    line = text.splitlines().index(
        next(x for x in text.splitlines() if x.startswith("note_ttl_days:"))
    )
    (ws.root / "rules.md").write_text(
        text.replace("note_ttl_days: 30", "note_tll_days: 7", 1), encoding="utf-8"
    )
    run_cli("-w", str(ws.root), "note", "still writes a note")  # not an error
    out = run_cli("-w", str(ws.root), "check", code=4).output
    assert (
        f"rules.md:{line + 1}: setting: unknown setting 'note_tll_days'"
        " (did you mean 'note_ttl_days'?)" in out
    )


def test_a_backtracking_never_store_rule_is_named_with_what_to_change():
    err = error(rules("never_store:", "  runaway: '(a+)+$'"))
    assert "runaway" in str(err) and "exponential" in str(err) and err.line == 2
