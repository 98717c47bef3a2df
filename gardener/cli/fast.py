"""The ``gardener`` command's entry: ``note`` and ``recall`` without click.

Agents call ``gardener note`` and ``gardener recall`` many times a session,
and importing click costs ~35 ms, more than a whole recall from a warm index
(bench/README.md). So a plain invocation of those two verbs, made only of the
options ``gardener.cli.options`` marks ``fast``, runs here directly. Anything
else (``--help``, another verb, an unknown or misspelt option, ``--``, a value
that looks like an option) goes to the click CLI. Both read their options from
that one table; tests/cli/test_fast.py checks that both paths print the same
bytes and exit with the same codes, and that ``VERBS`` matches click's options.
"""

from __future__ import annotations

import os
import sys

from gardener.cli import options
from gardener.errors import EXIT_ERROR, EXIT_OK, GardenerError

# the fast path exists to start fast: no typing, pathlib or dataclasses here
# (together ~20 ms of imports, more than a warm recall's work)
TYPE_CHECKING = False  # mypy and ruff read this as typing's
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from gardener.recall.hits import Hit
    from gardener.workspace import Workspace


class Verb:
    """What the fast path takes of a verb: its one argument, options with a value
    (``--name`` -> keyword), flags (``--name`` -> keyword), and the options that
    are ints (keyword -> their minimum)."""

    def __init__(self, verb: options.Verb) -> None:
        self.argument = verb.argument
        taken = [o for o in verb.options if o.fast]
        self.options = {o.flag: o.keyword for o in taken if not o.switch}
        self.flags = {o.flag: o.keyword for o in taken if o.switch}
        self.integers = {o.keyword: o.minimum for o in taken if o.minimum is not None}
        self.defaults = {o.keyword: o.default for o in verb.options if o.default}


VERBS: Mapping[str, Verb] = {
    "note": Verb(options.NOTE),
    "recall": Verb(options.RECALL),
}


class Call:
    """A parsed fast invocation: the workspace folder, the verb, its keywords.
    Equal when all three are."""

    def __init__(self, workspace: str, verb: str, arguments: Mapping[str, object]):
        self.workspace = workspace
        self.verb = verb
        self.arguments = arguments

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Call):
            return NotImplemented
        mine = (self.workspace, self.verb, self.arguments)
        return mine == (other.workspace, other.verb, other.arguments)

    __hash__ = None  # type: ignore[assignment]  # mutable arguments

    def __repr__(self) -> str:
        return f"Call({self.workspace!r}, {self.verb!r}, {self.arguments!r})"


def parse(argv: Sequence[str], environ: Mapping[str, str]) -> Call | None:
    """``argv`` (without the program name) as a Call; None if click must decide.

    Pure. Mirrors click's reading of the same line for the subset it accepts:
    ``-w``/``--workspace`` (also ``--workspace=DIR``) before the verb, env
    GARDENER_WORKSPACE, ``--opt VALUE`` or ``--opt=VALUE``, the last of a
    repeated option winning, and exactly one positional argument.
    """
    workspace = environ.get("GARDENER_WORKSPACE") or "."
    at = 0
    while at < len(argv) and argv[at].startswith("-"):
        token = argv[at]
        if token in ("-w", "--workspace") and at + 1 < len(argv):
            workspace, at = argv[at + 1], at + 2
        elif token.startswith("--workspace="):
            workspace, at = token.split("=", 1)[1], at + 1
        else:
            return None
    if at >= len(argv) or argv[at] not in VERBS or not workspace:
        return None
    verb = VERBS[argv[at]]
    arguments: dict[str, object] = {}
    positional: list[str] = []
    rest = list(argv[at + 1 :])
    while rest:
        token = rest.pop(0)
        name, has_value, value = token.partition("=")
        if token in verb.flags:
            arguments[verb.flags[token]] = True
        elif name in verb.options and has_value:
            arguments[verb.options[name]] = value
        elif token in verb.options:
            if not rest or rest[0].startswith("-"):
                return None
            arguments[verb.options[token]] = rest.pop(0)
        elif token.startswith("-") and token != "-":
            return None
        else:
            positional.append(token)
    if len(positional) != 1:
        return None
    arguments[verb.argument] = positional[0]
    for keyword, minimum in verb.integers.items():
        if keyword in arguments:
            number = str(arguments[keyword])
            if not (number.isascii() and number.isdigit() and int(number) >= minimum):
                return None
            arguments[keyword] = int(number)
    if argv[at] == "recall" and not positional[0]:
        return None  # click's usage error names what to give
    return Call(workspace, argv[at], arguments)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the ``gardener`` command (the console script's entry point)."""
    args = list(sys.argv[1:] if argv is None else argv)
    call = parse(args, os.environ)
    if call is None or (  # click's Path check says what is wrong with it
        os.path.exists(call.workspace)
        and not (os.path.isdir(call.workspace) and os.access(call.workspace, os.R_OK))
    ):
        from gardener.cli.commands import main as click_main

        click_main(args=args)
        return
    try:
        run(call)
    except KeyboardInterrupt:  # as click says it
        sys.stderr.write("Aborted!\n")
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_OK)


def run(call: Call) -> None:
    """Do what click's ``note`` or ``recall`` command would do for ``call``.

    Both run without the ``Workspace`` when they can: a recall is first
    asked of the index alone (``gardener.recall.search.search_fresh``), which
    answers when no file changed since the last recall; a note is written by
    ``gardener.verbs.note.note_fresh`` when the settings are cached. Otherwise
    the ``Workspace`` does the work.
    """
    from gardener.cli.output import fail, print_hits, print_note, warn_if_not_set_up

    warn_if_not_set_up(call.workspace)
    arguments = dict(call.arguments)
    as_json = bool(arguments.pop("as_json", False))
    try:
        if call.verb == "note":
            from gardener.verbs.note import note_fresh

            text = str(arguments.pop("text"))
            done = note_fresh(call.workspace, text, **arguments)
            if done is None:
                ws = _workspace(call.workspace)
                done = ws.note(text, **arguments)  # type: ignore[arg-type]
            print_note(done, as_json)
            return
        query = str(arguments.pop("query"))
        hits = _recall_fresh(call.workspace, query, arguments)
        if hits is None:
            ws = _workspace(call.workspace)
            warnings: list[str] = []
            hits = ws.recall(query, **arguments, warnings=warnings)  # type: ignore[arg-type]
            for warning in warnings:
                sys.stderr.write(f"warning: {warning}\n")
        print_hits(hits, as_json)
    except (GardenerError, OSError) as exc:
        fail(exc, as_json)


def _workspace(folder: str) -> Workspace:
    from pathlib import Path

    from gardener.cli.output import open_workspace

    return open_workspace(Path(folder))


def _recall_fresh(
    folder: str, query: str, arguments: Mapping[str, object]
) -> list[Hit] | None:
    """The recall's hits from the index alone, or None (see ``search_fresh``)."""
    root = os.path.realpath(folder)
    if not os.path.isdir(os.path.join(root, ".git")):
        return None  # not a workspace, or a worktree: Workspace says or copes
    from gardener.recall.search import search_fresh

    limit = arguments.get("limit", VERBS["recall"].defaults["limit"])
    assert isinstance(limit, int)  # parse made it one
    return search_fresh(root, query, limit, bool(arguments.get("everything")))
