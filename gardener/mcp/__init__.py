"""``gardener mcp``: an adapter that serves the memory to MCP hosts (Claude, Cursor, Codex, OpenClaw).

command   the click command (the CLI's registry names it by string); no SDK import
server    the SDK's MCPServer: the tools, resources, instructions, idle gardening
tools     what each tool does, as plain calls on a Workspace (no SDK); writes serialised
texts     what the model reads: instructions and tool descriptions
schedule  Gardening: when the server promotes and prunes on its own (pure)

The SDK is the optional extra ``memory-gardener[mcp]``; only ``server``
imports it.
"""
