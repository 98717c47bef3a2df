"""The CLI through click's CliRunner (once as a child process): JSON shapes, exit
codes, error lines, help and README."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from gardener import Workspace
from gardener.cli.commands import main
from tests.helpers import new_workspace

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")


@pytest.fixture
def root(tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "ws"
    monkeypatch.setenv("GARDENER_WORKSPACE", str(path))
    run_cli("init", now="2026-01-12T09:00")
    return path


def as_json(result) -> dict:
    return json.loads(result.stdout)


def test_note_promote_recall_why_json_shapes(root: Path, run_cli):
    out = as_json(
        run_cli(
            "note",
            "--json",
            "--kind",
            "decision",
            "--key",
            "database",
            "--time",
            "09:00",
            "Postgres",
            now="2026-01-12T09:00",
        )
    )
    assert out["path"] == "memory/2026-01-12.md" and out["commit"]
    run_cli(
        "note",
        "--kind",
        "decision",
        "--key",
        "database",
        "--date",
        "2026-01-16",
        "--time",
        "16:00",
        "SQLite",
        now="2026-01-16T16:00",
    )
    promoted = as_json(run_cli("promote", "--json", now="2026-01-16T18:00"))
    for field in ("added", "superseded", "updated", "rejected", "held", "commit"):
        assert field in promoted
    assert promoted["added"] == ["database"] and promoted["superseded"] == ["database"]
    results = as_json(run_cli("recall", "--json", "database"))["results"]
    assert results[0]["status"] == "current" and results[0]["value"] == "SQLite"
    for field in (
        "key",
        "value",
        "text",
        "kind",
        "since",
        "until",
        "status",
        "score",
        "path",
        "line",
    ):
        assert field in results[0]
    past = as_json(
        run_cli("recall", "--json", "--key", "database", "--as-of", "2026-01-13")
    )["results"]
    assert [r["value"] for r in past] == ["Postgres"]
    # it held then: labelled by what it was on that day, not by what it is now
    assert [r["status"] for r in past] == ["current"] and past[0]["until"]
    history = as_json(run_cli("why", "--json", "database"))["history"]
    assert [h["value"] for h in history] == ["Postgres", "SQLite"] and all(
        h["commit"] for h in history
    )
    pruned = as_json(run_cli("prune", "--json", "--dry-run"))
    assert set(pruned) >= {
        "superseded_removed",
        "expired_removed",
        "notes_removed",
        "commit",
    }


def test_exit_codes(root: Path, run_cli):
    refused = run_cli("note", "my password is hunter2", code=3)
    assert "refused" in refused.output and "password" in refused.output
    run_cli("note", "--time", "25:00", "x", code=2)
    run_cli("note", "--date", "2026-02-30", "x", code=2)
    run_cli("note", "--kind", "bogus", "x", code=2)
    run_cli("note", "   ", code=2)
    error = json.loads(
        run_cli("note", "--json", "my password is hunter2", code=3).stdout
    )
    assert error["exit_code"] == 3 and "password" in error["error"]
    run_cli("recall", code=2)  # no query, key or date: a usage error
    run_cli("recall", "--limit", "0", "x", code=2)
    run_cli("recall", "--as-of", "yesterday", "--key", "k", code=2)
    assert run_cli("check").output.strip() == "no problems"
    (root / "MEMORY.md").write_text("<!-- gardener:begin -->\n- never closed\n")
    bad = run_cli("check", "--json", code=4)
    problem = as_json(bad)["problems"][0]
    assert problem == {
        "kind": "parse",
        "path": "MEMORY.md",
        "line": 1,
        "message": problem["message"],
    }
    failed = run_cli("promote", code=1)
    assert (
        failed.output.startswith("gardener: MEMORY.md:1:")
        and "Traceback" not in failed.output
    )


def test_bad_rules_md_is_one_line_with_file_and_line(root: Path, run_cli):
    rules = root / "rules.md"
    rules.write_text(
        rules.read_text().replace("note_ttl_days: 30", "note_ttl_days: thirty")
    )
    failed = run_cli("promote", code=1)
    assert (
        failed.output.startswith("gardener: rules.md:")
        and "note_ttl_days" in failed.output
    )


def test_not_a_workspace(tmp_path: Path, run_cli):
    out = run_cli("-w", str(tmp_path), "promote", code=1)
    assert "gardener init" in out.output
    out = run_cli("-w", str(tmp_path / "nowhere"), "promote", code=1)
    assert "does not exist" in out.output


@pytest.mark.parametrize("verb", [["promote"], ["recall", "deploy"], ["note", "x"]])
def test_a_subfolder_of_a_workspace_names_the_workspace(
    root: Path, run_cli, verb: list[str]
):
    """``gardener init`` there would nest a second workspace in the first."""
    sub = root / "memory" / "drafts"
    sub.mkdir(parents=True)
    out = run_cli("-w", str(sub), *verb, code=1)
    assert f"but {root.resolve()} is" in out.output
    assert "gardener init" not in out.output
    assert not (sub / ".git").exists()


def test_every_command_has_help_and_is_in_the_readme(run_cli):
    ctx = click.Context(main)
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        assert command is not None and command.help, name
        run_cli(name, "--help")
        assert f"gardener {name}" in README, f"README does not show `gardener {name}`"


# --- one fact per entry: no document-sized note, no key without a value ---------


def _head(root: Path) -> str:
    import subprocess

    return subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


@pytest.mark.parametrize(
    "args",
    [
        ("fact: **empty key**: ",),
        ("**empty key:**",),
        ("--kind", "fact", "--key", "city", "fact: **city**:"),
        ("--kind", "todo", "todo:"),
    ],
)
def test_note_refuses_a_key_without_a_value(root: Path, run_cli, args):
    before = _head(root)
    out = run_cli("note", *args, code=2, now="2026-01-12T10:00").output
    assert "no value" in out and "nothing was written" in out
    assert not (root / "memory" / "2026-01-12.md").exists()
    assert _head(root) == before


def test_note_refuses_a_document_sized_note(root: Path, run_cli):
    from gardener.formats.entryline import MAX_ENTRY_CHARS

    before = _head(root)
    text = "fact: **spec**: " + "w" * 108_000  # 108 KB on one line
    out = run_cli("note", text, code=2, now="2026-01-12T10:00").output
    assert "108,000 characters" in out and f"{MAX_ENTRY_CHARS:,}" in out
    assert "split it into facts" in out and "keep the document in a file" in out
    assert not (root / "memory" / "2026-01-12.md").exists()
    assert _head(root) == before
    run_cli("note", "fact: **spec**: " + "w" * MAX_ENTRY_CHARS, now="2026-01-12T10:00")


def test_promote_refuses_a_hand_written_document_sized_entry(root: Path, run_cli):
    long = "x" * 5000
    (root / "memory" / "2026-01-12.md").write_text(
        f"- 09:00 fact: **spec**: {long}\n- 09:01 fact: **city**: Oslo\n",
        encoding="utf-8",
    )
    for _ in range(2):  # not filed, and not forgotten: reported again
        out = run_cli("promote", now="2026-01-12T10:00").output
        line = next(x for x in out.splitlines() if x.startswith("refused"))
        assert "memory/2026-01-12.md:1" in line and "5,000 characters" in line
    memory = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert "Oslo" in memory and long not in memory


def test_an_as_of_that_finds_nothing_points_at_why(root: Path, run_cli):
    """Rough edge (new-user trial): after prune, ``--as-of`` a date of a pruned
    value said "nothing found", with no word of where that value went."""
    run_cli(
        "-w", str(root), "note", "--kind", "decision", "--key", "database", "SQLite"
    )
    run_cli("-w", str(root), "promote")
    out = run_cli(
        "-w", str(root), "recall", "--key", "database", "--as-of", "2020-01-01"
    )
    assert "nothing found" in out.output and "gardener why database" in out.output
    out = run_cli("-w", str(root), "recall", "no-such-word")
    assert out.output.strip() == "nothing found"


@pytest.mark.now("2026-03-01T18:00")
@pytest.mark.parametrize(
    ("memory", "rules", "now", "message"),
    [
        (
            "<!-- gardener:begin -->\n- **db**: x {#m1 since=yesterday}\n<!-- gardener:end -->\n",
            None,
            None,
            "MEMORY.md:2: since='yesterday'",
        ),
        (
            None,
            '---\npatterns: {spouse: "{subject} married {subject} {value}"}\n---\n',
            None,
            "rules.md:2:",
        ),
        (None, "---\nnote_ttl_days: 99999999999\n---\n", None, "rules.md:2:"),
        (None, None, "0001-01-01", "GARDENER_NOW"),
    ],
)
def test_bad_input_is_one_line_naming_the_place(
    ws: Workspace, run_cli, memory, rules, now, message
):
    if memory:
        (ws.root / "MEMORY.md").write_text(memory)
    if rules:
        (ws.root / "rules.md").write_text(rules)
    out = run_cli("-w", str(ws.root), "promote", code=1, now=now or "2026-03-01T18:00")
    assert message in out.output and "Traceback" not in out.output


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


def test_a_reader_that_goes_away_gets_no_broken_pipe_message(tmp_path: Path) -> None:
    """`gardener review | head` printed "gardener: : Broken pipe"."""

    ws = new_workspace(tmp_path, "2026-03-01T18:00")
    lines = "".join(
        f"- the lamp number {n} flickers a little {'x' * 200}\n" for n in range(600)
    )
    (ws.root / "memory" / "2026-02-28.md").write_text(lines, encoding="utf-8")
    env = dict(os.environ, GARDENER_NOW="2026-03-01T18:00")
    run = [
        sys.executable,
        "-m",
        "gardener",
        "-w",
        str(ws.root),
        "recall",
        "--limit",
        "600",
        "lamp",
    ]
    child = subprocess.Popen(
        run, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.read(10)
    child.stdout.close()  # as `head -1` does
    err = child.stderr.read().decode()
    child.wait(timeout=60)
    assert "Broken pipe" not in err and "Traceback" not in err
