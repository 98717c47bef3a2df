"""``gardener mcp`` as a host starts it (over stdio), without the SDK, and gardening on its own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from gardener import Workspace
from gardener.mcp.command import MISSING_SDK
from gardener.mcp.server import build

GARDENER = str(Path(sys.executable).with_name("gardener"))


def test_a_host_starts_it_over_stdio(tmp_path: Path):
    ws, _ = Workspace.init(tmp_path / "ws")
    # the command line of the README's `claude mcp add` snippet
    host = StdioServerParameters(
        command=GARDENER, args=["-w", str(ws.root), "mcp"], env=dict(os.environ)
    )

    async def main() -> float:
        started = time.perf_counter()
        async with Client(host, mode="legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            listed = time.perf_counter() - started
            assert "memory_note" in names
            done = await client.call_tool("memory_note", {"text": "the cat is Miso"})
            assert not done.is_error, done.content
            found = await client.call_tool("memory_search", {"query": "Miso"})
            assert "Miso" in str(found.structured_content)
        return listed

    assert anyio.run(main) < 10  # a host's start-up limit


def test_without_the_sdk_it_says_which_extra_to_install(tmp_path: Path):
    Workspace.init(tmp_path / "ws")
    code = (
        "import sys; sys.modules['mcp'] = None\n"  # an environment without the SDK
        "from gardener.cli.commands import main\n"
        f"main(['-w', {str(tmp_path / 'ws')!r}, 'mcp'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert done.stderr.strip() == f"gardener: {MISSING_SDK}"


def test_the_server_promotes_after_a_quiet_spell(ws: Workspace):
    server = build(ws, idle=0.2)

    async def main() -> None:
        async with Client(server) as client:
            await client.call_tool(
                "memory_note",
                {"text": "the editor is Helix", "kind": "preference", "key": "editor"},
            )
            memory = ws.root / "MEMORY.md"
            with anyio.fail_after(10):
                while "Helix" not in memory.read_text(encoding="utf-8"):
                    await anyio.sleep(0.05)

    anyio.run(main)
