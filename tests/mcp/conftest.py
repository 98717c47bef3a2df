"""The MCP tests need the SDK (the ``mcp`` extra); CI also runs without it."""

from __future__ import annotations

import pytest

pytest.importorskip("mcp")
