"""memory-gardener: a plain-Markdown memory for AI agents that forgets on purpose.

The public API is ``Workspace``; everything the CLI does goes through it.
``Workspace`` is imported on first use, so ``gardener note`` and ``gardener
recall`` load only the modules their verb needs (startup time is most of
their cost; see bench/).
"""

from __future__ import annotations

from gardener.errors import GardenerError, LossBudgetError, ParseError, RefusedError

TYPE_CHECKING = False  # typing costs ~4 ms to import; mypy reads this as usual
if TYPE_CHECKING:
    from gardener.workspace import Workspace

__all__ = [
    "GardenerError",
    "LossBudgetError",
    "ParseError",
    "RefusedError",
    "Workspace",
]


def __getattr__(name: str) -> object:
    if name == "Workspace":
        from gardener.workspace import Workspace

        return Workspace
    raise AttributeError(f"module 'gardener' has no attribute {name!r}")
