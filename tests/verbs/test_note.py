"""The note verb: one entry appended and committed, or refused with nothing written."""

from __future__ import annotations

import os

import pytest

from gardener import RefusedError, Workspace
from tests.helpers import commits, git


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
