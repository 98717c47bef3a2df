"""``gardener decide``: apply the judge's answers to pending entries."""

from __future__ import annotations

import json
import sys

import click

from gardener.cli.common import JSON_META, echo, force_option, warn, workspace
from gardener.cli.output import emit
from gardener.errors import EXIT_ERROR, GardenerError, UsageError


def _remember_json(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> str | None:
    ctx.meta[JSON_META] = value is not None  # errors are printed as JSON too
    return value


@click.command()
@click.argument("entry_id", required=False)
@click.option(
    "--durable",
    "kind",
    metavar="KIND",
    help="Durable, of this kind (identity, preference, decision, fact).",
)
@click.option("--transient", is_flag=True, help="Transient: it stays in its note.")
@click.option(
    "--correction",
    is_flag=True,
    help="It corrects the key's current value (which was never right).",
)
@click.option(
    "--ends",
    "ends",
    metavar="KEY",
    help="It ends KEY's current value (a removal); nothing is added.",
)
@click.option(
    "--replaces",
    metavar="FACT_ID",
    help="It replaces this current entry (an id from review's near entries),"
    " keyed or not.",
)
@click.option(
    "--key", metavar="KEY", help="The key to file it under (default: the rules' guess)."
)
@click.option(
    "--value",
    metavar="VALUE",
    help="The value: words of the entry (default: the rules' guess).",
)
@click.option(
    "--json",
    "stdin",
    metavar="[-]",
    is_flag=False,
    flag_value="",
    callback=_remember_json,
    help="Print JSON; with -, also read many answers as JSON from stdin:"
    ' {"decisions": [{"id", "verdict", "kind", "key", "value", "replaces"}]}.',
)
@click.option(
    "--by",
    "by",
    metavar="NAME",
    envvar="GARDENER_AGENT",
    help="Who judges (the agent's name); the commit names it.  [env: GARDENER_AGENT]",
)
@force_option("removing")
@click.pass_context
def decide(
    ctx: click.Context, entry_id: str | None, kind: str | None, transient: bool,
    correction: bool, ends: str | None, replaces: str | None, key: str | None,
    value: str | None, stdin: str | None, by: str | None, force: bool,
) -> None:  # fmt: skip
    """Judge pending entries (ids from `gardener review`): one by its ID and
    options, or many with `--json -`. Each answer is filed through the same
    decision table as promote's; a bad one is refused with its reason."""
    as_json = stdin is not None
    if stdin:
        if (
            entry_id
            or kind
            or transient
            or correction
            or ends
            or key
            or value
            or replaces
        ):
            raise UsageError(
                "--json - reads every answer from stdin: give no ID or options"
            )
        answers = _read_stdin(stdin)
    else:
        answers = [
            _one(entry_id, kind, transient, correction, ends, key, value, replaces)
        ]
    result = workspace(ctx).decide(answers, by or "agent", force=force)
    data = result.as_dict()
    if result.result is not None:
        warn(result.result.warnings)
    if as_json:
        emit(data)
    else:
        echo(_lines(data))
    if result.refused:
        sys.exit(EXIT_ERROR)


def _read_stdin(where: str) -> list[dict[str, object]]:
    if where != "-":
        raise UsageError("--json takes - (read the answers from stdin)")
    try:
        data = json.loads(sys.stdin.read())
    except RecursionError as exc:
        raise GardenerError("stdin: JSON nested too deeply") from exc
    except ValueError as exc:
        raise GardenerError(f"stdin: not JSON ({exc})") from exc
    items = data.get("decisions") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise GardenerError(
            'stdin: expected {"decisions": [...]} or a list of decisions'
        )
    return items


def _one(
    entry_id: str | None, kind: str | None, transient: bool, correction: bool,
    ends: str | None, key: str | None, value: str | None, replaces: str | None = None,
) -> dict[str, object]:  # fmt: skip
    if not entry_id:
        raise UsageError(
            "give the ID of a pending entry (gardener review), or --json -"
        )
    chosen = [n for n, on in (("--transient", transient), ("--ends", ends),
                              ("--durable", (kind or correction or replaces) and not ends)) if on]  # fmt: skip
    if len(chosen) != 1:
        raise UsageError(
            "give one of --durable KIND (or --correction, --replaces ID),"
            " --transient, --ends KEY"
        )
    if replaces and correction:
        raise UsageError("--replaces goes with --durable, not --correction")
    if transient:
        return {"id": entry_id, "verdict": "transient"}
    if ends:
        return {
            "id": entry_id,
            "verdict": "ends",
            "key": ends,
            "value": value,
            "kind": kind,
            "replaces": replaces,
        }
    verdict = "correction" if correction else "durable"
    return {
        "id": entry_id,
        "verdict": verdict,
        "kind": kind,
        "key": key,
        "value": value,
        "replaces": replaces,
    }


def _lines(data: dict[str, object]) -> list[str]:
    out = [f"refused {r['id']}: {r['reason']}" for r in data["refused"]]  # type: ignore[attr-defined]
    for d in data.get("decisions", []):  # type: ignore[attr-defined]
        what = f"{d['key']}: {d['value']}" if d["key"] else d["value"]
        out.append(f"{d['action']:9} {what}  ({d['path']}:{d['line']})")
    applied = data["applied"]
    commit = data.get("commit")
    tail = f"; commit {str(commit)[:8]}" if commit else ""
    out.append(f"decided {len(applied)} of {len(applied) + len(data['refused'])}{tail}")  # type: ignore[arg-type]
    return out
