"""``gardener prune``: drop old superseded and expired entries; delete old daily notes."""

from __future__ import annotations

import click

from gardener.cli.common import (
    commit_tail,
    dry_run_option,
    echo,
    json_option,
    warn,
    workspace,
)
from gardener.cli.output import emit


@click.command()
@dry_run_option("Print what would change; write nothing.")
@click.option(
    "--force",
    is_flag=True,
    help="Allow removing more current entries than max_loss, deleting every"
    " note due, and notes whose undecided entries' review grace is over.",
)
@json_option
@click.pass_context
def prune(ctx: click.Context, dry_run: bool, force: bool, as_json: bool) -> None:
    """Drop old superseded entries and expired ones; delete daily notes past their TTL."""
    result = workspace(ctx).prune(dry_run=dry_run, force=force)
    data = result.as_dict()
    warn(result.warnings)
    if as_json:
        emit(data)
        return
    echo(result.plan.lines())
    echo(f"- keep {k.path}: {k.reason}" for k in result.plan.notes_kept)
    click.echo(result.plan.summary(dry_run) + commit_tail(dry_run, result.commit))
