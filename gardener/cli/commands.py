"""The ``gardener`` command: a thin click layer over ``gardener.Workspace``."""

from __future__ import annotations

import functools
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gardener.cli.output import emit, fail, open_workspace, print_hits, print_note
from gardener.errors import GardenerError

if TYPE_CHECKING:
    from gardener.workspace import Workspace

F = TypeVar("F", bound=Callable[..., Any])
EXIT_PROBLEMS = 4


def handle_errors(func: F) -> F:
    """Map the gardener's errors to one line on stderr and their exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (GardenerError, OSError) as exc:
            fail(exc, bool(kwargs.get("as_json")))

    return wrapper  # type: ignore[return-value]


def json_option(func: F) -> F:
    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON document on stdout."
    )(func)


def _workspace(ctx: click.Context) -> Workspace:
    return open_workspace(Path(ctx.obj["workspace"]))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--workspace",
    "-w",
    envvar="GARDENER_WORKSPACE",
    default=".",
    show_default=True,
    type=click.Path(file_okay=False),
    help="The workspace folder (env GARDENER_WORKSPACE).",
)
@click.version_option(package_name="memory-gardener")
@click.pass_context
def main(ctx: click.Context, workspace: str) -> None:
    """A plain-Markdown memory for AI agents that forgets on purpose.

    Set GARDENER_NOW (ISO 8601) to fix the clock for tests and replays.
    """
    ctx.ensure_object(dict)
    ctx.obj["workspace"] = workspace


@main.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@json_option
@click.pass_context
@handle_errors
def init(ctx: click.Context, directory: str | None, as_json: bool) -> None:
    """Create a workspace in DIRECTORY, or adopt the memory files already there."""
    from gardener.workspace import Workspace

    _, result = Workspace.init(Path(directory or ctx.obj["workspace"]))
    if as_json:
        emit(result.as_dict())
        return
    verb = "adopted" if result.adopted else "created"
    click.echo(
        f"{verb} workspace {result.root}"
        + (f" (commit {result.commit[:8]})" if result.commit else "")
    )
    for r in result.redacted:
        click.echo(r.notice())


@main.command()
@click.argument("text")
@click.option(
    "--kind",
    help="identity, preference, decision, fact, event, state, todo or correction.",
)
@click.option(
    "--key",
    help="What the entry is about; two entries with one key are two values of one fact.",
)
@click.option("--source", help="Where the fact comes from.")
@click.option("--by", help="Who writes it (agent or person); the commit's author.")
@click.option(
    "--expires", metavar="YYYY-MM-DD", help="The day the entry stops being true."
)
@click.option(
    "--date",
    "day",
    metavar="YYYY-MM-DD",
    help="The note's day (default: today in the rules' timezone).",
)
@click.option("--time", metavar="HH:MM", help="When it became true (default: now).")
@json_option
@click.pass_context
@handle_errors
def note(ctx: click.Context, text: str, as_json: bool, **options: str | None) -> None:
    """Append TEXT as one entry to today's daily note, and commit it."""
    print_note(_workspace(ctx).note(text, **options), as_json)


@main.command()
@click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")
@click.option(
    "--force", is_flag=True, help="Allow removing more current entries than max_loss."
)
@json_option
@click.pass_context
@handle_errors
def promote(ctx: click.Context, dry_run: bool, force: bool, as_json: bool) -> None:
    """Promote durable entries of the daily notes into MEMORY.md."""
    result = _workspace(ctx).promote(dry_run=dry_run, force=force)
    data = result.as_dict()
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        emit(data)
        return
    for d in result.plan.decisions:
        what = f"{d.key}: {d.value}" if d.key else d.value
        click.echo(
            f"{d.action:9} {what}  ({d.path}:{d.line}{'; ' + d.reason if d.reason else ''})"
        )
    plan = result.plan
    counts = [
        (len(plan.keys("add")) + len(plan.keys("history")), "added"),
        (len(plan.keys("supersede")), "superseded"),
        (len(plan.keys("update")), "updated"),
        (len(plan.keys("reject")), "rejected"),
        (len(plan.keys("held")), "held"),
    ]
    summary = ", ".join(f"{n} {label}" for n, label in counts)
    tail = (
        " (dry run: nothing written)"
        if dry_run
        else (f"; commit {result.commit[:8]}" if result.commit else "; no change")
    )
    click.echo(summary + tail)
    if result.plan.over_budget:
        click.echo(
            f"warning: MEMORY.md is {result.plan.over_budget} characters over its budget (memory_budget_chars in rules.md)",
            err=True,
        )


@main.command()
@click.option("--dry-run", is_flag=True, help="Print what would change; write nothing.")
@click.option(
    "--force", is_flag=True, help="Allow removing more current entries than max_loss."
)
@json_option
@click.pass_context
@handle_errors
def prune(ctx: click.Context, dry_run: bool, force: bool, as_json: bool) -> None:
    """Drop old superseded entries and expired ones; delete daily notes past their TTL."""
    result = _workspace(ctx).prune(dry_run=dry_run, force=force)
    data = result.as_dict()
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        emit(data)
        return
    for line in result.plan.lines():
        click.echo(line)
    for path, why in result.plan.notes_kept:
        click.echo(f"- keep {path}: {why}")
    tail = (
        " (dry run: nothing written)"
        if dry_run
        else (f"; commit {result.commit[:8]}" if result.commit else "")
    )
    click.echo(result.plan.summary(dry_run) + tail)


@main.command()
@click.argument("query", required=False)
@click.option("--key", help="Look one fact up exactly (case- and space-insensitive).")
@click.option(
    "--as-of",
    "as_of",
    metavar="DATE",
    help="What was valid then: YYYY-MM-DD (that whole day) or YYYY-MM-DDTHH:MM.",
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Search the whole history: every note on disk, however old, and "
    "superseded, retired and expired entries too.",
)
@click.option("--limit", type=click.IntRange(min=1), default=10, show_default=True)
@json_option
@click.pass_context
@handle_errors
def recall(
    ctx: click.Context,
    query: str | None,
    key: str | None,
    as_of: str | None,
    everything: bool,
    limit: int,
    as_json: bool,
) -> None:
    """Rank current memory and live notes for QUERY (BM25, then recency)."""
    if not query and not key and not as_of:
        raise click.UsageError("give a QUERY, --key KEY or --as-of DATE")
    if everything and (key or as_of):
        raise click.UsageError(
            "--all searches by QUERY; it does not go with --key or --as-of"
        )
    hits = _workspace(ctx).recall(
        query, key=key, as_of_time=as_of, limit=limit, everything=everything
    )
    empty = "nothing found"
    if as_of:  # MEMORY.md keeps a value's past for the retention period only
        empty += (
            f" (values prune deleted are not in MEMORY.md: `gardener why"
            f" {shlex.quote(key) if key else 'KEY'}` reads them back from git)"
        )
    print_hits(hits, as_json, empty)


@main.command()
@click.argument("key")
@json_option
@click.pass_context
@handle_errors
def why(ctx: click.Context, key: str, as_json: bool) -> None:
    """Print a belief's whole history: each value, its validity, source note and commit."""
    records = _workspace(ctx).why(key)
    if not records:
        raise GardenerError(
            f"no entry has the key {key!r}; search for it with: gardener recall {key!r}"
        )
    if as_json:
        emit({"key": key, "history": [r.as_dict() for r in records]})
        return
    for r in records:
        h = r.hit
        valid = f"{h.since or '?'} .. {h.until or 'now'}"
        where = [f"from {h.origin}" if h.origin else f"{h.path}:{h.line}"]
        if r.removed_in and not h.origin:
            where = []  # no longer on a line of the file: the commits say where
        if r.commit:
            where.append(f"commit {r.commit[:8]}")
        elif not r.removed_in and h.status != "edited":
            where.append("not committed yet")
        if r.removed_in:
            where.append(f"pruned in {r.removed_in[:8]}")
        if r.edited_in:
            where.append(f"replaced by hand in {r.edited_in[:8]}")
        click.echo(f"{valid:36} {h.status:10} {h.value}  ({'; '.join(where)})")


@main.command(short_help="Retire matching entries: recall stops using them.")
@click.argument("query", required=False)
@click.option("--key", help="Forget the entries with this key.")
@click.option("--source", help="Forget the entries from this source.")
@click.option("--by", help="Forget the entries this agent or person wrote.")
@click.option(
    "--dry-run", is_flag=True, help="List what would be retired; write nothing."
)
@click.option(
    "--force", is_flag=True, help="Allow retiring more current entries than max_loss."
)
@json_option
@click.pass_context
@handle_errors
def forget(
    ctx: click.Context,
    query: str | None,
    key: str | None,
    source: str | None,
    by: str | None,
    dry_run: bool,
    force: bool,
    as_json: bool,
) -> None:
    """Retire matching entries: they leave recall, `why` and --as-of still show them."""
    from gardener.planning.forget import describe

    ws = _workspace(ctx)
    result = ws.forget(
        query, key=key, source=source, by=by, dry_run=dry_run, force=force
    )
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        emit(result.as_dict())
        return
    for line in describe(result.plan.retired, result.plan.notes):
        click.echo(line)
    n = len(result.plan.retired) + len(result.plan.notes)
    tail = (
        " (dry run: nothing written)"
        if dry_run
        else (f"; commit {result.commit[:8]}" if result.commit else "")
    )
    click.echo(
        f"{'would retire' if dry_run else 'retired'} {n} entr{'y' if n == 1 else 'ies'}{tail}"
    )


@main.command()
@click.argument("text")
@click.option(
    "--dry-run",
    is_flag=True,
    help="List the files and commits that hold TEXT; change nothing (the default without --yes).",
)
@click.option(
    "--yes",
    is_flag=True,
    help="Erase TEXT from the files and the whole history (irreversible).",
)
@click.option(
    "--ignore-case", is_flag=True, help="Also erase TEXT written in other letter cases."
)
@click.option(
    "--by",
    help="Who asks for the purge (the tombstone's author; default: your user name).",
)
@json_option
@click.pass_context
@handle_errors
def purge(
    ctx: click.Context,
    text: str,
    dry_run: bool,
    yes: bool,
    ignore_case: bool,
    by: str | None,
    as_json: bool,
) -> None:
    """Erase TEXT from the files and every commit: a leaked secret, a right to erasure.

    Without --yes nothing changes. TEXT "-" reads it from stdin, out of shell history.
    """
    if dry_run and yes:
        raise click.UsageError("give --dry-run or --yes, not both")
    if text == "-":
        text = sys.stdin.read().rstrip("\n")
    result = _workspace(ctx).purge(
        text, dry_run=not yes, by=by, ignore_case=ignore_case
    )
    if as_json:
        emit(result.as_dict())
    else:
        for line in result.lines():
            click.echo(line)
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)


@main.command()
@click.argument("review_id")
@json_option
@click.pass_context
@handle_errors
def approve(ctx: click.Context, review_id: str, as_json: bool) -> None:
    """Promote a held entry after all (REVIEW_ID from `gardener check`)."""
    result = _workspace(ctx).review(review_id, approve=True)
    if as_json:
        emit(result.as_dict() if result else {})
    else:
        click.echo(
            f"approved {review_id}"
            + (f"; commit {result.commit[:8]}" if result and result.commit else "")
        )


@main.command()
@click.argument("review_id")
@json_option
@click.pass_context
@handle_errors
def reject(ctx: click.Context, review_id: str, as_json: bool) -> None:
    """Never promote a held entry (REVIEW_ID from `gardener check`); it stays in its note."""
    _workspace(ctx).review(review_id, approve=False)
    if as_json:
        emit({"rejected": review_id})
    else:
        click.echo(f"rejected {review_id}: it will never be promoted")


@main.command()
@click.option(
    "--history", is_flag=True, help="Also scan every blob in git history for secrets."
)
@click.option(
    "--staged",
    is_flag=True,
    help="Only scan the files staged for commit (the pre-commit hook).",
)
@json_option
@click.pass_context
@handle_errors
def check(ctx: click.Context, history: bool, staged: bool, as_json: bool) -> None:
    """Report parse problems, conflicting values, secrets and an over-budget MEMORY.md."""
    problems = _workspace(ctx).check(history=history, staged=staged)
    if as_json:
        emit({"problems": [p.as_dict() for p in problems]})
    else:
        for p in problems:
            where = f"{p.path}:{p.line}" if p.line else p.path
            click.echo(f"{where}: {p.kind}: {p.message}")
        click.echo(f"{len(problems)} problem(s)" if problems else "no problems")
    if problems:
        sys.exit(EXIT_PROBLEMS)


@main.command()
@click.argument("directory", required=False, type=click.Path(file_okay=False))
@json_option
@handle_errors
def demo(directory: str | None, as_json: bool) -> None:
    """Replay the example agent's six weeks of notes in a scratch workspace."""
    from gardener.cli.demo import replay

    root, reports = replay(
        Path(directory) if directory else None,
        None if as_json else lambda r: click.echo(r.line()),
    )
    if as_json:
        emit({"workspace": str(root), "days": [dict(r.__dict__) for r in reports]})
        return
    click.echo("")
    click.echo(f"workspace: {root}")
    click.echo("look next at:")
    click.echo(f"  cat {root}/MEMORY.md")
    click.echo(f"  git -C {root} log -p MEMORY.md")
    click.echo(f"  {_program()} -w {root} why database")


def _program() -> str:
    """How to run this gardener again: its name if on PATH, else its full path."""
    import shutil

    if shutil.which("gardener"):
        return "gardener"
    if Path(sys.argv[0]).name == "gardener":
        return str(Path(sys.argv[0]).resolve())
    return f"{sys.executable} -m gardener"


@main.command()
@click.option(
    "--idle",
    type=click.FloatRange(min=0),
    default=300,
    show_default=True,
    help="Promote after this many seconds without writes (0: never).",
)
@click.option(
    "--debounce",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    help="Record a file once it has been quiet this many seconds.",
)
@click.option(
    "--rescan",
    type=click.FloatRange(min=1),
    default=180,
    show_default=True,
    help="Seconds between full rescans (they catch what events missed).",
)
@click.option(
    "--polling", is_flag=True, help="Poll instead of inotify (network file systems)."
)
@click.pass_context
@handle_errors
def watch(
    ctx: click.Context, idle: float, debounce: float, rescan: float, polling: bool
) -> None:
    """Commit what agents and people write to the memory files; promote when idle, prune daily."""
    from gardener.watch.watcher import watch as run

    run(_workspace(ctx), idle=idle, debounce=debounce, rescan=rescan, polling=polling)
