"""``gardener init``: create a workspace, or adopt the memory files already there."""

from __future__ import annotations

from pathlib import Path

import click

from gardener.cli.common import echo, json_option
from gardener.cli.output import emit
from gardener.workspace import Workspace


@click.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@json_option
@click.pass_context
def init(ctx: click.Context, directory: str | None, as_json: bool) -> None:
    """Create a workspace in DIRECTORY, or adopt the memory files already there."""
    _, result = Workspace.init(Path(directory or ctx.obj["workspace"]))
    if as_json:
        emit(result.as_dict())
        return
    verb = "adopted" if result.adopted else "created"
    commit = f" (commit {result.commit[:8]})" if result.commit else ""
    click.echo(f"{verb} workspace {result.root}{commit}")
    echo(r.notice() for r in result.redacted)
