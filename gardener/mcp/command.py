"""``gardener mcp``: the click command; the CLI's registry names it by string.

The SDK is imported only once the command runs, and its absence is one line
naming the extra to install.
"""

from __future__ import annotations

import importlib.util
import re

import click

from gardener.errors import GardenerError, UsageError
from gardener.workspace import Workspace

MISSING_SDK = "gardener mcp needs the MCP SDK: pip install 'memory-gardener[mcp]'"
_PREFIX = re.compile(r"[A-Za-z0-9_.-]{0,40}")  # the characters MCP tool names allow


@click.command()
@click.option(
    "--transport", type=click.Choice(["stdio", "streamable-http"]), default="stdio",
    show_default=True, help="stdio for a host that starts the server; streamable-http to serve over HTTP.",
)  # fmt: skip
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="HTTP: the address to listen on.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help="HTTP: the port.",
)
@click.option(
    "--read-only",
    is_flag=True,
    help="Serve only the tools that read (search, get, why, status, review).",
)
@click.option(
    "--tool-prefix",
    default="",
    metavar="P",
    help="Put P before every tool name (e.g. gardener_ next to OpenClaw's own memory tools).",
)
@click.option(
    "--no-autopromote",
    is_flag=True,
    help="Do not promote after a quiet spell nor prune daily.",
)
@click.option(
    "--idle", type=click.FloatRange(min=1), default=300, show_default=True,
    help="Seconds without writes before the server promotes on its own.",
)  # fmt: skip
@click.pass_context
def mcp(
    ctx: click.Context,
    transport: str,
    host: str,
    port: int,
    read_only: bool,
    tool_prefix: str,
    no_autopromote: bool,
    idle: float,
) -> None:
    """Serve the memory over MCP (Model Context Protocol) to Claude, Cursor, Codex or OpenClaw."""
    if not _PREFIX.fullmatch(tool_prefix):
        raise UsageError(
            f"--tool-prefix {tool_prefix!r}: use letters, digits, _ . - (at most 40)"
        )
    ws = ctx.obj["open"]()  # the group opens -w's workspace (or says why not)
    assert isinstance(ws, Workspace)
    if importlib.util.find_spec("mcp") is None:
        raise GardenerError(MISSING_SDK)
    from gardener.mcp.server import build, serve

    server = build(
        ws, read_only=read_only, prefix=tool_prefix,
        idle=None if no_autopromote else idle,
    )  # fmt: skip
    serve(server, transport, host, port)
