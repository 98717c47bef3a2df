"""``gardener approve`` and ``gardener reject``: a person's word on an entry promote held."""

from __future__ import annotations

import click

from gardener.cli.common import json_option, workspace
from gardener.cli.output import emit


@click.command()
@click.argument("review_id")
@json_option
@click.pass_context
def approve(ctx: click.Context, review_id: str, as_json: bool) -> None:
    """Promote a held entry after all (REVIEW_ID from `gardener check`)."""
    result = workspace(ctx).approve_held(review_id, approve=True)
    if as_json:
        emit(result.as_dict() if result else {})
        return
    commit = f"; commit {result.commit[:8]}" if result and result.commit else ""
    click.echo(f"approved {review_id}{commit}")


@click.command()
@click.argument("review_id")
@json_option
@click.pass_context
def reject(ctx: click.Context, review_id: str, as_json: bool) -> None:
    """Never promote a held entry (REVIEW_ID from `gardener check`); it stays in its note."""
    workspace(ctx).approve_held(review_id, approve=False)
    if as_json:
        emit({"rejected": review_id})
    else:
        click.echo(f"rejected {review_id}: it will never be promoted")
