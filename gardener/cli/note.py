"""``gardener note``: append one entry to today's daily note, and commit it.

Its options are declared in ``gardener.cli.options``, which the fast entry
reads too; a plain ``gardener note`` runs there, without click.
"""

from __future__ import annotations

import click

from gardener.cli import options
from gardener.cli.common import verb_options, workspace
from gardener.cli.output import print_note


@click.command()
@verb_options(options.NOTE)
@click.pass_context
def note(ctx: click.Context, text: str, as_json: bool, **kwargs: str | None) -> None:
    """Append TEXT as one entry to today's daily note, and commit it."""
    print_note(workspace(ctx).note(text, **kwargs), as_json)
