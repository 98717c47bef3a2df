"""``gardener sync``: the workspace and its remote, both ways; and the
pre-push hook's check (``gardener pre-push``, hidden)."""

from __future__ import annotations

import sys

import click

from gardener.cli.common import dry_run_option, echo, json_option, warn, workspace
from gardener.cli.output import emit


@click.command()
@click.argument("remote", required=False)
@dry_run_option("Fetch and say what would come in and go out; change nothing.")
@json_option
@click.pass_context
def sync(ctx: click.Context, remote: str | None, dry_run: bool, as_json: bool) -> None:
    """Commit outside changes, fetch, merge, promote, push (REMOTE: the upstream).

    After a purge on another clone, this clone's history is rewritten the same
    way: local commits are replayed on the remote's, the old history dropped.
    """
    result = workspace(ctx).sync(remote, dry_run=dry_run)
    warn(result.warnings)
    if as_json:
        emit(result.as_dict())
    else:
        echo(result.lines())


@click.command(name="pre-push", hidden=True)
@click.argument("remote")
@click.argument("url", required=False)
@click.pass_context
def pre_push(ctx: click.Context, remote: str, url: str | None) -> None:
    """The pre-push hook: refuse to push history a purge rewrote (stdin: git's lines)."""
    from gardener.verbs.follow import stale_push

    refused = stale_push(workspace(ctx).root, remote, sys.stdin.read())
    if refused:
        click.echo(f"memory-gardener: {refused}", err=True)
        ctx.exit(1)
