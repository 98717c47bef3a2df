"""The click-free fast path for ``note`` and ``recall`` agrees with the click CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gardener.cli.commands import main as click_main
from gardener.cli.fast import VERBS, Call, parse
from tests.helpers import new_workspace

NOW = "2026-01-05T09:00"


# -- parse: the subset it takes, and click's reading of the same line -------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["note", "hello"], Call(".", "note", {"text": "hello"})),
        (
            ["-w", "ws", "note", "--kind", "fact", "--key=db", "x"],
            Call("ws", "note", {"kind": "fact", "key": "db", "text": "x"}),
        ),
        (["--workspace=a b", "recall", "q"], Call("a b", "recall", {"query": "q"})),
        (
            ["recall", "--limit", "3", "--json", "--all", "db"],
            Call(
                ".",
                "recall",
                {"limit": 3, "as_json": True, "everything": True, "query": "db"},
            ),
        ),
        (  # a repeated option: the last one wins, as in click
            ["note", "--time", "09:00", "--time", "10:00", "x"],
            Call(".", "note", {"time": "10:00", "text": "x"}),
        ),
        (["note", "-"], Call(".", "note", {"text": "-"})),
    ],
)
def test_parse_takes_plain_invocations(argv, expected):
    assert parse(argv, {}) == expected


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--help"],
        ["note", "--help"],
        ["note"],
        ["note", "a", "b"],
        ["note", "--", "-x"],
        ["note", "--kind"],
        ["note", "--kind", "--json", "x"],
        ["note", "--bogus", "x"],
        ["note", "--json=yes", "x"],
        ["recall", "--key", "db"],
        ["recall", "--as-of", "2026-01-01", "db"],
        ["recall", "--limit", "0", "db"],
        ["recall", "--limit", "x", "db"],
        ["recall", ""],
        ["promote"],
        ["-w"],
        ["-x", "note", "a"],
        ["note", "-w", "ws", "a"],
        ["--version"],
    ],
)
def test_parse_leaves_everything_else_to_click(argv):
    assert parse(argv, {}) is None


def test_parse_reads_the_workspace_from_the_environment():
    assert parse(["recall", "q"], {"GARDENER_WORKSPACE": "/w"}) == Call(
        "/w", "recall", {"query": "q"}
    )
    assert (
        parse(["-w", "x", "recall", "q"], {"GARDENER_WORKSPACE": "/w"}).workspace == "x"
    )


def test_the_table_matches_clicks_options():
    """Every option the fast path takes is click's, under the same keyword."""
    for name, verb in VERBS.items():
        command = click_main.get_command(click.Context(click_main), name)
        assert command is not None
        params = {opt: p for p in command.params for opt in p.opts}
        for flag, keyword in verb.options.items():
            assert params[flag].name == keyword and not getattr(
                params[flag], "is_flag", False
            )
        for flag, keyword in verb.flags.items():
            assert params[flag].name == keyword and params[flag].is_flag
        (argument,) = [p for p in command.params if isinstance(p, click.Argument)]
        assert argument.name == verb.argument


TOKENS = st.sampled_from(
    [
        "note", "recall", "-w", "--workspace", "--workspace=w2", "ws", "--kind", "fact",
        "--key", "--key=db", "--by", "--json", "--all", "--limit", "2", "0", "--date",
        "2026-01-02", "--time", "09:30", "--", "-", "hello", "x y", "--help", "-h",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(TOKENS, max_size=8))
def test_what_parse_takes_click_reads_the_same_way(argv):
    call = parse(argv, {})
    if call is None:
        return
    ctx = click_main.make_context("gardener", list(argv), resilient_parsing=False)
    assert ctx.params["workspace"] == call.workspace
    with warnings.catch_warnings():  # protected_args: click 8.2 deprecates, 9 drops
        warnings.simplefilter("ignore", DeprecationWarning)
        rest = [*ctx.protected_args, *ctx.args]
    assert rest[0] == call.verb
    command = click_main.get_command(ctx, call.verb)
    assert command is not None
    sub = command.make_context(call.verb, rest[1:], parent=ctx)
    given_params = {k: v for k, v in sub.params.items() if v not in (None, False)}
    defaults = {"limit": 10} if call.verb == "recall" else {}
    assert given_params == {**defaults, **call.arguments}


# -- the same bytes and exit codes, end to end ---------------------------------------


def _gardener(python_code: str, root: Path, args: list[str]) -> tuple[int, str, str]:
    (got,) = _gardeners([(python_code, root)], args)
    return got


def _gardeners(
    runs: list[tuple[str, Path]], args: list[str]
) -> list[tuple[int, str, str]]:
    """``args`` run by each (python code, workspace root) at once, each in its
    own process: (exit code, stdout, stderr with the root as ``WS``) of each."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "GARDENER_NOW": NOW, "GARDENER_WORKSPACE": str(root)},
        )
        for code, root in runs
    ]
    out = []
    for proc, (_, root) in zip(procs, runs, strict=True):
        stdout, stderr = proc.communicate()
        out.append((proc.returncode, stdout, stderr.replace(str(root), "WS")))
    return out


FAST = (
    "import sys; sys.argv[0] = 'gardener'; from gardener.cli.fast import main; main()"
)
CLICK = "import sys; sys.argv[0] = 'gardener'; from gardener.cli.commands import main; main()"

CASES = [
    ["note", "Mira prefers tabs"],
    [
        "note",
        "--kind",
        "decision",
        "--key",
        "database",
        "--by",
        "atlas",
        "we use SQLite",
    ],
    ["note", "--json", "--source", "standup", "deploys happen on Tuesdays"],
    ["note", "--kind", "bogus", "x"],
    ["note", "--time", "25:00", "late"],
    ["note", "--date", "2026-02-30", "no such day"],
    ["note", "password: hunter2hunter2"],
    ["note", "--json", "password: hunter2hunter2"],
    ["note", "  "],
    ["recall", "database"],
    ["recall", "--json", "--limit", "1", "tabs"],
    ["recall", "--all", "SQLite"],
    ["recall", "nothing-matches-this"],
    # again, now from a warm index (the fast path's search_fresh answers)
    ["recall", "database"],
    ["recall", "--json", "--limit", "1", "tabs"],
    ["recall", "--all", "SQLite"],
    ["recall", "--json", "nothing-matches-this"],
    ["recall", "!!!"],
    ["note", "the database moved to a new host"],
    ["recall", "database"],
]


def test_fast_and_click_print_the_same(tmp_path: Path):
    fast_ws = new_workspace(tmp_path, NOW)  # a copy of an init at NOW
    slow_root = tmp_path / "click"
    shutil.copytree(fast_ws.root, slow_root, symlinks=True)
    for args in CASES:  # the two workspaces share nothing: both ways at once
        fast, slow = _gardeners([(FAST, fast_ws.root), (CLICK, slow_root)], args)
        assert fast == slow, args
    heads = [
        subprocess.run(
            ["git", "-C", str(r), "rev-parse", "HEAD"], capture_output=True, text=True
        ).stdout
        for r in (fast_ws.root, slow_root)
    ]
    assert heads[0] == heads[1]  # the same commits, byte for byte


def test_a_folder_that_is_not_a_workspace_fails_the_same_way(tmp_path: Path):
    (tmp_path / "plain").mkdir()
    (tmp_path / "afile").write_text("x")
    for root in (tmp_path / "plain", tmp_path / "afile", tmp_path / "missing"):
        for args in (["recall", "x"], ["note", "x"]):
            assert _gardener(FAST, root, args) == _gardener(CLICK, root, args)


def _both(tmp_path: Path, prepare, args: list[str], now: str = NOW):
    """Run ``args`` the fast way and the click way on two equal workspaces,
    each first changed by ``prepare(root)``; return both results and roots."""
    fast_ws = new_workspace(tmp_path, NOW)  # a copy of an init at NOW
    slow_root = tmp_path / "click"
    shutil.copytree(fast_ws.root, slow_root, symlinks=True)
    got = []
    for code, root in ((FAST, fast_ws.root), (CLICK, slow_root)):
        prepare(root)
        env = {**os.environ, "GARDENER_NOW": now, "GARDENER_WORKSPACE": str(root)}
        done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                              text=True, env=env, check=False)  # fmt: skip
        got.append((done.returncode, done.stdout, done.stderr.replace(str(root), "WS")))
    return got, (fast_ws.root, slow_root)


@pytest.mark.parametrize("args", [["note", "the cat is Miso"], ["recall", "cat"]])
def test_without_cached_settings_both_ways_agree(tmp_path: Path, args: list[str]):
    def no_cache(root: Path) -> None:
        (root / ".git" / "gardener" / "config.json").unlink(missing_ok=True)
        rules = root / "rules.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace(
            "note_ttl_days: 30", "note_ttl_days: 7"), encoding="utf-8")  # fmt: skip

    (fast, slow), roots = _both(tmp_path, no_cache, args)
    assert fast == slow and fast[0] == 0
    for root in roots:  # the settings were parsed and cached again
        assert (root / ".git" / "gardener" / "config.json").exists()


@pytest.mark.parametrize("now", ["not a time", "2026-01-05T09:00+05:30", "9999-01-01"])
def test_odd_clocks_both_ways_agree(tmp_path: Path, now: str):
    (fast, slow), _ = _both(tmp_path, lambda root: None, ["note", "x y"], now)
    assert fast == slow
