"""What each MCP tool does, as plain calls on a ``Workspace``: arguments in, a JSON-ready dict out.

No SDK here (``gardener.mcp.server`` registers these as tools), so each can
be called and tested as a function. Every write goes through ``Tools.writes``,
one at a time, whichever thread or task called it. Errors are GardenerError
(``RefusedError``, ``LossBudgetError``...), which the server answers as a
tool error with the message; no message echoes a refused text. A server runs
for days: when rules.md changes, the next call reads it again (its never-store
rules above all), as the CLI's next command would.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from gardener.errors import GardenerError, LossBudgetError, UsageError
from gardener.workspace import Workspace

if TYPE_CHECKING:
    from gardener.mcp.schedule import Gardening
    from gardener.model.hit import Hit

T = TypeVar("T")

MAX_RESULTS = 50  # memory_search answers at most this many results
DEFAULT_RESULTS = 6  # OpenClaw's default maxResults
SNIPPET_CHARS = 700  # a result's snippet is cut to this many characters
MAX_TEXT_CHARS = 60_000  # memory_get returns at most this much text
MAX_PROBLEMS = 50  # memory_status lists at most this many problems
FORCE_HINT = "a person can allow it from a shell with --force; the tools never force"


class Tools:
    """The tools over one workspace. ``gardening``: the idle scheduler told of
    each write (None: the server does not garden on its own); ``prefix``: what
    the server puts before the tool names, for the names a message gives."""

    def __init__(
        self, ws: Workspace, gardening: Gardening | None = None, prefix: str = ""
    ) -> None:
        self._ws = ws
        self._rules: object = _UNREAD  # ws may hold settings read before
        self.gardening = gardening
        self.prefix = prefix
        self.writes = threading.Lock()  # concurrent tool calls write one at a time

    @property
    def ws(self) -> Workspace:
        """The workspace, opened again if rules.md changed since the last call
        (its settings are read at first use: a broken rules.md is then each
        call's GardenerError, never the server's end)."""
        now = _stamp(self._ws)
        if now != self._rules:
            self._ws, self._rules = Workspace(self._ws.root, self._ws.now_override), now
        return self._ws

    def _write(self, run: Callable[[], T]) -> T:
        with self.writes:
            try:
                return run()
            finally:
                if self.gardening is not None:
                    self.gardening.wrote(time.monotonic())

    # -- reading ---------------------------------------------------------------
    def search(
        self,
        query: str | None = None,
        *,
        max_results: int | None = None,
        min_score: float | None = None,
        key: str | None = None,
        as_of: str | None = None,
        include_history: bool = False,
    ) -> dict[str, object]:
        """``{"results": [result, ...]}``, best first (see ``result``): recall's
        hits for ``query``; one ``key``'s values; what held at ``as_of``; with
        ``include_history``, superseded and retired values too. ``min_score``
        is on the results' 0-1 scale."""
        if not (query or "").strip() and not key and not as_of:
            raise UsageError(
                "memory_search needs a query (or a key, or asOf): say what to look for"
            )
        limit = max(1, min(max_results or DEFAULT_RESULTS, MAX_RESULTS))
        if key and include_history and not as_of:
            hits = [r.hit for r in self.ws.why(key)]
            if query:
                hits = [h for h in hits if query.casefold() in h.text.casefold()]
            hits.reverse()  # the newest value first
        else:
            hits = self.ws.recall(
                query or None, key=key, as_of_time=as_of, limit=limit,
                everything=include_history,
            )  # fmt: skip
        if key and not hits and not as_of:
            hits = self._noted(key, query, limit)
        top = max((h.score for h in hits), default=0.0)
        results = [result(h, top) for h in hits]
        if min_score is not None:
            results = [r for r in results if r["score"] >= min_score]
        return {"results": results[:limit]}

    def _noted(self, key: str, query: str | None, limit: int) -> list[Hit]:
        """The live note entries of ``key`` (any case), best first: a key noted
        but not promoted yet is remembered, and an empty answer would tell the
        model it is not."""
        wanted = key.strip().casefold()
        hits = self.ws.recall(key, limit=MAX_RESULTS)
        hits = [h for h in hits if h.key and h.key.strip().casefold() == wanted]
        if query:
            hits = [h for h in hits if query.casefold() in h.text.casefold()]
        return hits[:limit]

    def get(
        self, path: str, start: int = 1, lines: int | None = None
    ) -> dict[str, object]:
        """``{"path", "text", "from", "lines", "total", "exists"}`` of a memory
        file (``Workspace.show``), and ``"truncated": True`` with ``"next"`` (the
        line to go on from) when the text was cut at ``MAX_TEXT_CHARS``."""
        shown = self.ws.show(path, start, lines).as_dict()
        text = str(shown["text"])
        if len(text) > MAX_TEXT_CHARS:
            kept = text[:MAX_TEXT_CHARS].rpartition("\n")[0] + "\n"
            count = kept.count("\n")
            shown.update(text=kept, lines=count, truncated=True, next=start + count)
        return shown

    def why(self, key: str) -> dict[str, object]:
        """``{"key", "history": [...]}``: every value the key has had (``gardener why --json``)."""
        records = self.ws.why(key)
        if not records:
            raise GardenerError(
                f"no entry has the key {key!r}; look for it with {self.prefix}memory_search"
            )
        return {"key": key, "history": [r.as_dict() for r in records]}

    def status(self) -> dict[str, object]:
        """``{"ok", "counts", "problems", "held", "memory", "pending"}``: what
        ``gardener check`` finds (at most ``MAX_PROBLEMS``, held entries
        apart), MEMORY.md's size against its budget (characters), and how many
        entries wait for the judge."""
        ws = self.ws
        problems = ws.check()
        try:
            pending: int | None = ws.review(1).total
        except GardenerError:  # an unreadable MEMORY.md: check lists it
            pending = None
        held = [p.as_dict() for p in problems if p.kind == "held"]
        other = [p.as_dict() for p in problems if p.kind != "held"]
        path = ws.memory_path
        size = (
            len(path.read_text(encoding="utf-8", errors="replace"))
            if path.is_file()
            else 0
        )
        return {
            "ok": not problems,
            "counts": dict(Counter(p.kind for p in problems)),
            "problems": other[:MAX_PROBLEMS],
            "held": held[:MAX_PROBLEMS],
            "memory": {
                "path": ws.config.memory_file,
                "chars": size,
                "budget": ws.config.memory_budget_chars,
            },
            "pending": pending,
        }

    def review(self, limit: int = 20, after: str | None = None) -> dict[str, object]:
        """The entries waiting for the judge (``gardener review --json``; the
        page after the pending id ``after``), the tool that answers them in
        ``answer``."""
        queue = self.ws.review(max(1, min(limit, MAX_RESULTS)), after).as_dict()
        return {**queue, "answer": f"{self.prefix}memory_decide"}

    # -- writing ---------------------------------------------------------------
    def note(
        self,
        text: str,
        *,
        kind: str | None = None,
        key: str | None = None,
        source: str | None = None,
        by: str | None = None,
        expires: str | None = None,
    ) -> dict[str, object]:
        """``{"path", "line", "commit", "warnings"}`` of the entry written
        (``gardener note --json``); RefusedError for a never-store match."""
        done = self._write(
            lambda: self.ws.note(
                text, kind=kind, key=key, source=source, by=by, expires=expires
            )
        )
        return done.as_dict()

    def forget(
        self,
        query: str | None = None,
        *,
        key: str | None = None,
        source: str | None = None,
        by: str | None = None,
        dry_run: bool = True,
    ) -> dict[str, object]:
        """What ``gardener forget --json`` prints; nothing is written with ``dry_run``."""
        done = self._write(
            lambda: _unforced(
                lambda: self.ws.forget(
                    query, key=key, source=source, by=by, dry_run=dry_run
                )
            )
        )
        return done.as_dict()

    def promote(self, dry_run: bool = False) -> dict[str, object]:
        """What ``gardener promote --json`` prints."""
        return self._write(
            lambda: _unforced(lambda: self.ws.promote(dry_run))
        ).as_dict()

    def decide(
        self, judgments: Sequence[Mapping[str, object]], by: str
    ) -> dict[str, object]:
        """What ``gardener decide --json`` prints: ``applied``, ``refused`` and the pass."""
        return self._write(
            lambda: _unforced(lambda: self.ws.decide(list(judgments), by))
        ).as_dict()

    def tend(self, job: str) -> bool:
        """Run the scheduler's ``job`` ("promote" or "prune"); True if it committed."""
        run = self.ws.promote if job == "promote" else self.ws.prune
        with self.writes:
            return run().commit is not None


_UNREAD = object()


def _stamp(ws: Workspace) -> tuple[int, int, int] | None:
    """rules.md's (mtime, size, inode); None if it has none."""
    try:
        st = os.stat(ws.root / "rules.md")
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def _unforced(run: Callable[[], T]) -> T:
    try:
        return run()
    except LossBudgetError as exc:
        raise LossBudgetError(f"{exc.message}; {FORCE_HINT}") from exc


def result(hit: Hit, top: float) -> dict[str, Any]:
    """One memory_search result: OpenClaw's ``{path, startLine, endLine, score,
    snippet, source, citation}`` (``score`` 0-1, higher is better: the hit's
    BM25 over the best one's, ``top``; 1.0 when nothing was ranked, as for a
    key or its history), and the gardener's ``status``, ``key``, ``since``,
    ``until`` and ``id``."""
    score = round(hit.score / top, 4) if top > 0 else 1.0
    snippet = (
        hit.text
        if len(hit.text) <= SNIPPET_CHARS
        else hit.text[: SNIPPET_CHARS - 1] + "…"
    )
    return {
        "path": hit.path,
        "startLine": hit.line,
        "endLine": hit.line,
        "score": score,
        "snippet": snippet,
        "source": "memory",
        "citation": f"{hit.path}#L{hit.line}-L{hit.line}",
        "status": hit.status,
        "key": hit.key,
        "since": hit.since,
        "until": hit.until,
        "id": hit.id,
    }
