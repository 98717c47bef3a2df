"""``gardener recall``: rank current memory and live notes for a query.

Its options are declared in ``gardener.cli.options``, which the fast entry
reads too; a plain ``gardener recall QUERY`` runs there, without click.
"""

from __future__ import annotations

import shlex

import click

from gardener.cli import options
from gardener.cli.common import verb_options, workspace
from gardener.cli.output import print_hits


@click.command()
@verb_options(options.RECALL)
@click.pass_context
def recall(
    ctx: click.Context,
    query: str | None,
    key: str | None,
    as_of: str | None,
    everything: bool,
    limit: int,
    as_json: bool,
) -> None:
    """Rank current memory and live notes for QUERY (BM25, then recency).

    MEMORY.md's own text outside the managed block answers too, as [curated].
    """
    if not query and not key and not as_of:
        raise click.UsageError("give a QUERY, --key KEY or --as-of DATE")
    if everything and (key or as_of):
        raise click.UsageError(
            "--all searches by QUERY; it does not go with --key or --as-of"
        )
    warnings: list[str] = []
    hits = workspace(ctx).recall(
        query, key=key, as_of_time=as_of, limit=limit, everything=everything,
        warnings=warnings,
    )  # fmt: skip
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    empty = "nothing found"
    if as_of:  # MEMORY.md keeps a value's past for the retention period only
        empty += (
            f" (no value held then: one ended before it, or prune deleted it"
            f" after its retention; `gardener why"
            f" {shlex.quote(key) if key else 'KEY'}` reads every value back from git)"
        )
    print_hits(hits, as_json, empty)
