"""The ``gardener`` click group: its options, its one error handler, its commands.

Each command lives in its own module; ``COMMANDS`` names them as
``module:attribute`` strings, loaded only when run or listed (click's LazyGroup
recipe), so starting the CLI imports no command it does not run, and the
adapters (``gardener.watch``, ``gardener.mcp``) are named here without being imported.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from typing import Any

import click

from gardener.cli.common import JSON_META
from gardener.cli.output import fail, open_workspace, warn_if_not_set_up
from gardener.errors import GardenerError

COMMANDS = {
    "approve": "gardener.cli.held:approve",
    "check": "gardener.cli.check:check",
    "decide": "gardener.cli.decide:decide",
    "demo": "gardener.cli.demo:demo",
    "forget": "gardener.cli.forget:forget",
    "init": "gardener.cli.init:init",
    "mcp": "gardener.mcp.command:mcp",
    "merge-memory": "gardener.cli.merge:merge_memory",
    "merge-union": "gardener.cli.merge:merge_union",
    "merge-note": "gardener.cli.merge:merge_note",
    "note": "gardener.cli.note:note",
    "promote": "gardener.cli.promote:promote",
    "pre-push": "gardener.cli.sync:pre_push",
    "prune": "gardener.cli.prune:prune",
    "purge": "gardener.cli.purge:purge",
    "recall": "gardener.cli.recall:recall",
    "record": "gardener.cli.record:record",
    "reject": "gardener.cli.held:reject",
    "review": "gardener.cli.review:review",
    "show": "gardener.cli.show:show",
    "sync": "gardener.cli.sync:sync",
    "watch": "gardener.watch.command:watch",
    "why": "gardener.cli.why:why",
}

# commands that set a clone up, or that git runs: no "not set up" line
_SETS_UP = {"init", "demo", "merge-memory", "merge-union", "merge-note", "sync"}


class LazyGroup(click.Group):
    """A group whose commands are imported from ``COMMANDS`` when needed, and
    whose every command ends on a GardenerError or OSError the same way:
    ``gardener: message`` on stderr (and a JSON error with ``--json``), exit
    with the error's code (see gardener.errors)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, _, attribute = COMMANDS[cmd_name].partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert isinstance(command, click.Command), COMMANDS[cmd_name]
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (GardenerError, OSError) as exc:
            fail(exc, bool(ctx.meta.get(JSON_META)))


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--workspace",
    "-w",
    envvar="GARDENER_WORKSPACE",
    default=".",
    show_default=True,
    type=click.Path(file_okay=False),
    help="The workspace folder (env GARDENER_WORKSPACE).",
)
@click.version_option(package_name="memory-gardener")
@click.pass_context
def main(ctx: click.Context, workspace: str) -> None:
    """A plain-Markdown memory for AI agents that forgets on purpose.

    Set GARDENER_NOW (ISO 8601) to fix the clock for tests and replays.
    """
    # the commands' shared state: the folder, and how to open it as a Workspace
    # (``watch`` calls it too, without importing the CLI)
    ctx.ensure_object(dict)
    ctx.obj["workspace"] = workspace
    ctx.obj["open"] = functools.partial(open_workspace, Path(workspace))
    if ctx.invoked_subcommand not in _SETS_UP:
        warn_if_not_set_up(workspace)
