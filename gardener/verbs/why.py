"""The ``why`` verb: every value a key has had, with validity, source note and
the commit that wrote it; read from MEMORY.md and git history, nothing written.

People's own edits of MEMORY.md (``hand_edits``) and what prune deleted
(``pruned``) come back from the commits' diffs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo

from gardener.formats.memoryfile import parse_fact
from gardener.git.log import CommitInfo, commits_adding, line_changes
from gardener.git.repo import Repo
from gardener.model.facts import SUPERSEDED, Fact
from gardener.recall.hits import Hit
from gardener.recall.rank import fact_hit, history, identity, sort_key
from gardener.verbs.results import WhyRecord
from gardener.verbs.session import Session


def why(session: Session, key: str) -> list[WhyRecord]:
    """Every value ``key`` has had, with validity, source note and commit."""
    memory = session.read_memory()
    repo, file = session.repo, session.config.memory_file
    gone, removed_in = pruned(repo, file)
    edits = hand_edits(repo, file)
    hits = history(key, memory.facts, file, gone)
    # the removal that ended a value, by the value's identity
    ended_by = {
        identity(f): f.get("ended-by") for f in [*gone, *memory.facts] if f.until
    }
    # a line edited since the last commit has no commit yet
    committed = set((repo.committed_text(file) or "").splitlines())
    lines = memory.text.splitlines()
    records = []
    for hit in _with_edited(hits, edits, file, session.config.zone):
        # a hand-written entry has no id: find the commit that wrote its text
        needle = (
            "{#" + hit.id
            if hit.id
            else (f"**{hit.key}**: {hit.value}" if hit.key else hit.value)
        )
        commits = commits_adding(repo, needle, file)
        first = commits[0] if commits else None
        # a value a person wrote over another: its commit is that edit's
        made = edits.made.get((hit.id, hit.value)) if hit.id else None
        first = made or first
        on_line = (
            lines[hit.line - 1]
            if hit.path == file and 0 < hit.line <= len(lines)
            else None
        )
        if on_line is not None and hit.status != "edited" and on_line not in committed:
            first = None  # written since the last commit: none holds it yet
        records.append(
            WhyRecord(
                hit,
                first.sha if first else None,
                first.time.isoformat() if first else None,
                removed_in.get(identity(hit))
                if hit.status.endswith("pruned")
                else None,
                edits.replaced.get((hit.id, hit.value)) if hit.id else None,
                ended_by.get(identity(hit)) if hit.until else None,
            )
        )
    return records


@dataclass(frozen=True)
class HandEdits:
    """Values people wrote over in MEMORY.md, from git: ``made`` maps (entry
    id, value) to the commit whose hand edit wrote that value; ``replaced``
    maps (entry id, value) to the commit sha whose hand edit replaced it;
    ``old`` lists the facts as they were before each edit, newest first."""

    made: dict[tuple[str, str], CommitInfo]
    replaced: dict[tuple[str, str], str]
    old: list[tuple[Fact, CommitInfo]]


def hand_edits(repo: Repo, memory_file: str) -> HandEdits:
    """The values of MEMORY.md entries that a person changed in place (same
    id, another value): in the commits ``record`` made of changes made
    without the gardener, and in people's own commits (no gardener trailer).
    The gardener keeps such an edit; ``why`` shows the value it replaced."""
    made: dict[tuple[str, str], CommitInfo] = {}
    replaced: dict[tuple[str, str], str] = {}
    old: list[tuple[Fact, CommitInfo]] = []
    changes = line_changes(repo, memory_file, "record")
    changes += line_changes(repo, memory_file, None)
    changes.sort(key=lambda change: change[0].time, reverse=True)
    for commit, removed, added in changes:
        after = {f.id: f for f in _facts(added) if f.id}
        for before in _facts(removed):
            now = after.get(before.id or "")
            if now is None or now.value == before.value:
                continue
            made.setdefault((now.id or "", now.value), commit)
            replaced.setdefault((before.id or "", before.value), commit.sha)
            old.append((before, commit))
    return HandEdits(made, replaced, old)


def _with_edited(
    hits: list[Hit], edits: HandEdits, memory_file: str, zone: tzinfo
) -> list[Hit]:
    """``hits`` (a key's history, oldest first) and, before each entry a
    person edited, the values it held before (status ``edited``, valid until
    the edit, in the workspace's ``zone``), oldest first."""
    shown = {(h.id, h.value) for h in hits}
    ids = {h.id for h in hits if h.id}
    extra = []
    # oldest first: a value a later edit replaced held from the edit before
    chain = sorted(edits.old, key=lambda pair: pair[1].time)
    last_edit: dict[str, str] = {}  # entry id -> the time of its edit so far
    for fact, commit in chain:
        when = commit.time.astimezone(zone).replace(tzinfo=None)
        stamp = when.isoformat(timespec="minutes")
        since = last_edit.get(fact.id or "", fact.since)
        last_edit[fact.id or ""] = stamp
        if fact.id in ids and (fact.id, fact.value) not in shown:
            shown.add((fact.id, fact.value))
            ended = fact.with_attrs(until=stamp, since=since or "")
            extra.append(fact_hit(ended, memory_file, status="edited"))
    # a value edited away comes just before the entry that holds it now
    held = {h.id: sort_key(h.since) for h in hits if h.id}
    return sorted(
        [*hits, *extra],
        key=lambda h: (
            held.get(h.id or "", sort_key(h.since))
            if h.status == "edited"
            else sort_key(h.since),
            h.status != "edited",
            sort_key(h.since),
        ),
    )


def pruned(repo: Repo, memory_file: str) -> tuple[list[Fact], dict[str, str]]:
    """The entries prune deleted from MEMORY.md, read back from the prune
    commits' diffs (what is pruned stays in git history: see docs/design.md,
    Prune), and ``gardener.recall.rank.identity`` -> the commit that deleted
    it. A line a prune only rewrote (an expired entry moved, a link it
    dropped) is not one: the same entry
    is among the lines that commit added. A purge erased its content from
    those commits too."""
    facts: list[Fact] = []
    removed_in: dict[str, str] = {}
    for commit, removed, added in line_changes(repo, memory_file, "prune"):
        kept = {identity(f) for f in _facts(added)}
        for fact in _facts(removed):
            # an entry with no id counts if it was superseded (struck, or ended)
            if not (fact.id or fact.struck or fact.until) or identity(fact) in kept:
                continue
            facts.append(fact)
            removed_in.setdefault(identity(fact), commit.sha)
    return facts, removed_in


def _facts(lines: list[str]) -> list[Fact]:
    """The MEMORY.md entries among diff ``lines`` (read as in Superseded)."""
    return [f for f in (parse_fact(line, SUPERSEDED) for line in lines) if f]
