"""``gardener forget``: retire matching entries, so that recall stops using them."""

from __future__ import annotations

import click

from gardener.cli.common import (
    commit_tail,
    dry_run_option,
    echo,
    force_option,
    json_option,
    warn,
    workspace,
)
from gardener.cli.output import emit
from gardener.planning.forget import describe


@click.command(short_help="Retire matching entries: recall stops using them.")
@click.argument("query", required=False)
@click.option("--key", help="Forget the entries with this key.")
@click.option("--source", help="Forget the entries from this source.")
@click.option("--by", help="Forget the entries this agent or person wrote.")
@dry_run_option("List what would be retired; write nothing.")
@force_option("retiring")
@json_option
@click.pass_context
def forget(
    ctx: click.Context,
    query: str | None,
    key: str | None,
    source: str | None,
    by: str | None,
    dry_run: bool,
    force: bool,
    as_json: bool,
) -> None:
    """Retire matching entries: they leave recall, `why` and --as-of still show them."""
    result = workspace(ctx).forget(
        query, key=key, source=source, by=by, dry_run=dry_run, force=force
    )
    warn(result.warnings)
    if as_json:
        emit(result.as_dict())
        return
    echo(describe(result.plan.retired, result.plan.notes))
    n = len(result.plan.retired) + len(result.plan.notes)
    done = "would retire" if dry_run else "retired"
    entries = "entry" if n == 1 else "entries"
    click.echo(f"{done} {n} {entries}{commit_tail(dry_run, result.commit)}")
