"""memory-gardener: a plain-Markdown memory for AI agents that forgets on purpose.

The public API is ``Workspace``; everything the CLI does goes through it.
"""

from .errors import GardenerError, LossBudgetError, ParseError, RefusedError
from .garden import Workspace

__all__ = [
    "GardenerError",
    "LossBudgetError",
    "ParseError",
    "RefusedError",
    "Workspace",
]
