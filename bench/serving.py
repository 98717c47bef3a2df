"""The MCP server's start-up: from spawning ``gardener mcp`` to the first tools/list answered."""

from __future__ import annotations

import os
import statistics
import time

from . import timing
from .table import Row, ms
from .workspaces import Built

HOST_LIMIT = (
    10.0  # seconds: a host's default start-up limit (Codex's startup_timeout_sec)
)


def start_up(root: Built, repeats: int, span: str) -> list[Row]:
    """Spawn ``gardener -w WS mcp`` as a host does (the SDK's stdio client, the
    legacy handshake) and time until its tools are listed, against ``python -c
    pass``; the SDK's import in the host is outside the timer."""
    try:
        import anyio
        from mcp import Client, StdioServerParameters
    except ImportError:
        return [Row("`gardener mcp` start-up", "-", "-", None, "-", status="no SDK: pip install '.[mcp]'")]  # fmt: skip
    cmd = [*timing.gardener(), "-w", str(root.root), "mcp", "--no-autopromote"]
    host = StdioServerParameters(command=cmd[0], args=cmd[1:], env=dict(os.environ))

    async def listed() -> float:
        started = time.perf_counter()
        async with Client(host, mode="legacy") as client:
            await client.list_tools()
            return time.perf_counter() - started

    py, served = [], []
    for _ in range(repeats):
        py.append(timing.python_pass())
        served.append(anyio.run(listed))
    base, took = statistics.median(py), statistics.median(served)
    return [
        Row(
            f"`gardener mcp` start-up to the first tools/list, {span} workspace",
            f"python -c pass {ms(base)}",
            ms(took),
            None,
            f"<= {HOST_LIMIT:.0f} s (hosts' limit)",
            took,
            HOST_LIMIT,
        )
    ]
