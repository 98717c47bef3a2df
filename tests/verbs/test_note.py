"""The note verb: one entry appended and committed, or refused with nothing written."""

from __future__ import annotations

import json
import os

import pytest

from gardener import RefusedError, Workspace
from tests.helpers import commits, git, new_workspace, write


def test_note_appends_and_commits_as_its_author(ws: Workspace):
    result = ws.note(
        "Mira prefers tabs",
        kind="preference",
        key="indentation",
        by="atlas",
        time="08:15",
    )
    assert result.path == "memory/2026-01-05.md"
    text = (ws.root / result.path).read_text()
    assert (
        text
        == "# 2026-01-05\n\n- 08:15 preference: **indentation**: Mira prefers tabs (by: atlas)\n"
    )
    assert (
        git(ws.root, "log", "-1", "--format=%an|%cn").strip() == "atlas|memory-gardener"
    )


def test_note_refuses_secrets_and_writes_nothing(ws: Workspace):
    before = commits(ws.root)
    with pytest.raises(RefusedError) as info:
        ws.note("the NAS password is Quartz-Heron-77-fake")
    assert "password" in str(info.value)
    assert not (ws.root / "memory" / "2026-01-05.md").exists()
    assert commits(ws.root) == before


def test_note_redacts_what_an_agent_wrote_directly_before_committing(ws: Workspace):
    ws.note("first line", time="09:00")
    with open(ws.root / "memory" / "2026-01-05.md", "a") as f:
        f.write("- the wifi password is Quartz-Heron-77-fake\n")
    ws.note("second line", time="09:05")
    assert "Quartz-Heron-77-fake" not in git(ws.root, "log", "-p", "--all")
    text = (ws.root / "memory" / "2026-01-05.md").read_text()
    assert "[REDACTED:password]" in text and text.endswith("second line\n")


def test_a_value_noted_after_its_label_is_redacted_with_its_message(ws: Workspace):
    # a breaker's two entries: the label alone, then the value alone (each
    # read as no secret); the value and the commit message naming it reached git
    ws.note("The password for prod:", time="09:00")
    done = ws.note("Tango-Foxtrot-991", time="09:01")
    assert done.line == "- 09:01 [REDACTED:password]"  # what it shows is what it wrote
    objects = git(ws.root, "cat-file", "--batch-all-objects", "--batch")
    assert "Tango-Foxtrot-991" not in objects
    assert "Tango-Foxtrot-991" not in git(ws.root, "log", "-p", "--all")
    ws.note("Next steps:", time="09:02")
    ws.note("deploy friday", time="09:03")  # what a label of no secret introduces stays
    assert (
        (ws.root / "memory" / "2026-01-05.md").read_text().endswith("deploy friday\n")
    )


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("wifi pass Heron77x", "Heron77x"),
        ("pass: Heron77x", "Heron77x"),
        ("ssh root@10.0.0.5 with password quokkafake", "quokkafake"),
        ("password: quokka heron lemur staple", "quokka heron lemur staple"),
        ("door PIN 4829", "4829"),
        ("mysql -u root -pQuokka-77-fake", "Quokka-77-fake"),
        ("sshpass -p quokkafake ssh deploy@host", "quokkafake"),
        ("login admin / Quokka-77-fake", "Quokka-77-fake"),
    ],
)
def test_a_weakly_labelled_secret_is_refused_and_redacted_alike(
    ws: Workspace, line: str, value: str
):
    """The phrasings that need a second clue (a credential word, "with",
    a command) are refused by note and redacted from a file written directly."""
    with pytest.raises(RefusedError):
        ws.note(line)
    ws.note("first line", time="09:00")
    with open(ws.root / "memory" / "2026-01-05.md", "a") as f:
        f.write(f"- {line}\n")
    ws.note("second line", time="09:05")
    history = git(ws.root, "log", "-p", "--all")
    text = (ws.root / "memory" / "2026-01-05.md").read_text()
    for part in value.split():  # a passphrase goes whole, not its first word only
        assert part not in history and part not in text


def test_note_does_not_repeat_a_kind_and_key_given_twice(ws: Workspace):
    """Regression: the README's entry syntax plus --kind/--key wrote both prefixes twice."""
    result = ws.note(
        "decision: **database**: Postgres",
        kind="decision",
        key="database",
        time="10:00",
    )
    assert result.line == "- 10:00 decision: **database**: Postgres"


@pytest.mark.parametrize("expires", ["2020-01-01", "2026-01-05"])
def test_an_expiry_that_has_passed_is_refused(ws: Workspace, expires: str):
    """Regression (new-user trial): --expires in the past was accepted, and the
    entry promoted as current with an expiry behind it."""
    from gardener.errors import UsageError

    with pytest.raises(UsageError, match="never be current"):
        ws.note("the banner is on", expires=expires)
    assert not (ws.root / "memory" / "2026-01-05.md").exists()
    ws.note("the banner is on", expires="2026-01-06")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"expires": "20260320"}, "not a date"),
        ({"day": "20260105"}, "not a date"),
        ({"day": "2026-01-04", "expires": "2026-01-05"}, "never be current"),
        ({"day": "2026-01-06"}, "later than now"),
        ({"time": "10:30"}, "later than now"),  # the clock says 09:00
    ],
)
def test_dates_a_note_could_not_read_back_are_refused(
    ws: Workspace, options: dict[str, str], message: str
):
    """Regression (breaker): --expires 20260320 was written, then dropped by
    promote; an entry could expire before its own day."""
    from gardener.errors import UsageError

    with pytest.raises(UsageError, match=message):
        ws.note("the banner is on", **options)  # type: ignore[arg-type]


def test_a_days_note_that_is_a_symlink_is_refused_not_silently_skipped(ws: Workspace):
    """Regression (breaker): the line went into the link's target, outside the
    notes, and nothing was committed ("commit": null)."""
    from gardener.errors import GardenerError

    (ws.root / "archive").mkdir()
    (ws.root / "archive" / "x.md").write_text("# 2026-01-05\n\n- linked\n")
    os.symlink("../archive/x.md", ws.root / "memory" / "2026-01-05.md")
    with pytest.raises(GardenerError, match="symlink"):
        ws.note("via link")
    assert "via link" not in (ws.root / "archive" / "x.md").read_text()


# --- where a note lands: never under a heading that gives it a kind ------------

DAY = "2026-01-05.md"


def _entries(ws: Workspace):
    from datetime import date

    from gardener.formats.dailynote import parse_note

    text = (ws.root / "memory" / DAY).read_text()
    return parse_note(f"memory/{DAY}", date(2026, 1, 5), text).entries


def _placed_by(ws: Workspace, value: str) -> str:
    """The rule that gives the note entry ``value`` its kind at promote."""
    from gardener.planning.classify import placed

    entry = next(e for e in _entries(ws) if e.value == value)
    return placed(entry, ws.config)[2]


def test_a_note_after_a_log_heading_gets_a_section_of_its_own(ws: Workspace):
    write(ws, DAY, "# 2026-01-05\n\n## Log\n- 08:10 deployed v2\n")
    ws.note("Mira prefers dark mode", time="08:30")
    ws.note("we use SQLite", time="08:40")
    assert (ws.root / "memory" / DAY).read_text() == (
        "# 2026-01-05\n\n## Log\n- 08:10 deployed v2\n"
        "\n## 08:30\n\n- 08:30 Mira prefers dark mode\n- 08:40 we use SQLite\n"
    )
    assert _placed_by(ws, "deployed v2") == "heading"
    assert _placed_by(ws, "Mira prefers dark mode") == "durable cue"
    assert _placed_by(ws, "we use SQLite") == "durable cue"
    assert git(ws.root, "status", "--porcelain") == ""


def test_the_section_closes_the_kind_heading_at_its_level(ws: Workspace):
    write(ws, DAY, "# Log\n\n## Details\n\n- ran the tests\n\n")
    ws.note("Mira prefers dark mode", time="08:30")
    text = (ws.root / "memory" / DAY).read_text()
    assert text.endswith(
        "- ran the tests\n\n# 08:30\n\n- 08:30 Mira prefers dark mode\n"
    )
    assert _entries(ws)[-1].headings == ("08:30",)


def test_a_heading_that_gives_no_kind_is_kept(ws: Workspace):
    write(ws, DAY, "# 2026-01-05\n\n## Project Heron\n- kickoff\n")
    ws.note("Mira prefers dark mode", time="08:30")
    text = (ws.root / "memory" / DAY).read_text()
    assert text.endswith("- kickoff\n- 08:30 Mira prefers dark mode\n")


@pytest.mark.parametrize(
    ("before", "closing"),
    [
        ("- ran it:\n\n```sh\npytest -q\n", "```"),
        ("- ran it:\n  ~~~~\n  pytest -q\n", "  ~~~~"),
        ("````md\n```\nnot the end\n", "````"),
    ],
)
def test_a_note_after_an_open_fence_closes_it_first(
    ws: Workspace, before: str, closing: str
):
    write(ws, DAY, f"# 2026-01-05\n\n{before}")
    ws.note("Mira prefers dark mode", time="08:30")
    text = (ws.root / "memory" / DAY).read_text()
    assert (
        text
        == f"# 2026-01-05\n\n{before}\n{closing}\n\n- 08:30 Mira prefers dark mode\n"
    )
    assert _entries(ws)[-1].value == "Mira prefers dark mode"
    assert ws.check() == []


def test_a_fence_under_a_kind_heading_is_closed_then_a_section_opened(ws: Workspace):
    write(ws, DAY, "# 2026-01-05\n\n## Todo\n```\nmake\n")
    ws.note("we use SQLite", time="08:30")
    text = (ws.root / "memory" / DAY).read_text()
    assert text.endswith("make\n\n```\n\n## 08:30\n\n- 08:30 we use SQLite\n")
    assert _placed_by(ws, "we use SQLite") == "durable cue"


def test_a_crlf_note_gets_its_section_in_crlf(ws: Workspace):
    write(ws, DAY, b"# 2026-01-05\r\n\r\n## Status\r\n- busy\r\n")
    ws.note("Mira prefers dark mode", time="08:30")
    data = (ws.root / "memory" / DAY).read_bytes()
    assert data.endswith(
        b"- busy\r\n\r\n## 08:30\r\n\r\n- 08:30 Mira prefers dark mode\r\n"
    )


def test_the_fast_note_reads_the_headings_of_rules_md(tmp_path, monkeypatch):
    """A plain ``gardener note`` (the cached settings, no Workspace) places a
    note by rules.md's own heading words."""
    from gardener.model.config import as_values
    from gardener.planning.headings import heading_words
    from gardener.verbs.note import NoteSettings, note_fresh

    ws = new_workspace(tmp_path, "2026-01-05T09:00")
    rules = (ws.root / "rules.md").read_text()
    (ws.root / "rules.md").write_text(
        rules.replace("  fact: [facts,", "  fact: [kiwis, facts,", 1)
    )
    write(ws, DAY, "# 2026-01-05\n\n## Kiwis\n- Heron\n")
    ws = Workspace(ws.root, now_override="2026-01-05T09:00")  # caches the settings
    assert "kiwis" in dict(NoteSettings.of(ws.config).headings)["fact"]
    # as the cache holds them: the settings and the heading words note reads
    held = {**as_values(ws.config), "note_headings": heading_words(ws.config)}
    cached = json.loads(json.dumps(held))
    assert NoteSettings.from_values(cached) == NoteSettings.of(ws.config)
    monkeypatch.setenv("GARDENER_NOW", "2026-01-05T09:00")
    assert note_fresh(str(ws.root), "we use SQLite", time="08:30") is not None
    text = (ws.root / "memory" / DAY).read_text()
    assert text.endswith("- Heron\n\n## 08:30\n\n- 08:30 we use SQLite\n")


def test_a_keyed_note_whose_value_opens_with_a_time_keeps_it_as_its_value(
    ws: Workspace,
):
    # a new user's "gardener note '10:15 Berlin time' --key standup" at 09:00
    # was refused: 10:15 was read as the entry's time, later than now
    result = ws.note("10:15 Berlin time", key="standup")  # the clock reads 09:00
    text = (ws.root / result.path).read_text()
    assert text.endswith("- 09:00 **standup**: 10:15 Berlin time\n")


def test_a_note_that_opens_with_its_time_is_written_at_that_time_once(ws: Workspace):
    # a new user's "gardener note '10:20 raised the timeout to 60s'" at 11:00
    # was written "- 11:00 10:20 raised ...", dated 11:00
    result = ws.note("08:20 raised the timeout to 60s")  # the clock reads 09:00
    text = (ws.root / result.path).read_text()
    assert text.endswith("- 08:20 raised the timeout to 60s\n")
    assert "09:00" not in text
