"""``gardener promote``: promote durable entries of the daily notes into MEMORY.md."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from gardener.verbs.results import PromoteResult


@click.command()
@dry_run_option("Print what would change; write nothing.")
@force_option("removing")
@json_option
@click.pass_context
def promote(ctx: click.Context, dry_run: bool, force: bool, as_json: bool) -> None:
    """Promote durable entries of the daily notes into MEMORY.md."""
    result = workspace(ctx).promote(dry_run=dry_run, force=force)
    data = result.as_dict()
    warn(result.warnings)
    if as_json:
        emit(data)
        return
    echo(lines(result, dry_run))
    if result.plan.over_budget:
        warn(
            [
                f"MEMORY.md is {result.plan.over_budget} characters over its budget"
                " (memory_budget_chars in rules.md)"
            ]
        )


def lines(result: PromoteResult, dry_run: bool) -> Iterator[str]:
    """A line per decision, then the counts and the commit."""
    plan = result.plan
    for d in plan.decisions:
        what = f"{d.key}: {d.value}" if d.key else d.value
        why = f"; {d.reason}" if d.reason else ""
        yield f"{d.action:9} {what}  ({d.path}:{d.line}{why})"
    counts = [
        (len(plan.keys("add")) + len(plan.keys("history")), "added"),
        (len(plan.keys("supersede")), "superseded"),
        (len(plan.keys("update")), "updated"),
        (len(plan.keys("end")), "ended"),
        (len(plan.keys("reject")), "rejected"),
        (len(plan.keys("held")), "held"),
    ]
    summary = ", ".join(f"{n} {label}" for n, label in counts)
    if plan.pending:  # left in their notes, kept past the TTL for the judge
        summary += f", {len(plan.pending)} waiting for the judge (gardener review)"
    yield summary + commit_tail(dry_run, result.commit, "; no change")
