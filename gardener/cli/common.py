"""What the click commands share: the option decorators and the workspace they open."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gardener.cli import options

if TYPE_CHECKING:
    from gardener.workspace import Workspace

F = TypeVar("F", bound=Callable[..., Any])
JSON_META = "gardener.as_json"  # in ctx.meta: the group's error handler reads it


def _remember_json(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.meta[JSON_META] = value  # meta is shared by a command and its group
    return value


def click_option(option: options.Option) -> Callable[[F], F]:
    """The click decorator for one option of the table."""
    kwargs: dict[str, Any] = {"help": option.help}
    if option.switch:
        kwargs["is_flag"] = True
    if option.metavar:
        kwargs["metavar"] = option.metavar
    if option.minimum is not None:
        kwargs["type"] = click.IntRange(min=option.minimum)
    if option.default is not None:
        kwargs.update(default=option.default, show_default=True)
    if option is options.JSON:
        kwargs["callback"] = _remember_json
    return click.option(option.flag, option.keyword, **kwargs)


def json_option(func: F) -> F:
    """``--json``: print one JSON document on stdout (errors too)."""
    return click_option(options.JSON)(func)


def verb_options(verb: options.Verb) -> Callable[[F], F]:
    """The argument and options of a verb in the table, in its order."""

    def decorate(func: F) -> F:
        for option in reversed(verb.options):
            func = click_option(option)(func)
        return click.argument(verb.argument, required=verb.required)(func)

    return decorate


def dry_run_option(help: str) -> Callable[[F], F]:
    return click.option("--dry-run", is_flag=True, help=help)


def force_option(what: str) -> Callable[[F], F]:
    return click.option(
        "--force",
        is_flag=True,
        help=f"Allow {what} more current entries than max_loss.",
    )


def workspace(ctx: click.Context) -> Workspace:
    """The workspace ``-w`` names; GardenerError if it is none."""
    ws: Workspace = ctx.obj["open"]()
    return ws


def echo(lines: Iterable[str], err: bool = False) -> None:
    for line in lines:
        click.echo(line, err=err)


def warn(warnings: Iterable[str]) -> None:
    echo((f"warning: {w}" for w in warnings), err=True)


def commit_tail(dry_run: bool, commit: str | None, none: str = "") -> str:
    """How a summary line ends: the dry run, the commit, or ``none``."""
    if dry_run:
        return " (dry run: nothing written)"
    return f"; commit {commit[:8]}" if commit else none
