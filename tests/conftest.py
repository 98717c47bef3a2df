"""Shared fixtures: a machine with no git identity, a workspace, the CLI, test models."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner, Result

from gardener import Workspace
from gardener.cli.commands import main
from tests.helpers import new_workspace

if TYPE_CHECKING:
    from tests.judge.models import Plugin


@pytest.fixture(autouse=True)
def no_git_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine where git knows nobody: empty HOME, no global or system config."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("EMAIL", "")
    monkeypatch.delenv("GARDENER_NOW", raising=False)
    monkeypatch.delenv("GARDENER_WORKSPACE", raising=False)
    for name in ["AUTHOR", "COMMITTER"]:
        for part in ["NAME", "EMAIL", "DATE"]:
            monkeypatch.delenv(f"GIT_{name}_{part}", raising=False)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "now(when): the clock of the ws fixture, YYYY-MM-DDTHH:MM"
    )


@pytest.fixture
def ws(tmp_path: Path, request: pytest.FixtureRequest) -> Workspace:
    """A new workspace whose clock starts at 2026-01-05 09:00, or at the time a
    ``@pytest.mark.now("YYYY-MM-DDTHH:MM")`` on the test or module gives."""
    mark = request.node.get_closest_marker("now")
    now = mark.args[0] if mark else "2026-01-05T09:00"
    return new_workspace(tmp_path, now)


@pytest.fixture
def run_cli(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """Run ``gardener ARGS`` in-process; fail with its output unless the exit code is ``code``."""

    def run(*args: str, code: int = 0, now: str | None = None) -> Result:
        if now:
            monkeypatch.setenv("GARDENER_NOW", now)
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == code, f"exit {result.exit_code}\n{result.output}"
        return result

    return run


@pytest.fixture
def llm_judges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Plugin]:
    """The deterministic test models of tests/judge/models.py, registered with the
    ``llm`` library (skipped without it), its user folder in ``tmp_path``."""
    pytest.importorskip("llm")
    from tests.judge.models import registered

    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm"))
    monkeypatch.delenv("GARDENER_TEST_KEY", raising=False)
    with registered() as plugin:
        yield plugin
