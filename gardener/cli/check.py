"""``gardener check``: report problems; exit 4 when there are any."""

from __future__ import annotations

import sys

import click

from gardener.cli.common import json_option, workspace
from gardener.cli.output import emit
from gardener.errors import EXIT_PROBLEMS


@click.command()
@click.option(
    "--history", is_flag=True, help="Also scan every blob in git history for secrets."
)
@click.option(
    "--staged",
    is_flag=True,
    help="Only scan the files staged for commit (the pre-commit hook).",
)
@json_option
@click.pass_context
def check(ctx: click.Context, history: bool, staged: bool, as_json: bool) -> None:
    """Report parse problems, conflicting values, secrets and an over-budget MEMORY.md."""
    problems = workspace(ctx).check(history=history, staged=staged)
    if as_json:
        emit({"problems": [p.as_dict() for p in problems]})
    else:
        for p in problems:
            where = f"{p.path}:{p.line}" if p.line else p.path
            click.echo(f"{where}: {p.kind}: {p.message}")
        click.echo(f"{len(problems)} problem(s)" if problems else "no problems")
    if problems:
        sys.exit(EXIT_PROBLEMS)
