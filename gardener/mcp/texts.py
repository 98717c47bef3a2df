"""What the model reads: the server's instructions and each tool's description.

Written for the model, not for people: what the tool is for, when to call it,
what it returns, and what it will not do.
"""

from __future__ import annotations

import re

INSTRUCTIONS = """\
This server is your long-term memory: plain Markdown files in a git repository \
(daily notes memory/YYYY-MM-DD.md, curated into MEMORY.md; every change is a commit).
- Before answering about past work, decisions, people, preferences, dates or \
todos, call {prefix}memory_search; cite the result's citation.
- When you learn a durable fact (a preference, a decision, who someone is), \
call {prefix}memory_note with a short key ("db", "editor", "alice.role") so a \
later value replaces it. Saying "saved" or "I'll remember" without calling \
{prefix}memory_note saves nothing.
- Never store secrets (passwords, tokens, keys, card numbers): they are refused \
and nothing is written. Write the fact without the secret.
- Notes are promoted into MEMORY.md on their own; you rarely need \
{prefix}memory_promote. Read a file with {prefix}memory_get.
"""

READ_ONLY = """\
This server is your long-term memory, read only: plain Markdown files in a git \
repository (daily notes memory/YYYY-MM-DD.md, curated into MEMORY.md).
- Before answering about past work, decisions, people, preferences, dates or \
todos, call {prefix}memory_search; cite the result's citation. Read a file \
with {prefix}memory_get.
- This server cannot write: do not say a fact was saved or remembered.
"""

AS_OF = "YYYY-MM-DD or YYYY-MM-DDTHH:MM: what MEMORY.md held then, not now."
KIND = "identity, preference, decision, fact (kept in MEMORY.md), or event, state, todo (stay in the note)."
KEY = (
    'A short stable name for what the fact is about ("db", "editor", "alice.role"):'
    " a later note with the same key supersedes this one. With a key, text is its"
    ' value: key "db", text "Postgres 16", not a sentence about it.'
)
BY = "Who writes it; defaults to this MCP client's name (the commit names it)."
JUDGMENTS = (
    'One object per entry of memory_review: {"id", "verdict", "kind"?, "key"?,'
    ' "value"?, "replaces"?}; verdict is durable (give kind: identity, preference,'
    " decision, fact), transient, correction or ends; replaces: the id of one of"
    " the entry's near entries it replaces (durable) or ends (ends)."
)

TOOLS = {
    "memory_search": """\
Search long-term memory (MEMORY.md and the daily notes) before answering \
questions about prior work, decisions, dates, people, preferences or todos. \
Returns {results: [{path, startLine, endLine, score, snippet, source, citation, \
status, key, since, until, id}]}, best first; score is 0-1. Give a query, or a \
key for one fact's current value; asOf answers what held at a past time; \
includeHistory adds superseded and retired values. An empty result means \
nothing is remembered about it: say so rather than guess.""",
    "memory_get": """\
Read lines of a memory file: MEMORY.md, rules.md or memory/YYYY-MM-DD.md \
(a path from memory_search; from is the 1-based first line, lines how many). \
Returns {path, text, from, lines, total, exists}. Other paths are refused; a \
note that does not exist returns empty text. Secrets are shown redacted.""",
    "memory_why": """\
The whole history of one key: every value it has had, when each held \
(since/until), the note it came from and the commit that wrote it. Use it \
to explain why memory says what it says.""",
    "memory_status": """\
Health of the memory: problems gardener check finds (unreadable lines, \
conflicts, secrets), entries held for a person's review, MEMORY.md's size \
against its budget, and how many entries wait for memory_review.""",
    "memory_review": """\
The entries the rules could not place, waiting for your judgment, oldest \
first: each with its id, text, the rules' guess and the current entries it \
is near. A page is about 8 KB: pass after=next_after for the next. Answer \
them with memory_decide.""",
    "memory_note": """\
Write one fact, decision, preference or event to today's daily note; it is \
committed at once and promoted into MEMORY.md later. Call it whenever the user \
tells you something worth keeping: saying 'saved' without calling memory_note \
saves nothing. One fact per call, in a sentence; give kind and a short key for \
durable facts so a later value supersedes the old one. Text matching a \
never-store rule (passwords, tokens, keys, personal data) is refused and \
nothing is written: write the fact without the secret. Returns {path, line, \
commit, warnings}.""",
    "memory_forget": """\
Retire the entries matching a query, key, source or writer: they leave search \
but stay in history. dryRun is true by default and only lists what would go: \
show it to the user, then call again with dryRun false if they agree. \
Returns {retired, notes, commit, dry_run}.""",
    "memory_promote": """\
File the durable entries of the daily notes into MEMORY.md now (the server \
also does this on its own after a quiet spell). Returns what was added, \
superseded, held for review and left pending.""",
    "memory_decide": """\
Apply your judgments to entries from memory_review, in one pass: each \
{id, verdict, kind?, key?, value?, replaces?}. Returns the ids applied and those refused, \
with the reason.""",
}


def instructions(prefix: str, read_only: bool) -> str:
    """The server's instructions, naming the tools as ``prefix`` makes them."""
    return (READ_ONLY if read_only else INSTRUCTIONS).format(prefix=prefix)


def named(text: str, prefix: str) -> str:
    """``text`` with each tool it names (``memory_note``) as ``prefix`` names it:
    next to a host's own memory_search, the model must call ours."""
    return (
        re.sub(r"\bmemory_[a-z]+\b", lambda m: prefix + m.group(), text)
        if prefix
        else text
    )
