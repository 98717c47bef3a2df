"""The ``gardener`` command's entry: ``note`` and ``recall`` without click.

Agents call ``gardener note`` and ``gardener recall`` many times a session,
and importing click costs ~35 ms, more than a whole recall from a warm index
(bench/RESULTS.md). So a plain invocation of those two verbs, made only of the
options in ``VERBS``, runs here directly. Anything else (``--help``, another
verb, an unknown or misspelt option, ``--``, a value that looks like an
option) goes to the click CLI, which stays the one definition of the command
line; tests/test_fastpath.py checks that both paths print the same bytes and
exit with the same codes, and that ``VERBS`` matches click's options.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .errors import GardenerError


@dataclass(frozen=True)
class Verb:
    """A verb the fast path takes: its one argument, options with a value, flags."""

    argument: str
    options: Mapping[str, str]  # --name -> keyword
    flags: Mapping[str, str] = field(default_factory=dict)


VERBS: Mapping[str, Verb] = {
    "note": Verb(
        "text",
        {
            "--kind": "kind",
            "--key": "key",
            "--source": "source",
            "--by": "by",
            "--expires": "expires",
            "--date": "day",
            "--time": "time",
        },
        {"--json": "as_json"},
    ),
    "recall": Verb(
        "query", {"--limit": "limit"}, {"--json": "as_json", "--all": "everything"}
    ),
}


@dataclass(frozen=True)
class Call:
    """A parsed fast invocation: the workspace folder, the verb, its keywords."""

    workspace: str
    verb: str
    arguments: Mapping[str, object]


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
    if "limit" in arguments:
        limit = str(arguments["limit"])
        if not (limit.isascii() and limit.isdigit() and int(limit) >= 1):
            return None
        arguments["limit"] = int(limit)
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
        from .cli import main as click_main

        click_main(args=args)
        return
    try:
        run(call)
    except KeyboardInterrupt:  # as click says it
        sys.stderr.write("Aborted!\n")
        sys.exit(1)
    sys.exit(0)


def run(call: Call) -> None:
    """Do what click's ``note`` or ``recall`` command would do for ``call``."""
    from .terminal import fail, open_workspace, print_hits, print_note

    arguments = dict(call.arguments)
    as_json = bool(arguments.pop("as_json", False))
    try:
        ws = open_workspace(Path(call.workspace))
        if call.verb == "note":
            text = str(arguments.pop("text"))
            print_note(ws.note(text, **arguments), as_json)  # type: ignore[arg-type]
        else:
            query = str(arguments.pop("query"))
            print_hits(ws.recall(query, **arguments), as_json)  # type: ignore[arg-type]
    except (GardenerError, OSError) as exc:
        fail(exc, as_json)
