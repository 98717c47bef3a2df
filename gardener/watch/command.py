"""``gardener watch``: the click command; the CLI's registry names it by string."""

from __future__ import annotations

import click

from gardener.watch.watcher import watch as run
from gardener.workspace import Workspace


@click.command()
@click.option(
    "--idle",
    type=click.FloatRange(min=0),
    default=300,
    show_default=True,
    help="Promote after this many seconds without writes (0: never).",
)
@click.option(
    "--debounce",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    help="Record a file once it has been quiet this many seconds.",
)
@click.option(
    "--rescan",
    type=click.FloatRange(min=1),
    default=180,
    show_default=True,
    help="Seconds between full rescans (they catch what events missed).",
)
@click.option(
    "--polling", is_flag=True, help="Poll instead of inotify (network file systems)."
)
@click.pass_context
def watch(
    ctx: click.Context, idle: float, debounce: float, rescan: float, polling: bool
) -> None:
    """Commit what agents and people write to the memory files; promote when idle, prune daily."""
    ws = ctx.obj["open"]()  # the group opens -w's workspace (or says why not)
    assert isinstance(ws, Workspace)
    run(ws, idle=idle, debounce=debounce, rescan=rescan, polling=polling)
