"""Deterministic models for the ``llm`` library, registered through its plugin hook.

Each reads the pending items from the prompt (the ``{"pending": ...}`` line
``gardener.judge.prompt.build_prompt`` writes), answers by a fixed policy, and
records every prompt it was sent in ``calls``. ``registered()`` puts them in
``llm``'s plugin manager for the length of a ``with`` block (the
``llm_judges`` fixture in tests/conftest.py wraps it); a test reaches a model
as ``plugin.models["gardener-test-judge"]``.

gardener-test-judge     durable for a text saying "always", "prefers" or "is" (a preference
                        for "prefers", else a fact), keyed by nearest_keys[0] when
                        there is one; transient otherwise. Supports schemas.
gardener-test-plain     the same policy, no schema support, its JSON in a fenced block
                        after a sentence of prose
gardener-test-garbage   prose, no JSON
gardener-test-slow      the judge's answer, after 3 s (or when the plugin is released)
gardener-test-wrongids  judges ids that were not asked
gardener-test-synonym   files a database entry under the database key spelled as in
                        nearest_keys when one is there, else under its own "db"
gardener-test-broken    raises, as a model whose server fails would
gardener-test-needskey  needs a key (GARDENER_TEST_KEY) nobody set
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import llm


def item(
    ident: str,
    text: str,
    nearest_keys: Sequence[str] = (),
    current: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A pending item of ``gardener review --json``'s shape."""
    return {
        "id": ident,
        "path": "memory/2026-03-01.md",
        "line": 3,
        "since": "2026-03-01T09:30",
        "text": text,
        "headings": ["Setup"],
        "why": "undecided",
        "guess": {"kind": None, "key": None, "value": text, "action": "skip"},
        "current": current,
        "nearest_keys": list(nearest_keys),
    }


def pending_of(prompt: llm.Prompt) -> list[dict[str, Any]]:
    """The items in a prompt build_prompt wrote."""
    for line in (prompt.prompt or "").splitlines():
        if line.startswith('{"pending":'):
            items: list[dict[str, Any]] = json.loads(line)["pending"]
            return items
    raise AssertionError("no pending items in the prompt")


def judge(entry: dict[str, Any]) -> dict[str, str]:
    """gardener-test-judge's policy for one item."""
    words = set(re.findall(r"\w+", entry["text"].casefold()))
    if not words & {"always", "prefers", "is"}:
        return {"id": entry["id"], "verdict": "transient"}
    kind = "preference" if "prefers" in words else "fact"
    judgment = {"id": entry["id"], "verdict": "durable", "kind": kind}
    if entry.get("nearest_keys"):
        judgment["key"] = entry["nearest_keys"][0]
    return judgment


class TestModel(llm.Model):
    """A model answering ``answer(items)``; its prompts are kept in ``calls``."""

    __test__ = False  # not a pytest test class
    can_stream = False

    def __init__(self, model_id: str, supports_schema: bool = False) -> None:
        self.model_id = model_id
        self.supports_schema = supports_schema
        self.calls: list[llm.Prompt] = []

    def answer(self, items: list[dict[str, Any]]) -> str:
        return json.dumps({"decisions": [judge(entry) for entry in items]})

    def execute(
        self,
        prompt: llm.Prompt,
        stream: bool,
        response: llm.Response,
        conversation: llm.Conversation | None,
    ) -> Iterator[str]:
        self.calls.append(prompt)
        yield self.answer(pending_of(prompt))


class Plain(TestModel):
    def answer(self, items: list[dict[str, Any]]) -> str:
        return f"Here is what I decided:\n```json\n{super().answer(items)}\n```\n"


class Garbage(TestModel):
    def answer(self, items: list[dict[str, Any]]) -> str:
        return "These all look worth keeping to me!"


class Slow(TestModel):
    def __init__(self, model_id: str, release: threading.Event) -> None:
        super().__init__(model_id)
        self.release = release

    def answer(self, items: list[dict[str, Any]]) -> str:
        self.release.wait(3.0)
        return super().answer(items)


class WrongIds(TestModel):
    def answer(self, items: list[dict[str, Any]]) -> str:
        judged = [{**judge(entry), "id": entry["id"] + "x"} for entry in items]
        return json.dumps({"decisions": judged})


# the keys a model might write for the database an entry names, as it would
# compare them: case and punctuation aside
DATABASE_SPELLINGS = {"db", "database", "dbengine", "databaseengine"}


def _bare(key: str) -> str:
    return re.sub(r"\W+", "", key.casefold())


class Synonym(TestModel):
    def answer(self, items: list[dict[str, Any]]) -> str:
        judged = []
        for entry in items:
            words = set(re.findall(r"\w+", entry["text"].casefold()))
            if not words & {"db", "database", "postgres", "sqlite"}:
                judged.append({"id": entry["id"], "verdict": "transient"})
                continue
            known = [
                k
                for k in entry.get("nearest_keys", [])
                if _bare(k) in DATABASE_SPELLINGS
            ]
            key = known[0] if known else "db"
            judged.append(
                {"id": entry["id"], "verdict": "durable", "kind": "fact", "key": key}
            )
        return json.dumps({"decisions": judged})


class Broken(TestModel):
    def answer(self, items: list[dict[str, Any]]) -> str:
        raise RuntimeError("upstream said 502 Bad Gateway")


class NeedsKey(llm.KeyModel):
    model_id = "gardener-test-needskey"
    needs_key = "gardener-test"
    key_env_var = "GARDENER_TEST_KEY"

    def execute(
        self,
        prompt: llm.Prompt,
        stream: bool,
        response: llm.Response,
        conversation: llm.Conversation | None,
        key: str | None,
    ) -> Iterator[str]:
        yield json.dumps({"decisions": []})


class Plugin:
    """The ``llm`` plugin: its ``register_models`` hook registers ``models``."""

    def __init__(self) -> None:
        self.release = threading.Event()
        models: list[llm.Model] = [
            TestModel("gardener-test-judge", supports_schema=True),
            Plain("gardener-test-plain"),
            Garbage("gardener-test-garbage"),
            Slow("gardener-test-slow", self.release),
            WrongIds("gardener-test-wrongids"),
            Synonym("gardener-test-synonym"),
            Broken("gardener-test-broken"),
            NeedsKey(),
        ]
        self.models = {model.model_id: model for model in models}

    @llm.hookimpl
    def register_models(self, register: Any) -> None:
        for model in self.models.values():
            register(model)


@contextmanager
def registered() -> Iterator[Plugin]:
    """The test models, registered with ``llm`` until the block ends."""
    plugin = Plugin()
    llm.plugins.pm.register(plugin, name="gardener-test-models")
    try:
        yield plugin
    finally:
        plugin.release.set()  # a slow answer still running finishes now
        llm.plugins.pm.unregister(name="gardener-test-models")
