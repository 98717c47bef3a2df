"""``gardener why``: a belief's whole history, from the files and from git."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gardener.cli.common import json_option, workspace
from gardener.cli.output import emit
from gardener.errors import GardenerError

if TYPE_CHECKING:
    from gardener.verbs.results import WhyRecord


@click.command()
@click.argument("key")
@json_option
@click.pass_context
def why(ctx: click.Context, key: str, as_json: bool) -> None:
    """Print a belief's whole history: each value, its validity, source note and commit."""
    records = workspace(ctx).why(key)
    if not records:
        raise GardenerError(
            f"no entry has the key {key!r}; search for it with: gardener recall {key!r}"
        )
    if as_json:
        emit({"key": key, "history": [r.as_dict() for r in records]})
        return
    for r in records:
        h = r.hit
        valid = f"{h.since or '?'} .. {h.until or 'now'}"
        click.echo(f"{valid:36} {h.status:10} {h.value}  ({'; '.join(where(r))})")


def where(r: WhyRecord) -> list[str]:
    """Where a value is or was: its line or origin, its commits."""
    h = r.hit
    found = [f"from {h.origin}" if h.origin else f"{h.path}:{h.line}"]
    if r.removed_in and not h.origin:
        found = []  # no longer on a line of the file: the commits say where
    if r.ended_by:
        found.append(f"ended by {r.ended_by}")
    if r.commit:
        found.append(f"commit {r.commit[:8]}")
    elif not r.removed_in and h.status != "edited":
        found.append("not committed yet")
    if r.removed_in:
        found.append(f"pruned in {r.removed_in[:8]}")
    if r.edited_in:
        found.append(f"replaced by hand in {r.edited_in[:8]}")
    return found
