"""``gardener review``: the entries waiting for the judge, oldest first."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from gardener.cli.common import echo, json_option, workspace
from gardener.cli.output import emit

if TYPE_CHECKING:
    from gardener.verbs.judge import Review


@click.command()
@click.option(
    "--limit", type=click.IntRange(min=1), default=20, show_default=True,
    help="Show at most N entries (the output stays near 8 KB either way).",
)  # fmt: skip
@click.option(
    "--after", metavar="ID",
    help="Start after this pending entry (the next page; its id is the last shown).",
)  # fmt: skip
@json_option
@click.pass_context
def review(ctx: click.Context, limit: int, after: str | None, as_json: bool) -> None:
    """List the entries waiting for a judgment: what the rules could not place,
    or placed with low confidence. Answer with `gardener decide`."""
    ws = workspace(ctx)
    queue = ws.review(limit, after)
    if as_json:
        emit(queue.as_dict())
        return
    echo(lines(queue))


def lines(queue: Review) -> Iterator[str]:
    """Two or three lines per entry, after a one-line summary."""
    if not queue.total:
        yield "review: nothing waits for a judgment"
        return
    more = f", showing {len(queue.items)}" if len(queue.items) < queue.total else ""
    if queue.next_after:
        more += f"; next page: --after {queue.next_after}"
    yield (
        f"review: {queue.total} entr{'y waits' if queue.total == 1 else 'ies wait'} for a"
        f" judgment (oldest {queue.oldest}{more}); answer each with"
        " `gardener decide ID --durable KIND [--key K] [--value V]` or `--transient`"
    )
    for item in queue.items:
        where = " > ".join(item["headings"])  # type: ignore[arg-type]
        yield ""
        yield (
            f"{item['id']}  {item['path']}:{item['line']}  [{item['why']}; its note is kept until {item['until']}]"
            + (f"  under {where}" if where else "")
        )
        yield f"  {item['text']}"
        guess = item["guess"]
        assert isinstance(guess, dict)
        said = [f"kind {guess['kind'] or '?'}"]
        if guess["key"]:
            said.append(f"key {guess['key']!r}")
        current = item["current"]
        if isinstance(current, dict):
            said.append(f"now {current['key']!r} = {current['value']!r}")
        if item["nearest_keys"]:
            said.append("near keys: " + ", ".join(item["nearest_keys"]))  # type: ignore[arg-type]
        yield "  rules' guess: " + "; ".join(said)
        for near in item.get("near") or ():  # type: ignore[attr-defined]
            named = f"{near['key']}: " if near["key"] else ""
            yield f"  near #{near['id']} (since {near['since']}): {named}{near['value']}"
