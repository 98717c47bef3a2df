"""``gardener purge``: erase a text from the files and every commit."""

from __future__ import annotations

import sys

import click

from gardener.cli.common import echo, json_option, warn, workspace
from gardener.cli.output import emit, say
from gardener.errors import EXIT_ERROR


@click.command()
@click.argument("text")
@click.option(
    "--dry-run",
    is_flag=True,
    help="List the files and commits that hold TEXT; change nothing (the default"
    " without --yes).",
)
@click.option(
    "--yes",
    is_flag=True,
    help="Erase TEXT from the files and the whole history (irreversible).",
)
@click.option(
    "--ignore-case", is_flag=True, help="Also erase TEXT written in other letter cases."
)
@click.option(
    "--by",
    help="Who asks for the purge (the tombstone's author; default: your user name).",
)
@click.option(
    "--push",
    is_flag=True,
    help="Then force-push (--force-with-lease) every branch the rewrite changed"
    " to the remotes that track it.",
)
@json_option
@click.pass_context
def purge(
    ctx: click.Context,
    text: str,
    dry_run: bool,
    yes: bool,
    ignore_case: bool,
    by: str | None,
    push: bool,
    as_json: bool,
) -> None:
    """Erase TEXT from the files and every commit: a leaked secret, a right to erasure.

    Without --yes nothing changes. TEXT "-" reads it from stdin, out of shell history.
    """
    if dry_run and yes:
        raise click.UsageError("give --dry-run or --yes, not both")
    if text == "-":
        text = sys.stdin.read().rstrip("\n")
    result = workspace(ctx).purge(
        text, dry_run=not yes, by=by, ignore_case=ignore_case, push=push
    )
    if as_json:
        emit(result.as_dict())
    else:
        echo(result.lines())
    warn(result.warnings)
    if any(not p.ok for p in result.pushed):
        # the rewrite is done here but the remote still has the text: not a success
        say(
            "gardener: the purge was made here but a push was refused; run"
            " `gardener sync`, then push it again (`gardener purge TEXT --yes --push`)",
            err=True,
        )
        sys.exit(EXIT_ERROR)
