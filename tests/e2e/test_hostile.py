"""Hostile files, odd names and symlinks: read without changing a byte, never outside."""

from __future__ import annotations

import contextlib
import os
import subprocess
import unicodedata
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gardener import Workspace
from gardener.errors import GardenerError
from gardener.model.validtime import format_instant, parse_instant
from gardener.store.settings import load
from tests.helpers import new_workspace

NOW = "2026-03-01T12:00"

HOSTILE: dict[str, bytes] = {
    "2026-02-20-bom.md": "\ufeff# Day\n- fact: **bom key**: one\n".encode(),
    "2026-02-20-crlf.md": b"# Day\r\n\r\n- fact: **crlf key**: two\r\n",
    "2026-02-20-nofinal.md": b"- fact: **no newline key**: three",
    "2026-02-20-long.md": b"- " + b"a long line of words " * 50_000 + b"\n",
    "2026-02-20-latin1.md": b"- caf\xe9 au lait\n- fact: **latin key**: four\n",
    "2026-02-20-binary.md": bytes(range(256)) * 8,
    "2026-02-20-yaml.md": (
        b"---\ntime: 10:00\nflag: no\nid: 0123\ndate: 2026-01-01\nagent: atlas\n---\n"
        b"- fact: **yaml key**: five\n"
    ),
    "2026-02-20-rule.md": b"---\n- fact: **rule key**: six\n\n---\n- after the rule\n",
    "2026-02-20-empty.md": b"",
    "2026-02-20-front.md": b"---\nagent: atlas\n---\n",
    "2026-02-20-front-nofinal.md": b"---\nagent: atlas\n---",
}
UNPARSEABLE = {"2026-02-20-latin1.md": 1, "2026-02-20-binary.md": 2}  # first bad byte


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def blob(root: Path, rev_path: str) -> bytes:
    """A committed file's exact bytes."""
    return subprocess.run(
        ["git", "-C", str(root), "cat-file", "blob", rev_path],
        check=True,
        capture_output=True,
    ).stdout


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    workspace = new_workspace(tmp_path, NOW)
    return workspace


def test_hostile_notes_are_read_without_changing_a_byte(ws: Workspace):
    notes = ws.root / "memory"
    for name, data in HOSTILE.items():
        (notes / name).write_bytes(data)
    (notes / "blob.bin").write_bytes(os.urandom(4096))
    (notes / "state.json").write_bytes(b'{"not": "a note"}')
    other = {p: (notes / p).read_bytes() for p in ("blob.bin", "state.json")}
    assert ws.record().redacted == ()
    problems = [(p.kind, p.path, p.line) for p in ws.check()]
    promoted = ws.promote()
    ws.prune()
    ws.record()
    ws.check()
    for name, data in HOSTILE.items():
        assert (notes / name).read_bytes() == data, name
        assert blob(ws.root, f"HEAD:memory/{name}") == data, name
    assert {p: (notes / p).read_bytes() for p in other} == other
    assert "blob.bin" not in git(ws.root, "ls-files")  # not a note: left alone
    for name, line in UNPARSEABLE.items():
        assert ("parse", f"memory/{name}", line) in problems
    added = set(promoted.as_dict()["added"])  # type: ignore[arg-type]
    assert {"bom key", "crlf key", "no newline key", "yaml key", "rule key"} <= added
    assert "latin key" not in added  # skipped, reported, kept


def test_check_names_file_and_line_of_what_cannot_be_read(ws: Workspace, run_cli):
    (ws.root / "memory" / "2026-02-21.md").write_bytes(b"- ok\n- fine\n- caf\xe9\n")
    out = run_cli("-w", str(ws.root), "check", code=4, now=NOW)
    assert "memory/2026-02-21.md:3" in out.output and "UTF-8" in out.output


def test_prune_never_deletes_a_note_it_could_not_parse(ws: Workspace):
    old = ws.root / "memory" / "2026-01-10.md"
    old.write_bytes(b"- event: deployed\n- caf\xe9\n")
    readable = ws.root / "memory" / "2026-01-11.md"
    readable.write_bytes(b"- event: deployed again\n")
    ws.now_override = "2026-01-12T09:00"
    ws.promote()  # records both, promotes nothing durable
    ws.now_override = NOW
    result = ws.prune()
    assert result.plan.notes_removed == ("memory/2026-01-11.md",)
    assert old.read_bytes() == b"- event: deployed\n- caf\xe9\n"


def test_a_hostile_memory_md_keeps_its_bytes(ws: Workspace):
    head = "\ufeff# Memory\r\n\r\nmy own words, no final newline after the block\r\n"
    text = (
        head
        + "<!-- gardener:begin -->\r\n## Facts\r\n- **city**: Oslo\r\n<!-- gardener:end -->"
    )
    ws.memory_path.write_bytes(text.encode())
    ws.record()
    ws.promote()
    ws.prune()
    ws.check()
    assert ws.memory_path.read_bytes() == text.encode()
    ws.note("Bergen", kind="fact", key="town", time="10:00")
    ws.promote()
    after = ws.memory_path.read_bytes().decode()
    assert after.startswith(head) and "- **town**: Bergen {" in after
    assert "\r\n- **city**: Oslo\r\n" in after and "\n" not in after.replace("\r\n", "")


# -- names and symlinks ------------------------------------------------------------


@pytest.mark.parametrize("form", ["NFC", "NFD"])
def test_non_ascii_note_names_are_committed_under_their_bytes(ws: Workspace, form):
    name = unicodedata.normalize(form, "2026-02-20-café-東京.md")
    other = unicodedata.normalize("NFD" if form == "NFC" else "NFC", name)
    (ws.root / "memory" / name).write_text("- fact: **café**: open\n")
    ws.record()
    listed = subprocess.run(
        ["git", "-C", str(ws.root), "ls-tree", "-z", "--name-only", "HEAD", "memory/"],
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    assert f"memory/{name}".encode() in listed
    assert f"memory/{other}".encode() not in listed
    ws.promote()
    assert [h.value for h in ws.recall(key="café")] == ["open"]
    assert git(ws.root, "status", "--porcelain") == ""


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file()
    }


def test_a_notes_folder_linked_outside_is_refused(ws: Workspace, tmp_path: Path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "2026-02-20.md").write_text("- fact: **outside**: yes\n")
    git(ws.root, "rm", "-r", "-q", "--cached", "--ignore-unmatch", "memory")
    (ws.root / "memory").rmdir()
    (ws.root / "memory").symlink_to(outside)
    before = _snapshot(outside)
    for verb in (ws.promote, ws.prune, ws.record, ws.check):
        with pytest.raises(GardenerError, match="outside the workspace"):
            verb()
    with pytest.raises(GardenerError, match=r"memory is a symlink to .*elsewhere"):
        ws.note("x")
    assert _snapshot(outside) == before


def test_a_memory_file_linked_outside_is_refused(ws: Workspace, tmp_path: Path):
    outside = tmp_path / "THEIR_MEMORY.md"
    outside.write_text("# not ours\n")
    ws.memory_path.unlink()
    ws.memory_path.symlink_to(outside)
    for verb in (ws.promote, ws.prune, ws.record, ws.recall, lambda: ws.note("x")):
        with pytest.raises(GardenerError, match="MEMORY.md is a symlink to"):
            verb()
    assert outside.read_text() == "# not ours\n"


# -- fuzzing: any bytes, any rules ---------------------------------------------------


# 100 examples, each four verbs through git: the parser itself takes 300-500
# examples of any text (tests/formats/test_dailynote.py); here the bytes go
# through the verbs, and the shapes the parser trips on are examples
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
@example(b"\xff- fact: **k**: v\n")  # not UTF-8
@example("\ufeff- fact: **k**: v\r\n".encode())  # a BOM, a CRLF
@example(b"---\nagent: atlas\n---")  # front matter with no final newline
@example(b"- fact: **k**: v\x00\n")  # a NUL
def test_any_bytes_in_a_note_are_read_and_left_alone(ws: Workspace, data: bytes):
    path = ws.root / "memory" / "2026-02-20.md"
    path.write_bytes(data)
    try:
        ws.check()
        ws.recall("anything")
        ws.promote(dry_run=True)
        ws.prune(dry_run=True)
    except GardenerError:
        pass
    assert path.read_bytes() == data


_YAML_VALUES = st.sampled_from(
    ["10:00", "no", "0123", "2026-01-01", "[a, b]", "{a: 1}", "", "~", "-1", "1e400",
     "'x'", "0.5", "!!binary aGk=", "*anchor", "&a x", "|\n  block", "99999999999"]
)  # fmt: skip
_NAMES = st.sampled_from(
    ["timezone", "note_ttl_days", "max_loss", "memory_file", "notes_dir", "topics",
     "patterns", "never_store", "allow", "multi_valued", "memory_budget_chars", "x"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_NAMES, _YAML_VALUES), max_size=6) | st.text(max_size=200))
def test_any_rules_front_matter_loads_or_says_why(tmp_path_factory, front):
    root = tmp_path_factory.mktemp("rules")
    body = front if isinstance(front, str) else "".join(f"{k}: {v}\n" for k, v in front)
    (root / "rules.md").write_text(
        f"---\n{body}\n---\nbody\n", encoding="utf-8", errors="surrogatepass"
    )
    with contextlib.suppress(GardenerError):
        load(root)


@settings(max_examples=500)
@given(
    st.text(max_size=30)
    | st.from_regex(r"\d{4}-\d{2}-\d{2}(T\d{1,2}:\d{2}(:\d{2})?)?", fullmatch=True)
)
def test_a_valid_time_parses_or_is_a_value_error(text: str):
    try:
        moment = parse_instant(text)
    except ValueError:
        return
    assert parse_instant(format_instant(moment)) == moment.replace(second=0)


@settings(max_examples=300)
@given(st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(9000, 1, 1)))
def test_format_parse_round_trip(moment: datetime):
    moment = moment.replace(second=0, microsecond=0)
    assert parse_instant(format_instant(moment)) == moment


def test_a_note_named_before_the_year_1000_is_read(ws: Workspace):
    (ws.root / "memory" / "0500-01-01.md").write_text("- 10:00 fact: **x**: y\n")
    ws.promote()
    ws.note("z", kind="fact", key="x")
    ws.promote()
    assert [h.value for h in ws.recall(key="x")] == ["z"]
    assert [p.kind for p in ws.check()] == []


MISNAMED = (
    "2026-02-30.md",
    "20260310.md",
    "2026-3-10.md",
    "2026-03-10.markdown",
    "2026-03/2026-03-10.md",
)


def test_check_reports_note_files_promote_and_recall_skip(ws: Workspace, run_cli):
    for name in MISNAMED:
        path = ws.root / "memory" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text("- fact: **misnamed key**: lost\n", encoding="utf-8")
    # what is not a note attempt, or is one: not reported
    (ws.root / "memory" / "README.md").write_text("What this folder is.\n")
    (ws.root / "memory" / "2026-02-20-standup.md").write_text("- fact: **a**: b\n")
    (ws.root / "memory" / "archive").mkdir()
    (ws.root / "memory" / "archive" / "2025-01-01.md").write_text("- old\n")
    out = run_cli("-w", str(ws.root), "check", code=4, now=NOW).output
    for name in MISNAMED:
        line = next(x for x in out.splitlines() if x.startswith(f"memory/{name}:"))
        assert "YYYY-MM-DD.md" in line and "promote and recall skip it" in line
    assert "memory/2026-02-30.md: parse: is named 2026-02-30, which is not a day" in out
    assert "memory/2026-03/2026-03-10.md: parse: is in a sub-folder" in out
    assert "README" not in out and "standup" not in out and "archive" not in out
    assert f"{len(MISNAMED)} problem(s)" in out


def test_check_names_a_note_name_on_a_folder_or_a_link_out(ws: Workspace, run_cli):
    """(breaker) promote and recall skip them; check said no problems."""
    (ws.root / "memory" / "2026-01-01.md").mkdir()
    outside = ws.root.parent / "outside.md"
    outside.write_text("- decision: **database**: FromOutside\n", encoding="utf-8")
    os.symlink(outside, ws.root / "memory" / "2026-01-02.md")
    out = run_cli("-w", str(ws.root), "check", code=4)
    assert "memory/2026-01-01.md" in out.output and "is a folder" in out.output
    assert "memory/2026-01-02.md" in out.output and "link out of" in out.output


def test_check_names_an_index_lock_a_killed_git_left(tmp_path):
    """Regression (breaker): after a kill left .git/index.lock, every commit
    waited and failed, while ``check`` said "no problems"."""

    ws = new_workspace(tmp_path, "2026-03-01T10:00")
    assert not [p for p in ws.check() if p.kind == "git"]
    (ws.root / ".git" / "index.lock").write_bytes(b"")
    [problem] = [p for p in ws.check() if p.kind == "git"]
    assert problem.path == ".git/index.lock" and "rm .git/index.lock" in problem.message
