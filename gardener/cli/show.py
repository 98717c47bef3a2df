"""``gardener show``: lines of one memory file, secrets redacted."""

from __future__ import annotations

import re

import click

from gardener.cli.common import json_option, workspace
from gardener.cli.output import emit
from gardener.errors import UsageError

# PATH, PATH:FROM or PATH:FROM:N (a 1-based first line, a count of lines)
_SPEC = re.compile(r"(?P<path>.+?)(?::(?P<start>\d+)(?::(?P<lines>\d+))?)?")


def parse_spec(spec: str) -> tuple[str, int, int | None]:
    """``(path, first line, count or None)`` of ``PATH[:FROM[:N]]``; UsageError if empty."""
    found = _SPEC.fullmatch(spec)
    if found is None:
        raise UsageError("give a path: gardener show MEMORY.md[:FROM[:N]]")
    lines = found["lines"]
    return found["path"], int(found["start"] or 1), int(lines) if lines else None


@click.command()
@click.argument("spec", metavar="PATH[:FROM[:N]]")
@json_option
@click.pass_context
def show(ctx: click.Context, spec: str, as_json: bool) -> None:
    """Print MEMORY.md, rules.md or a note under memory/ (N lines from line FROM),
    secrets redacted. A missing note prints nothing."""
    path, start, lines = parse_spec(spec)
    shown = workspace(ctx).show(path, start, lines)
    if as_json:
        emit(shown.as_dict())
        return
    click.echo(shown.text, nl=False)
