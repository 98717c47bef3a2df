"""``gardener record``: commit what was written without the gardener; ``--accept`` a held rewrite."""

from __future__ import annotations

import click

from gardener.cli.common import json_option, warn, workspace
from gardener.cli.output import emit


@click.command()
@click.option(
    "--accept",
    is_flag=True,
    help="Commit the held rewrite of MEMORY.md (one that removed more than max_loss).",
)
@json_option
@click.pass_context
def record(ctx: click.Context, accept: bool, as_json: bool) -> None:
    """Commit changes made outside the gardener, as their writer's.

    A deleted daily note is restored, and a rewrite of MEMORY.md that removes
    more than max_loss of its current entries is held in .gardener/held/
    instead of committed; --accept commits it.
    """
    result = workspace(ctx).record(accept=accept)
    warn(result.warnings)
    if as_json:
        emit(result.as_dict())
        return
    if result.commit:
        click.echo(
            f"recorded the changes made outside the gardener; commit {result.commit[:8]}"
        )
    else:
        click.echo("nothing to record")
