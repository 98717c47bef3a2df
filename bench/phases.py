"""Where a promote pass spends its time: wall seconds per phase, no profiler.

``phases(call)`` runs ``call`` with each function of ``PHASES`` wrapped in a
timer (at its definition and wherever a loaded gardener module imported it by
name), and returns the seconds each phase took, inclusive of what it calls
(so a nested phase, indented in ``PHASES``, is also counted in its parent).
A wrapper costs well under a microsecond a call, so unlike cProfile the
figures are the pass's own; ``python -m bench.probe phases ROOT NOW`` prints
them for one pass, and ``python -m bench --profile`` for every promote row.
"""

from __future__ import annotations

import functools
import importlib
import sys
import time
from collections.abc import Callable
from typing import Any

# (label, module, attribute: a function or Class.method); two leading spaces
# in a label nest it under the phase above
PHASES = (
    ("record (new text: scan, redact, commit)", "gardener.verbs.record", "record"),
    ("  redaction scan of changed notes", "gardener.verbs.guard", "redact_files"),
    ("  rescan of unscanned text", "gardener.verbs.record", "_scanned_texts"),
    ("  commit", "gardener.verbs.session", "Session.commit"),
    ("scan notes (stat, read, hash, parse)", "gardener.store.notescan", "scan"),
    ("  parse notes", "gardener.formats.dailynote", "parse_note"),
    ("  ledger months", "gardener.store.ledger", "Ledger.read"),
    ("parse MEMORY.md", "gardener.formats.memoryfile", "parse_memory"),
    ("plan", "gardener.planning.promote", "plan_promotion"),
    ("  entry marks", "gardener.model.marks", "entry_marks"),
    ("  classify and key", "gardener.planning.classify", "classify"),
    ("    sentence patterns", "gardener.planning.keying", "match_pattern"),
    ("  never-store of durable texts", "gardener.planning.refusals", "refusals"),
    ("  reconcile", "gardener.planning.reconcile", "Reconciliation.reconcile"),
    ("  render MEMORY.md", "gardener.formats.memoryfile", "render_memory"),
    ("commit message", "gardener.verbs.messages", "promote_message"),
    ("write and commit", "gardener.verbs.session", "Session.apply"),
    ("remember (caches)", "gardener.verbs.promote", "_learned"),
)


CPU = "cpu:"  # the prefix of a phase's CPU seconds in ``phases``' answer


def _timed(fn: Callable[..., Any], label: str, spent: dict[str, float]) -> Any:
    depth = [0]  # a recursive call is counted once, at its outermost

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if depth[0]:
            return fn(*args, **kwargs)
        depth[0] += 1
        started, cpu = time.perf_counter(), time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[label] += time.perf_counter() - started
            spent[CPU + label] += time.process_time() - cpu
            depth[0] -= 1

    return wrapper


def _patch(spent: dict[str, float]) -> list[tuple[object, str, object]]:
    """Wrap every phase's function; return (owner, name, original) to undo it."""
    undo: list[tuple[object, str, object]] = []
    for label, module_name, attr in PHASES:
        module = importlib.import_module(module_name)
        owner: Any = module
        *path, name = attr.split(".")
        for part in path:
            owner = getattr(owner, part)
        original = owner.__dict__[name]
        wrapped = _timed(original, label, spent)
        setattr(owner, name, wrapped)
        undo.append((owner, name, original))
        if path:
            continue  # a method: every caller finds it on its class
        for other in list(sys.modules.values()):  # imported by name elsewhere
            if (other is not module and getattr(other, "__name__", "").startswith("gardener")
                    and getattr(other, name, None) is original):  # fmt: skip
                setattr(other, name, wrapped)
                undo.append((other, name, original))
    return undo


def phases(call: Callable[[], object]) -> tuple[float, dict[str, float]]:
    """(wall seconds of ``call``, seconds per ``PHASES`` label) for one call."""
    # import what a pass loads first, so that every by-name import is patched
    import gardener.verbs.promote  # noqa: F401

    spent = dict.fromkeys((label for label, _, _ in PHASES), 0.0)
    spent.update(dict.fromkeys((CPU + label for label, _, _ in PHASES), 0.0))
    undo = _patch(spent)
    try:
        started, cpu = time.perf_counter(), time.process_time()
        call()
        total = time.perf_counter() - started
        spent[CPU] = time.process_time() - cpu
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)
    return total, spent


def report(total: float, spent: dict[str, float]) -> str:
    """The phases as lines: wall and CPU seconds, the wall share of the pass,
    and what no phase covers as 'other'."""
    cpu_total = spent.get(CPU, 0.0)
    lines = [f"pass {total:.3f} s (CPU {cpu_total:.3f} s)"]
    top = cpu_top = 0.0
    for label, seconds in spent.items():
        if label.startswith(CPU):
            continue
        cpu = spent.get(CPU + label, 0.0)
        if not label.startswith(" "):
            top, cpu_top = top + seconds, cpu_top + cpu
        lines.append(_line(label, seconds, cpu, total))
    lines.append(_line("other", total - top, cpu_total - cpu_top, total))
    return "\n".join(lines)


def _line(label: str, seconds: float, cpu: float, total: float) -> str:
    share = 100 * seconds / total if total else 0.0
    return f"  {label:<44} {seconds:7.3f} s  CPU {cpu:7.3f} s {share:5.1f}%"
