"""Ask a model through the ``llm`` library to judge pending items: the I/O edge.

``llm`` (the optional extra) is imported when a model is asked, never when
this module is, so a workspace without a judge neither needs nor loads it.
The model is one of the user's own: their ``llm`` plugins, keys and default
model.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gardener.judge.prompt import ANSWER_SCHEMA, build_prompt, parse_answer

if TYPE_CHECKING:
    from llm import Model

MISSING = "judge: llm needs the llm extra: pip install 'memory-gardener[llm]'"
# an error from a model can carry a whole HTTP body; a report line needs its start
_ERROR_CHARS = 200


@dataclass(frozen=True, slots=True)
class JudgeRun:
    """What a judge pass brought back."""

    decisions: tuple[dict[str, str], ...]  # well-shaped judgments (prompt.parse_answer)
    asked: int  # items sent to the model, in batches that were tried
    errors: tuple[str, ...]  # one line per failure: "judge: MODEL: batch N of M: why"
    model: str = ""  # the id of the model asked (the default's, for None); "" if none


def judge_with_llm(
    model_id: str | None,
    instructions: str,
    pending: Sequence[Mapping[str, object]],
    *,
    batch: int = 20,
    limit: int = 60,
    timeout_s: float = 60.0,
) -> JudgeRun:
    """Ask model ``model_id`` (None: ``llm``'s default model) to judge the first
    ``limit`` items of ``pending``, ``batch`` items to a prompt, with
    ``instructions`` (rules.md's body) in the system prompt.

    Each batch waits at most ``timeout_s`` seconds for its answer, and the pass
    at most ``timeout_s`` per batch in all. A batch that fails (no such model,
    no key, an error from the model, a timeout, an answer that is not the JSON
    asked for) brings back no judgment for its items and one line in
    ``errors``; nothing is guessed and nothing raises. A model that supports
    schemas gets ``ANSWER_SCHEMA``. A timed-out answer is left to finish in a
    daemon thread, its text unread.
    """
    try:
        import llm
    except ImportError:
        return JudgeRun((), 0, (MISSING,))
    items = list(pending)[: max(limit, 0)]
    if not items:
        return JudgeRun((), 0, ())
    size = max(batch, 1)
    chunks = [items[start : start + size] for start in range(0, len(items), size)]
    name = model_id or "the default model"
    try:
        model = llm.get_model(model_id)
    except llm.UnknownModelError as error:
        return JudgeRun((), 0, (f"judge: {_reason(error)}",))
    except Exception as error:  # a broken plugin fails here, whatever its error
        return JudgeRun((), 0, (f"judge: {name}: {_reason(error)}",))
    name = model.model_id
    # counted from here: loading the user's plugins is no model's answer time
    deadline = time.monotonic() + timeout_s * len(chunks)
    schema = ANSWER_SCHEMA if model.supports_schema else None
    decisions: list[dict[str, str]] = []
    errors: list[str] = []
    asked = 0
    for number, chunk in enumerate(chunks, start=1):
        where = f"judge: {name}: batch {number} of {len(chunks)}"
        left = deadline - time.monotonic()
        if left <= 0:
            errors.append(f"{where}: not asked, out of time")
            continue
        system, prompt = build_prompt(instructions, chunk)
        asked += len(chunk)
        wait = min(timeout_s, left)
        text, failure = _ask(model, system, prompt, schema, wait)
        if text is None:
            errors.append(f"{where}: {failure}")
            continue
        try:
            decisions.extend(
                parse_answer(text, {str(item.get("id")) for item in chunk})
            )
        except ValueError as error:
            errors.append(f"{where}: {error}")
    return JudgeRun(tuple(decisions), asked, tuple(errors), name)


def _ask(
    model: Model,
    system: str,
    prompt: str,
    schema: dict[str, object] | None,
    wait: float,
) -> tuple[str | None, str]:
    """The model's answer text and "", or None and why there is none, waiting at
    most ``wait`` seconds.

    The call runs in a daemon thread so that a model that never answers holds
    neither this pass nor the interpreter's exit (a pool's worker would be
    joined at exit).
    """
    box: dict[str, str] = {}

    def run() -> None:
        try:
            box["text"] = model.prompt(prompt, system=system, schema=schema).text()
        except Exception as error:  # any model's, any plugin's: reported, never raised
            box["error"] = _reason(error)

    thread = threading.Thread(target=run, name="gardener-judge", daemon=True)
    thread.start()
    thread.join(wait)
    if thread.is_alive():
        return None, f"no answer within {wait:.3g} s"
    if "text" in box:
        return box["text"], ""
    return None, box.get("error", "no answer")


def _reason(error: BaseException) -> str:
    """``error`` in one short line: its class and first argument."""
    detail = error.args[0] if len(error.args) == 1 else str(error)
    line = " ".join(str(detail).split())
    if len(line) > _ERROR_CHARS:
        line = line[: _ERROR_CHARS - 3] + "..."
    return f"{type(error).__name__}: {line}" if line else type(error).__name__
