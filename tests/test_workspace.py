"""The verbs end to end: real files, real git repositories in tmp_path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gardener import RefusedError, Workspace
from gardener.formats.memoryfile import parse_memory


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def commits(root: Path) -> int:
    return int(git(root, "rev-list", "--count", "HEAD"))


def at(ws: Workspace, when: str) -> Workspace:
    ws.now_override = when
    return ws


def test_init_creates_a_workspace(ws: Workspace):
    for name in (
        "MEMORY.md",
        "rules.md",
        ".gitattributes",
        "memory",
        ".gardener/.gitignore",
    ):
        assert (ws.root / name).exists(), name
    assert "memory/*.md merge=union" in (ws.root / ".gitattributes").read_text()
    assert commits(ws.root) == 1
    assert git(ws.root, "status", "--porcelain") == ""


def test_init_adopts_in_place_and_redacts_secrets(tmp_path: Path):
    root = tmp_path / "agent"
    (root / "memory" / "archive").mkdir(parents=True)
    memory = "\ufeff# What I know\r\n\r\n- the user likes tea\r\n- wifi password: Sunflower-88-fake\r\n"
    (root / "MEMORY.md").write_bytes(memory.encode())
    note = (
        "- 10:00 decided: we use SQLite\n- long line " + "x" * 5000
    )  # no final newline
    (root / "memory" / "2026-01-05.md").write_text(note)
    (root / "memory" / "state.json").write_text("{}")
    (root / "memory" / "archive" / "2025-01-01.md").write_text("- old\n")
    _, result = Workspace.init(root, now_override="2026-01-06T09:00")
    assert result.adopted
    assert (root / "memory" / "2026-01-05.md").read_text() == note
    after = (root / "MEMORY.md").read_bytes().decode()
    assert after == memory.replace("Sunflower-88-fake", "[REDACTED:password]")
    assert [r.rule for r in result.redacted] == ["password"]
    assert "Sunflower-88-fake" not in git(root, "log", "-p", "--all")
    assert "Sunflower-88-fake" in (root / ".gardener" / "quarantine.jsonl").read_text()
    assert (
        oct((root / ".gardener" / "quarantine.jsonl").stat().st_mode & 0o777) == "0o600"
    )
    tracked = git(root, "ls-files").split()
    assert (
        "memory/state.json" not in tracked
        and "memory/archive/2025-01-01.md" not in tracked
    )


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


def test_promote_commits_once_and_twice_changes_nothing(ws: Workspace):
    ws.note("use Postgres", kind="decision", key="database", time="09:00", by="atlas")
    first = at(ws, "2026-01-05T18:00").promote()
    assert first.commit and first.as_dict()["added"] == ["database"]
    message = git(ws.root, "log", "-1", "--format=%B")
    assert (
        "Gardener-Action: promote" in message and "Gardener-Keys: database" in message
    )
    count = commits(ws.root)
    second = ws.promote()
    assert second.commit is None and second.plan.decisions == ()
    assert commits(ws.root) == count


def test_monday_postgres_friday_sqlite(ws: Workspace):
    at(ws, "2026-01-12T09:00").note(
        "use Postgres", kind="decision", key="database", day="2026-01-12", time="09:00"
    )
    at(ws, "2026-01-12T18:00").promote()
    at(ws, "2026-01-16T16:00").note(
        "switch to SQLite",
        kind="decision",
        key="database",
        day="2026-01-16",
        time="16:00",
    )
    at(ws, "2026-01-16T18:00").promote()
    assert [h.value for h in ws.recall(key="database")] == ["switch to SQLite"]
    assert [h.value for h in ws.recall(key="Database", as_of_time="2026-01-14")] == [
        "use Postgres"
    ]
    history = ws.why("database")
    assert [(r.hit.value, r.hit.status) for r in history] == [
        ("use Postgres", "superseded"),
        ("switch to SQLite", "current"),
    ]
    assert all(r.commit for r in history)
    assert history[0].commit != history[1].commit


def test_tier2_renewal_price_today_as_of_february_then_pruned(ws: Workspace):
    at(ws, "2026-01-12T12:00").note(
        "$4,200",
        key="Tier 2 renewal / list price",
        kind="fact",
        source="pricing-sheet",
        by="pricing-team",
        day="2026-01-12",
        time="",
    )
    at(ws, "2026-01-12T12:00").promote()
    at(ws, "2026-03-03T12:00").note(
        "$3,600",
        key="Tier 2 renewal / list price",
        kind="fact",
        source="pricing-sheet",
        by="pricing-team",
        day="2026-03-03",
        time="",
    )
    at(ws, "2026-03-03T12:00").promote()
    assert [h.value for h in ws.recall(key="tier 2 renewal / list price")] == ["$3,600"]
    feb = ws.recall(key="Tier 2 renewal / list price", as_of_time="2026-02-09")
    assert [(h.value, h.since, h.until) for h in feb] == [
        ("$4,200", "2026-01-12", "2026-03-03")
    ]
    assert [h.value for h in ws.recall("Tier 2 renewal price")][:1] == ["$3,600"]
    # the retention (90 days) counts from `until`: kept on 2026-05-31, gone on 2026-06-02
    assert at(ws, "2026-05-31T12:00").prune().as_dict()["superseded_removed"] == 0
    pruned = at(ws, "2026-06-02T12:00").prune()
    assert pruned.as_dict()["superseded_removed"] == 1
    assert ws.recall(key="Tier 2 renewal / list price", as_of_time="2026-02-09") == []
    assert "$4,200" in git(ws.root, "log", "-p", "MEMORY.md")  # still in git history
    # and `why` still tells the whole story, from the prune commit's diff
    story = [
        (r.hit.value, r.hit.status, r.hit.until)
        for r in ws.why("tier 2 renewal / list price")
    ]
    assert story == [("$4,200", "pruned", "2026-03-03"), ("$3,600", "current", None)]
    first = ws.why("Tier 2 renewal / list price")[0]
    assert first.removed_in == pruned.commit and first.commit is not None


def test_day_40_lesson_ttl_refusals_and_ranking(tmp_path: Path):
    ws, _ = Workspace.init(tmp_path / "ws", now_override="2026-01-01T08:00")
    day = lambda n: f"2026-01-{n + 1:02d}" if n < 31 else f"2026-02-{n - 30:02d}"  # noqa: E731
    stored = 0
    for text, n in [
        ("deploy to staging on friday", 5),
        ("staging server is called box7", 20),
        ("deploy needs two approvals", 33),
        ("my password is hunter2", 38),
        ("email me at someone@example.org", 38),
        ("deploy staging fix is merged", 39),
    ]:
        try:
            at(ws, f"{day(n)}T12:00").note(text, day=day(n), time="12:00")
            stored += 1
        except RefusedError:
            pass
    assert stored == 4
    hits = at(ws, day(40) + "T12:00").recall("deploy staging")
    assert [h.text.split(" ", 1)[1] for h in hits] == [
        "deploy staging fix is merged",
        "deploy needs two approvals",
        "staging server is called box7",
    ]
    assert len({h.path for h in hits}) == 3  # the day-5 note is past its TTL


def test_hand_edit_is_committed_first_and_kept(ws: Workspace):
    ws.note("we use SQLite", kind="decision", key="database", time="09:00")
    ws.note("prefers dark mode", kind="preference", key="theme", time="09:01")
    at(ws, "2026-01-05T18:00").promote()
    memory = ws.root / "MEMORY.md"
    lines = [
        line
        for line in memory.read_text().splitlines(keepends=True)
        if "**theme**" not in line
    ]
    memory.write_text(
        "".join(lines).replace("we use SQLite", "we use SQLite (WAL mode)")
    )
    ws.note("tabs", kind="preference", key="indentation", time="19:00")
    at(ws, "2026-01-05T20:00").promote()
    log = git(ws.root, "log", "--format=%s", "-3").splitlines()
    assert log[0].startswith("promote:") and log[1].startswith("record:")
    text = memory.read_text()
    assert "we use SQLite (WAL mode)" in text
    assert "**theme**" not in text  # a fact deleted by hand is not brought back
    assert "**indentation**" in text


def test_prune_keeps_notes_until_promoted_and_checks_the_name(ws: Workspace):
    ws.note("we decided on SQLite", day="2026-01-05", time="09:00")
    (ws.root / "memory" / "2024-01-01.md").write_text("- decided: misnamed note\n")
    at(ws, "2026-01-05T10:00")
    kept = at(ws, "2026-03-01T09:00").prune(dry_run=True).as_dict()
    reasons = {k["path"]: k["reason"] for k in kept["kept_notes"]}
    assert "not promoted" in reasons["memory/2026-01-05.md"]
    ws.promote()
    result = ws.prune().as_dict()
    assert result["removed_notes"] == ["memory/2026-01-05.md"]
    assert any("first committed" in k["reason"] for k in result["kept_notes"])
    assert (ws.root / "memory" / "2024-01-01.md").exists()
    assert not (ws.root / "memory" / "2026-01-05.md").exists()
    assert "we decided on SQLite" in git(ws.root, "log", "-p", "--all")


def test_expired_entries_leave_current_memory(ws: Workspace):
    for n in range(4):
        ws.note(
            f"value {n}",
            kind="fact",
            key=f"k{n}",
            expires="2026-01-10",
            time=f"09:0{n}",
        )
    ws.note("stays", kind="fact", key="other", time="09:30")
    at(ws, "2026-01-05T18:00").promote()
    assert len(at(ws, "2026-01-09T23:59").recall(key="k1")) == 1
    assert (
        at(ws, "2026-01-10T00:00").recall(key="k1") == []
    )  # expires is exclusive, like until
    result = ws.prune().as_dict()
    assert result["expired_removed"] == 4
    facts = parse_memory((ws.root / "MEMORY.md").read_text()).facts
    assert (
        sorted(f.get("reason") or "" for f in facts if f.superseded) == ["expired"] * 4
    )
    assert [h.value for h in ws.recall(key="k1", as_of_time="2026-01-09")] == [
        "value 1"
    ]


def test_check_reports_conflicts_secrets_and_budget(ws: Workspace):
    ws.note("SQLite", kind="decision", key="database", time="09:00")
    at(ws, "2026-01-05T18:00").promote()
    memory = ws.root / "MEMORY.md"
    memory.write_text(
        memory.read_text().replace(
            "## Decisions\n", "## Decisions\n- **Database**: Postgres\n"
        )
    )
    (ws.root / "memory" / "2026-01-06.md").write_text(
        "# x\n\n- token: ghp_" + "a1B2c3D4e5" * 4 + "\n"
    )
    (ws.root / "memory" / "2026-01-07.md").write_bytes(b"- bad \xff byte\n")
    problems = ws.check()
    kinds = {(p.kind, p.path, p.line) for p in problems}
    assert ("conflict", "MEMORY.md", 5) in kinds
    assert ("secret", "memory/2026-01-06.md", 3) in kinds
    assert any(
        p.kind == "parse" and p.path == "memory/2026-01-07.md" and p.line == 1
        for p in problems
    )


def test_cli_subprocess_json(tmp_path: Path):
    env = {**os.environ, "GARDENER_NOW": "2026-01-05T09:00"}
    root = tmp_path / "ws"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "gardener", "-w", str(root), *args]
        return subprocess.run(command, env=env, capture_output=True, text=True)

    assert run("init").returncode == 0
    out = run("note", "--json", "--kind", "decision", "--key", "database", "SQLite")
    assert out.returncode == 0, out.stderr
    assert '"path": "memory/2026-01-05.md"' in out.stdout
    refused = run("note", "password: hunter2-fake-99")
    assert (
        refused.returncode == 3
        and "refused" in refused.stderr
        and "Traceback" not in refused.stderr
    )
    assert run("promote").returncode == 0
    recall = run("recall", "--json", "database")
    assert '"status": "current"' in recall.stdout
    missing = subprocess.run(
        [sys.executable, "-m", "gardener", "-w", str(tmp_path / "nope"), "promote"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 1 and "gardener init" in missing.stderr


def test_secret_written_directly_is_redacted_and_never_promoted(ws: Workspace):
    """Regression: the redacted placeholder line was promoted into MEMORY.md."""
    note = ws.root / "memory" / "2026-01-05.md"
    key = "sk-" + "FAKEfake" * 5
    note.write_text(
        f"- decision: the api key is {key}\n- fact: contact: jonas.berg@example.net\n- decision: we use SQLite\n"
    )
    dry = ws.promote(dry_run=True)
    assert [d.action for d in dry.plan.decisions].count("refused") == 2
    result = ws.promote()
    text = (ws.root / "MEMORY.md").read_text()
    assert "REDACTED" not in text and "SQLite" in text
    assert [d.reason for d in result.plan.decisions if d.action == "refused"] == [
        "holds a redacted secret"
    ] * 2
    assert key not in git(ws.root, "log", "-p", "--all")
    assert "[REDACTED:" in note.read_text()
    assert ws.promote().plan.decisions == ()  # reported once


def test_why_finds_the_commit_of_a_hand_written_entry(ws: Workspace):
    memory = ws.root / "MEMORY.md"
    memory.write_text(
        memory.read_text().replace(
            "<!-- gardener:end -->",
            "## Facts\n- **office**: Lisbon\n<!-- gardener:end -->",
        )
    )
    ws.note("we use SQLite", kind="decision", key="database", time="10:00")
    at(ws, "2026-01-05T11:00").promote()
    [record] = ws.why("office")
    assert record.commit and record.hit.value == "Lisbon"
    assert git(ws.root, "log", "-1", "--format=%s", record.commit).startswith("record:")


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


def test_commits_check_gits_housekeeping_every_few_hours(
    ws: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    stamp = ws.root / ".git" / "gardener" / "maintained"
    stamp.unlink(missing_ok=True)
    runs = []
    for text in ("one", "two", "three"):
        if text == "three":  # hours later
            os.utime(stamp, (stamp.stat().st_atime, stamp.stat().st_mtime - 7 * 3600))
        trace.write_text("")
        ws.note(text)
        runs.append("maintenance run --auto" in trace.read_text())
    assert runs == [True, False, True]
    # promote keeps the same clock: its commits come minutes after a note's
    trace.write_text("")
    assert ws.promote().commit
    assert "maintenance run --auto" not in trace.read_text()
    os.utime(stamp, (stamp.stat().st_atime, stamp.stat().st_mtime - 7 * 3600))
    ws.note("four")
    trace.write_text("")
    ws.promote()  # the note ran it: not due again
    assert "maintenance run --auto" not in trace.read_text()
    os.utime(stamp, (stamp.stat().st_atime, stamp.stat().st_mtime - 7 * 3600))
    ws.note("five")
    os.utime(stamp, (stamp.stat().st_atime, stamp.stat().st_mtime - 7 * 3600))
    trace.write_text("")
    assert ws.promote().commit  # hours after the last check: promote's commit runs it
    assert "maintenance run --auto" in trace.read_text()


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


def test_why_counts_as_pruned_only_what_prune_deleted(tmp_path: Path):
    """A prune also rewrites lines (it drops a link to what it deletes): read
    from its diff, such a line looked deleted too, and a value later deleted
    by hand showed as pruned by that commit."""
    ws, _ = Workspace.init(tmp_path / "ws", now_override="2026-01-01T09:00")
    for day, value in (("2026-01-01", "Postgres"), ("2026-02-01", "MySQL"),
                       ("2026-03-01", "SQLite")):  # fmt: skip
        at(ws, f"{day}T10:00").note(f"decision: **database**: {value}")
        at(ws, f"{day}T10:00").promote()
    at(ws, "2026-05-15T12:00").prune()  # Postgres goes; MySQL's line is rewritten
    story = [
        (r.hit.value, r.hit.status) for r in at(ws, "2026-05-15T12:00").why("database")
    ]
    assert story == [
        ("Postgres", "pruned"),
        ("MySQL", "superseded"),
        ("SQLite", "current"),
    ]
    memory = ws.root / "MEMORY.md"
    memory.write_text(
        "".join(line for line in memory.read_text(encoding="utf-8").splitlines(True)
                if "MySQL" not in line),
        encoding="utf-8",
    )  # fmt: skip
    at(ws, "2026-05-16T12:00").promote()  # records the hand edit
    story = [
        (r.hit.value, r.hit.status) for r in at(ws, "2026-05-16T12:00").why("database")
    ]
    assert story == [("Postgres", "pruned"), ("SQLite", "current")]


def test_why_keeps_a_corrected_value_apart_from_one_that_held(tmp_path: Path):
    ws, _ = Workspace.init(tmp_path / "ws", now_override="2026-01-01T09:00")
    at(ws, "2026-01-01T10:00").note("decision: **database**: Postgres")
    at(ws, "2026-01-01T10:00").promote()
    at(ws, "2026-01-05T10:00").note("correction: **database**: MySQL")
    at(ws, "2026-01-05T10:00").promote()
    before = [
        (r.hit.value, r.hit.status) for r in at(ws, "2026-01-05T10:00").why("database")
    ]
    assert ("Postgres", "corrected") in before
    assert at(ws, "2026-06-01T10:00").prune().plan.superseded_removed
    after = {r.hit.value: r for r in at(ws, "2026-06-01T10:00").why("database")}
    assert after["Postgres"].hit.status == "corrected, pruned"
    assert after["Postgres"].removed_in is not None
    assert after["MySQL"].hit.status == "current"
