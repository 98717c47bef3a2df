"""The MCP server: the tools of ``gardener.mcp.tools`` registered on the SDK's ``MCPServer``, its resources, its instructions and its idle gardening.

Only this module (and ``texts``, its words) imports the SDK; ``build`` makes
the server, ``serve`` runs it on a transport. Each tool's docstring is what
the model reads; its annotations tell the host whether it writes.
"""

from __future__ import annotations

import functools
import importlib.metadata
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import date
from typing import Annotated, Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.shared.subscriptions import ResourceUpdated
from mcp.types import ToolAnnotations
from pydantic import Field, ValidationError

from gardener.errors import GardenerError
from gardener.mcp import texts
from gardener.mcp.schedule import Gardening
from gardener.mcp.tools import MAX_RESULTS, Tools
from gardener.model.config import Config
from gardener.workspace import Workspace

log = logging.getLogger("gardener.mcp")

MEMORY_URI = "memory://MEMORY.md"
NOTES_URI = "memory://notes/{date}"
RULES_URI = "memory://rules.md"

READ = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True,
    open_world_hint=False,
)  # fmt: skip
ADD = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False,
    open_world_hint=False,
)  # fmt: skip
PASS = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True,
    open_world_hint=False,
)  # fmt: skip
RETIRE = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True,
    open_world_hint=False,
)  # fmt: skip

Text = Annotated[str | None, Field(max_length=2000)]


def build(
    ws: Workspace,
    *,
    read_only: bool = False,
    prefix: str = "",
    idle: float | None = 300.0,
) -> MCPServer[Any]:
    """The server over ``ws``. ``read_only``: the reading tools only;
    ``prefix`` goes before every tool name; ``idle``: seconds without writes
    before the server promotes (and prunes once a day) on its own, None for
    never (and always None when ``read_only``)."""
    gardening = None if read_only or idle is None else Gardening(idle, time.monotonic())
    tools = Tools(ws, gardening, prefix)
    bus = InMemorySubscriptionBus()
    chosen = [
        t for t in _tools(tools, prefix) if not read_only or t.annotations == READ
    ]

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[dict[str, object]]:
        async with anyio.create_task_group() as group:
            if gardening is not None:
                group.start_soon(_tend, tools, gardening, bus)
            yield {}
            group.cancel_scope.cancel()

    server: MCPServer[Any] = MCPServer(
        "memory-gardener",
        version=importlib.metadata.version("memory-gardener"),
        instructions=texts.instructions(prefix, read_only),
        tools=chosen,
        subscriptions=bus,
        lifespan=lifespan,
        log_level="WARNING",
    )
    _resources(server, tools)
    return server


def serve(server: MCPServer[Any], transport: str, host: str, port: int) -> None:
    """Run ``server`` until the host closes it (stdio) or it is stopped (HTTP)."""
    if transport == "stdio":
        anyio.run(server.run_stdio_async)
    else:
        anyio.run(
            functools.partial(server.run_streamable_http_async, host=host, port=port)
        )


async def _tend(
    tools: Tools, gardening: Gardening, bus: InMemorySubscriptionBus
) -> None:
    """The idle promote and the daily prune, for as long as the server runs."""
    while True:
        await anyio.sleep(gardening.wait(time.monotonic()))
        try:
            today = tools.ws.now().date()  # the rules' timezone: rules.md may be broken
        except GardenerError as exc:
            log.warning("gardener mcp: not gardening: %s", exc.location_message())
            continue
        for job in gardening.due(time.monotonic(), today):
            try:
                changed = await anyio.to_thread.run_sync(tools.tend, job)
            except (GardenerError, OSError) as exc:  # say it, keep serving
                log.warning("gardener mcp: the idle %s failed: %s", job, exc)
                continue
            if changed:
                await bus.publish(ResourceUpdated(uri=MEMORY_URI))


async def _run(call: Callable[[], Any]) -> Any:
    """``call()`` on a worker thread, a GardenerError turned into a tool error."""
    try:
        return await anyio.to_thread.run_sync(call)
    except GardenerError as exc:
        raise ToolError(exc.location_message()) from exc


async def _changed(ctx: Context, done: dict[str, object]) -> dict[str, object]:
    """Tell the clients MEMORY.md changed when ``done`` made a commit."""
    if done.get("commit"):
        await ctx.notify_resource_updated(MEMORY_URI)
    return done


def _client(ctx: Context) -> str | None:
    """The MCP client's name (its ``clientInfo``), for ``by``; None if it gave none."""
    params = getattr(ctx.session, "client_params", None)
    name = params.client_info.name if params and params.client_info else None
    return name.strip() or None if isinstance(name, str) else None


class _Checked(Tool):
    """A Tool whose invalid arguments are answered without their values: the
    SDK's message quotes them, and a text refused for its type or length may
    hold a secret (never-store: a refusal never echoes the text)."""

    async def run(
        self, arguments: dict[str, Any], context: Any, convert_result: bool = False
    ) -> Any:
        try:
            self.fn_metadata.validate_arguments(arguments)
        except ValidationError as exc:
            said = "; ".join(
                f"{'.'.join(str(part) for part in e['loc']) or 'arguments'}: {e['msg']}"
                for e in exc.errors(include_url=False, include_input=False)
            )
            raise ToolError(
                f"Error executing tool {self.name}: invalid arguments: {said}"
            ) from None
        return await super().run(arguments, context, convert_result)


def _tool(
    fn: Callable[..., Awaitable[dict[str, Any]]],
    annotations: ToolAnnotations,
    prefix: str,
    renamed: dict[str, str] | None = None,
) -> Tool:
    """A Tool of ``fn`` named ``prefix`` + its name, its description the
    model's text in ``texts.TOOLS``; ``renamed`` maps wire names that are
    Python keywords (``from``) to ``fn``'s parameters."""
    made = _Checked.from_function(
        fn, name=prefix + fn.__name__,
        description=texts.named(texts.TOOLS[fn.__name__], prefix),
        annotations=annotations,
    )  # fmt: skip
    for spec in made.parameters.get("properties", {}).values():
        if "description" in spec:  # an argument's words may name a tool too
            spec["description"] = texts.named(spec["description"], prefix)
    if renamed:

        async def call(**kwargs: Any) -> dict[str, Any]:
            for wire, name in renamed.items():
                if wire in kwargs:
                    kwargs[name] = kwargs.pop(wire)
            return await fn(**kwargs)

        made = made.model_copy(update={"fn": call})
    return made


def _tools(tools: Tools, prefix: str) -> list[Tool]:
    """Every tool, reading ones first."""

    async def memory_search(
        query: Text = None,
        maxResults: Annotated[int | None, Field(ge=1, le=MAX_RESULTS)] = None,
        minScore: Annotated[float | None, Field(ge=0, le=1)] = None,
        key: Text = None,
        asOf: Annotated[str | None, Field(description=texts.AS_OF)] = None,
        includeHistory: bool = False,
        q: Annotated[Text, Field(description="Alias of query.")] = None,
        text: Annotated[Text, Field(description="Alias of query.")] = None,
        limit: Annotated[
            int | None, Field(ge=1, le=MAX_RESULTS, description="Alias of maxResults.")
        ] = None,
        top_k: Annotated[
            int | None, Field(ge=1, le=MAX_RESULTS, description="Alias of maxResults.")
        ] = None,
    ) -> dict[str, Any]:
        asked = query or q or text
        most = maxResults or limit or top_k
        return await _run(
            lambda: tools.search(
                asked, max_results=most, min_score=minScore, key=key, as_of=asOf,
                include_history=includeHistory,
            )
        )  # fmt: skip

    async def memory_get(
        path: Annotated[str, Field(max_length=500)],
        from_: Annotated[int | None, Field(alias="from", ge=1)] = None,
        lines: Annotated[int | None, Field(ge=1)] = None,
    ) -> dict[str, Any]:
        return await _run(lambda: tools.get(path, from_ or 1, lines))

    async def memory_why(key: Annotated[str, Field(max_length=200)]) -> dict[str, Any]:
        return await _run(lambda: tools.why(key))

    async def memory_status() -> dict[str, Any]:
        return await _run(tools.status)

    async def memory_review(
        limit: Annotated[int, Field(ge=1, le=MAX_RESULTS)] = 20,
        after: str | None = None,
    ) -> dict[str, Any]:
        return await _run(lambda: tools.review(limit, after))

    async def memory_note(
        ctx: Context,
        text: str,
        kind: Annotated[str | None, Field(description=texts.KIND)] = None,
        key: Annotated[str | None, Field(description=texts.KEY)] = None,
        source: Text = None,
        expires: Annotated[
            str | None, Field(description="YYYY-MM-DD: the fact stops holding then.")
        ] = None,
        by: Annotated[str | None, Field(description=texts.BY)] = None,
    ) -> dict[str, Any]:
        writer = by or _client(ctx)
        return await _run(
            lambda: tools.note(
                text, kind=kind, key=key, source=source, by=writer, expires=expires
            )
        )

    async def memory_forget(
        ctx: Context,
        query: Text = None,
        key: Text = None,
        source: Text = None,
        by: Text = None,
        dryRun: bool = True,
    ) -> dict[str, Any]:
        done = await _run(
            lambda: tools.forget(query, key=key, source=source, by=by, dry_run=dryRun)
        )
        return await _changed(ctx, done)

    async def memory_promote(ctx: Context, dryRun: bool = False) -> dict[str, Any]:
        return await _changed(ctx, await _run(lambda: tools.promote(dryRun)))

    async def memory_decide(
        ctx: Context,
        judgments: Annotated[
            list[dict[str, Any]],
            Field(min_length=1, max_length=MAX_RESULTS, description=texts.JUDGMENTS),
        ],
    ) -> dict[str, Any]:
        judge = _client(ctx) or "mcp"
        return await _changed(ctx, await _run(lambda: tools.decide(judgments, judge)))

    return [
        _tool(memory_search, READ, prefix),
        _tool(memory_get, READ, prefix, {"from": "from_"}),
        _tool(memory_why, READ, prefix),
        _tool(memory_status, READ, prefix),
        _tool(memory_review, READ, prefix),
        _tool(memory_note, ADD, prefix),
        _tool(memory_forget, RETIRE, prefix),
        _tool(memory_promote, PASS, prefix),
        _tool(memory_decide, ADD, prefix),
    ]


def _resources(server: MCPServer[Any], tools: Tools) -> None:
    """MEMORY.md, one day's note and rules.md, as the model may read them
    (the settings are read at each read: rules.md may change or break)."""

    def read(path: str) -> str:
        try:
            return str(tools.get(path)["text"])
        except GardenerError as exc:
            raise ResourceError(exc.location_message()) from exc

    @server.resource(
        MEMORY_URI, name="MEMORY.md", mime_type="text/markdown",
        description="The curated long-term memory (secrets redacted).",
    )  # fmt: skip
    def memory_file() -> str:
        return read(_config(tools).memory_file)

    @server.resource(
        NOTES_URI, name="daily note", mime_type="text/markdown",
        description="One day's note, memory/YYYY-MM-DD.md (empty if none).",
    )  # fmt: skip
    def daily_note(date: str) -> str:
        return read(f"{_config(tools).notes_dir}/{_day(date)}.md")

    @server.resource(
        RULES_URI, name="rules.md", mime_type="text/markdown",
        description="The workspace's rules: what is kept, for how long, what is never stored.",
    )  # fmt: skip
    def rules_file() -> str:
        return read("rules.md")


def _config(tools: Tools) -> Config:
    try:
        return tools.ws.config
    except GardenerError as exc:
        raise ResourceError(exc.location_message()) from exc


def _day(text: str) -> str:
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError as exc:
        raise ResourceError(f"{text!r} is not a date: use YYYY-MM-DD") from exc
