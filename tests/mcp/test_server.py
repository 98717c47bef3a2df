"""The server in-process, through the SDK's own client, in the current and the legacy protocol mode."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import CallToolResult, Implementation

from gardener import Workspace
from gardener.mcp.server import build

MODES = ["auto", "legacy"]
HOST = Implementation(name="test-host", version="1.0")


def run(
    ws: Workspace, mode: str, body: Callable[[Client], Awaitable[None]], **options: Any
) -> None:
    server = build(ws, idle=None, **options)

    async def main() -> None:
        async with Client(server, mode=mode, client_info=HOST) as client:
            await body(client)

    anyio.run(main)


def data(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return dict(result.structured_content)
    return json.loads(result.content[0].text)  # type: ignore[union-attr]


def error(result: CallToolResult) -> str:
    assert result.is_error, result
    return result.content[0].text  # type: ignore[union-attr]


def git(ws: Workspace, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ws.root, capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize("mode", MODES)
def test_tools_are_listed_with_schemas_and_annotations(ws: Workspace, mode: str):
    async def body(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert sorted(tools) == sorted(
            f"memory_{n}"
            for n in [
                "search",
                "get",
                "why",
                "status",
                "review",
                "note",
                "forget",
                "promote",
                "decide",
            ]
        )
        search = tools["memory_search"].input_schema["properties"]
        assert {
            "query",
            "maxResults",
            "minScore",
            "key",
            "asOf",
            "includeHistory",
            "q",
            "text",
            "limit",
            "top_k",
        } <= set(search)
        assert set(tools["memory_get"].input_schema["properties"]) == {
            "path",
            "from",
            "lines",
        }
        assert tools["memory_get"].input_schema["required"] == ["path"]
        assert (
            tools["memory_forget"].input_schema["properties"]["dryRun"]["default"]
            is True
        )
        for tool in tools.values():
            a = tool.annotations
            assert a is not None and a.open_world_hint is False, tool.name
            assert a.read_only_hint is (
                tool.name
                in {
                    "memory_search",
                    "memory_get",
                    "memory_why",
                    "memory_status",
                    "memory_review",
                }
            )
            assert tool.description and len(tool.description) > 80
        assert tools["memory_forget"].annotations.destructive_hint is True  # type: ignore[union-attr]
        assert "saves nothing" in tools["memory_note"].description  # type: ignore[operator]
        assert "memory_search" in (client.instructions or "")

    run(ws, mode, body)


@pytest.mark.parametrize("mode", MODES)
def test_a_note_is_committed_by_the_client_and_found(ws: Workspace, mode: str):
    async def body(client: Client) -> None:
        done = data(
            await client.call_tool(
                "memory_note",
                {"text": "we cache in SQLite", "kind": "decision", "key": "cache.db"},
            )
        )
        assert done["path"] == "memory/2026-01-05.md" and done["commit"]
        found = data(
            await client.call_tool("memory_search", {"q": "SQLite", "top_k": 3})
        )["results"]
        assert found and found[0]["path"] == "memory/2026-01-05.md"
        hit = found[0]
        assert "SQLite" in hit["snippet"] and hit["source"] == "memory"
        assert (
            hit["citation"]
            == f"memory/2026-01-05.md#L{hit['startLine']}-L{hit['endLine']}"
        )
        assert 0 < hit["score"] <= 1 and hit["key"] == "cache.db"
        got = data(
            await client.call_tool(
                "memory_get",
                {"path": hit["path"], "from": hit["startLine"], "lines": 1},
            )
        )
        assert "SQLite" in got["text"] and got["lines"] == 1

    run(ws, mode, body)
    assert "test-host" in git(ws, "log", "-1", "--format=%an %ae")


def test_a_key_is_promoted_then_answered_with_its_history(ws: Workspace):
    async def body(client: Client) -> None:
        data(
            await client.call_tool(
                "memory_note",
                {"text": "the editor is Helix", "kind": "preference", "key": "editor"},
            )
        )
        promoted = data(await client.call_tool("memory_promote", {}))
        assert promoted["commit"]
        current = data(await client.call_tool("memory_search", {"key": "editor"}))[
            "results"
        ]
        assert current[0]["path"] == "MEMORY.md" and current[0]["status"] == "current"
        why = data(await client.call_tool("memory_why", {"key": "editor"}))
        assert "Helix" in why["history"][0]["value"]
        status = data(await client.call_tool("memory_status", {}))
        assert status["memory"]["chars"] > 0 and "pending" in status
        kept = data(await client.call_tool("memory_forget", {"key": "editor"}))
        assert kept["dry_run"] is True and kept["commit"] is None and kept["retired"]

    run(ws, "auto", body)
    assert "Helix" in (ws.root / "MEMORY.md").read_text()


@pytest.mark.parametrize("mode", MODES)
def test_a_secret_is_refused_naming_the_rule_never_the_text(ws: Workspace, mode: str):
    async def body(client: Client) -> None:
        said = error(
            await client.call_tool(
                "memory_note", {"text": "the router password: Tr0ub4dor&3x"}
            )
        )
        assert "never-store" in said and "nothing was written" in said
        assert "Tr0ub4dor" not in said

    run(ws, mode, body)
    assert not (ws.root / "memory" / "2026-01-05.md").exists()


@pytest.mark.parametrize("mode", MODES)
def test_memory_get_outside_the_memory_files_is_refused(ws: Workspace, mode: str):
    async def body(client: Client) -> None:
        for path in [".git/config", "../outside.md", "/etc/passwd"]:
            assert "not a memory file" in error(
                await client.call_tool("memory_get", {"path": path})
            )
        missing = data(
            await client.call_tool("memory_get", {"path": "memory/2020-01-01.md"})
        )
        assert missing["text"] == "" and missing["exists"] is False

    run(ws, mode, body)


@pytest.mark.parametrize("mode", MODES)
def test_resources_are_read(ws: Workspace, mode: str):
    ws.note("the cat is Miso", time="08:00")

    async def body(client: Client) -> None:
        uris = {str(r.uri) for r in (await client.list_resources()).resources}
        assert {"memory://MEMORY.md", "memory://rules.md"} <= uris
        note = await client.read_resource("memory://notes/2026-01-05")
        assert "the cat is Miso" in note.contents[0].text  # type: ignore[union-attr]
        rules = await client.read_resource("memory://rules.md")
        assert rules.contents[0].text.startswith("---")  # type: ignore[union-attr]

    run(ws, mode, body)


@pytest.mark.parametrize("mode", MODES)
def test_an_invalid_argument_is_a_tool_error(ws: Workspace, mode: str):
    async def body(client: Client) -> None:
        assert error(
            await client.call_tool(
                "memory_search", {"query": "x", "maxResults": "lots"}
            )
        )
        assert error(
            await client.call_tool("memory_get", {"path": "MEMORY.md", "from": 0})
        )
        assert "needs a query" in error(await client.call_tool("memory_search", {}))
        assert "no entry has the key" in error(
            await client.call_tool("memory_why", {"key": "nothing"})
        )

    run(ws, mode, body)


@pytest.mark.parametrize("mode", MODES)
def test_two_concurrent_notes_are_both_committed(ws: Workspace, mode: str):
    said: list[dict[str, Any]] = []

    async def body(client: Client) -> None:
        async def note(text: str) -> None:
            said.append(data(await client.call_tool("memory_note", {"text": text})))

        async with anyio.create_task_group() as group:
            group.start_soon(note, "the cat is Miso")
            group.start_soon(note, "the dog is Rex")

    run(ws, mode, body)
    assert len({s["commit"] for s in said}) == 2
    text = (ws.root / "memory" / "2026-01-05.md").read_text()
    assert "Miso" in text and "Rex" in text
    assert git(ws, "status", "--porcelain") == ""
    logged = git(ws, "log", "--format=%H")
    assert all(s["commit"] in logged for s in said)


def test_read_only_and_a_prefix(ws: Workspace):
    async def body(client: Client) -> None:
        names = {t.name for t in (await client.list_tools()).tools}
        assert names == {
            f"gardener_memory_{n}" for n in ["search", "get", "why", "status", "review"]
        }
        assert "gardener_memory_search" in (client.instructions or "")

    run(ws, "auto", body, read_only=True, prefix="gardener_")


def test_a_listening_client_is_told_when_memory_changes(ws: Workspace):
    async def body(client: Client) -> None:
        async with client.listen(
            resource_subscriptions=["memory://MEMORY.md"]
        ) as events:
            data(
                await client.call_tool(
                    "memory_note",
                    {
                        "text": "the editor is Helix",
                        "kind": "preference",
                        "key": "editor",
                    },
                )
            )
            data(await client.call_tool("memory_promote", {}))
            with anyio.fail_after(5):
                event = await events.__anext__()
        assert "memory://MEMORY.md" in repr(event)

    run(ws, "auto", body)


def test_as_of_answers_what_held_then(ws: Workspace):
    ws.note("Postgres", kind="decision", key="db", time="08:00")
    ws.promote()
    later = Workspace(ws.root, now_override="2026-01-09T09:00")
    later.note("SQLite", kind="decision", key="db", day="2026-01-08", time="10:00")
    later.promote()

    async def body(client: Client) -> None:
        then = data(
            await client.call_tool("memory_search", {"key": "db", "asOf": "2026-01-06"})
        )["results"]
        assert [r["snippet"] for r in then if "Postgres" in r["snippet"]]
        assert not [r for r in then if "SQLite" in r["snippet"]]
        every = data(
            await client.call_tool(
                "memory_search", {"key": "db", "includeHistory": True}
            )
        )["results"]
        assert "SQLite" in every[0]["snippet"] and any(
            "Postgres" in r["snippet"] for r in every
        )
        assert data(await client.call_tool("memory_search", {"asOf": "2026-01-06"}))[
            "results"
        ]

    run(later, "auto", body)


@pytest.mark.parametrize("mode", MODES)
def test_an_argument_of_the_wrong_type_or_length_is_refused_without_its_value(
    ws: Workspace, mode: str
):
    secret = "the router password: Tr0ub4dor&3x"

    async def body(client: Client) -> None:
        for args in [
            {"text": [secret]},
            {"text": {"note": secret}},
            {"text": "fine", "source": secret + " x" * 1200},
        ]:
            said = error(await client.call_tool("memory_note", args))
            assert "invalid arguments" in said and "Tr0ub4dor" not in said
        said = error(await client.call_tool("memory_decide", {"judgments": secret}))
        assert "judgments" in said and "Tr0ub4dor" not in said

    run(ws, mode, body)
    assert not (ws.root / "memory" / "2026-01-05.md").exists()


def test_a_broken_rules_md_is_a_tool_error_not_a_dead_server(ws: Workspace):
    (ws.root / "rules.md").write_text("---\nnote_ttl_days: [unclosed\n---\n")
    server = build(ws, idle=0.1)  # the idle loop meets the broken rules.md too

    async def body() -> None:
        async with Client(server, client_info=HOST) as client:
            assert len((await client.list_tools()).tools) == 9
            await anyio.sleep(0.5)
            said = error(await client.call_tool("memory_search", {"query": "x"}))
            assert "rules.md" in said
            assert "rules.md" in error(
                await client.call_tool("memory_note", {"text": "the cat is Miso"})
            )

    anyio.run(body)


def test_a_prefix_names_the_prefixed_tools_in_every_description(ws: Workspace):
    async def body(client: Client) -> None:
        listed = (await client.list_tools()).tools
        words = " ".join(
            [t.description or "" for t in listed]
            + [
                spec.get("description", "")
                for t in listed
                for spec in t.input_schema["properties"].values()
            ]
        )
        assert "gardener_memory_decide" in words
        assert not re.search(r"(?<!gardener_)memory_[a-z]+", words)

    run(ws, "auto", body, prefix="gardener_")


def test_read_only_instructions_never_ask_for_a_write(ws: Workspace):
    async def body(client: Client) -> None:
        said = client.instructions or ""
        assert "memory_search" in said
        assert "memory_note" not in said and "memory_promote" not in said

    run(ws, "auto", body, read_only=True)
