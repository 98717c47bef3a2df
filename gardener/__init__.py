"""memory-gardener: a plain-Markdown memory for AI agents that forgets on purpose.

The public API is ``Workspace`` (``gardener.workspace``); everything the CLI
does goes through it. ``Workspace`` is imported on first use, so ``gardener
note`` and ``gardener recall`` load only the modules their verb needs (start-up
time is most of their cost; see docs/internals.md, Hot path).

One subpackage per noun, each ``__init__.py`` naming its modules. Imports point
down this list (pyproject.toml's import-linter contract; docs/design.md, Layout):

cli, mcp, watch  the adapters: the ``gardener`` command line, ``gardener mcp``, ``gardener watch``
workspace    Workspace, the facade: each verb a method
verbs        each verb applied: read the files, plan, write, commit; commit messages
recall       the recall index, its ranking, the search that keeps it fresh
store        the gardener's own state: ledger, registers, journal, caches
git          git as a child process: commits, identity, trailers, history
files        paths, reads, atomic writes, appends, the workspace lock
planning     the pure planners: classify, the decision table, promote, prune, forget
formats      parse and render: entry lines, daily notes, MEMORY.md, rules.md
neverstore   the never-store rules: what is refused or redacted
lexicon      the built-in words and sentence frames, one module per language
model        the values: entries, facts, kinds, ledger marks, valid time, settings
errors       the error classes, each with its exit code

Where a change goes:

- a never-store rule: ``gardener.neverstore.rules`` (the table; a label's
  phrasings in ``labels`` and ``weaklabels``); its test cases in
  tests/neverstore/data/
- a cue phrase, heading word, generic label or change/removal frame in a
  language: ``gardener.lexicon.<code>`` (``en``, ``zh``, ...); how an entry is
  read by them: ``gardener.planning.classify``
- the decision table (what promote does with an entry):
  ``gardener.planning.reconcile``
- a commit message: ``gardener.verbs.messages``; its trailers:
  ``gardener.git.trailers``
- the recall ranking: ``gardener.recall.index`` (``Index.search``'s order) and
  ``gardener.recall.hits`` (which matches answer); ``--as-of``:
  ``gardener.recall.rank``
- a CLI option: the command's module in ``gardener.cli``; for ``note`` and
  ``recall``, ``gardener.cli.options``
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
