"""The results: one table (per workspace and total), the JSON, the misses."""

from __future__ import annotations

from collections.abc import Sequence

from .run import Run
from .score import Score, ratio

HEADER = (
    "workspace", "items labelled", "durable recall", "false promotion",
    "supersessions right / missed / wrong", "questions day 1", "questions day 36",
)  # fmt: skip


def percent(part: int, whole: int) -> str:
    """``12/40 (30%)``; ``-`` when there is nothing to measure."""
    r = ratio(part, whole)
    return "-" if r is None else f"{part}/{whole} ({r:.0%})"


def cells(name: str, s: Score) -> tuple[str, ...]:
    labelled = f"{s.labelled}/{s.items}" + (f" ({s.stale} stale)" if s.stale else "")
    pairs = f"{s.right} / {s.missed} / {s.wrong}"
    return (
        name, labelled, percent(s.durable_kept, s.durable),
        percent(s.filed_transient, s.filed), pairs,
        percent(s.day1, s.questions), percent(s.day36, s.questions),
    )  # fmt: skip


def table(rows: Sequence[tuple[str, ...]]) -> str:
    """A Markdown table (readable as text too)."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def text(
    results: Sequence[tuple[Run, Score | None]], total: Score, verbose: bool
) -> str:
    """The table, the setups and skips, errors; with ``verbose`` every miss."""
    rows = [cells(run.workspace, s) for run, s in results if s is not None]
    out = [table([*rows, cells("**total**", total)]), ""]
    for run, _ in results:
        setup = run.setup
        if setup.skip:
            out.append(f"- {run.workspace}: not measured: {setup.skip}")
        elif setup.why:
            out.append(f"- {run.workspace}: {setup.why}")
        for error in run.errors:
            out.append(f"- {run.workspace}: error: {error.strip().splitlines()[0]}")
    queues = [(run, run.queue) for run, s in results if s is not None]
    if queues:
        out += [
            "",
            "Judge queue after day 1's promote (pending entries, by label):",
            "",
        ]
        for run, queue in queues:
            by = (
                ", ".join(f"{n} {label}" for label, n in sorted(queue.items()))
                or "empty"
            )
            answered = f"; the oracle judge answered {run.judged}" if run.judged else ""
            out.append(f"- {run.workspace}: {sum(queue.values())} ({by}){answered}")
    if verbose:
        for run, s in results:
            if s is None or not s.misses and not run.answers:
                continue
            out += ["", f"## {run.workspace} (day 1 = {run.day1})"]
            for m in s.misses:
                label = f" [{m.label}]" if m.label else ""
                heading, body = run.items.get(_item(m.where), ("", ""))
                shown = f"  «{body[:70]}»" if body else ""
                out.append(f"- {m.what}: {m.where}{label}: {m.did}{shown}")
            for day, answers in sorted(run.answers.items(), key=lambda x: int(x[0])):
                for a in answers:
                    if not a.answered:
                        out.append(
                            f"- day {day} unanswered: {a.question}  top 3: {', '.join(a.hits) or 'nothing'}"
                        )
    return "\n".join(out)


def _item(where: str) -> tuple[str, int]:
    path, _, line = where.partition(" ")[0].rpartition(":")
    return (path, int(line)) if line.isdigit() else ("", 0)


def as_json(
    results: Sequence[tuple[Run, Score | None]], total: Score, verbose: bool
) -> dict[str, object]:
    """The figures as JSON: counts and ratios per workspace and in total; the
    wrong pairs always, every miss with ``verbose`` (no note text)."""
    workspaces = []
    for run, s in results:
        entry: dict[str, object] = {
            "workspace": run.workspace,
            "setup": {"notes_dir": run.setup.notes_dir, "renames": [list(r) for r in run.setup.renames], "why": run.setup.why},
            "skipped": run.setup.skip or None,
            "day1": str(run.day1) if run.day1 else None,
            "notes_pruned": list(run.pruned),
            "notes_kept": [list(k) for k in run.kept],
            "errors": [e.strip().splitlines()[0] for e in run.errors],
        }  # fmt: skip
        if s is not None:
            entry.update(figures(s, verbose))
        workspaces.append(entry)
    return {"workspaces": workspaces, "total": figures(total, verbose)}


def figures(s: Score, verbose: bool) -> dict[str, object]:
    out: dict[str, object] = {
        "items": s.items, "labelled": s.labelled, "stale_labels": s.stale,
        "durable": s.durable, "durable_kept": s.durable_kept,
        "durable_recall": ratio(s.durable_kept, s.durable),
        "filed": s.filed, "filed_transient": s.filed_transient,
        "false_promotion": ratio(s.filed_transient, s.filed),
        "pairs": s.pairs, "right": s.right, "missed": s.missed, "wrong": s.wrong,
        "questions": s.questions, "answered_day1": s.day1, "answered_day36": s.day36,
        "wrong_pairs": [m.where for m in s.misses if m.what == "wrong pair"],
    }  # fmt: skip
    if verbose:
        out["misses"] = [m.__dict__ for m in s.misses]
    return out
