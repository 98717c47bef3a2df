"""The server's tests need the SDK (the ``mcp`` extra); CI also runs without it,
and then only the SDK-free modules' tests run."""

from __future__ import annotations

import importlib.util

collect_ignore = (
    [] if importlib.util.find_spec("mcp") else ["test_server.py", "test_command.py"]
)
