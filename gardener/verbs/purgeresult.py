"""What a purge found and did: ``PurgeResult`` (``gardener.verbs.purge``).

Never holds the text: commit subjects are shown with it masked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gardener.git.log import Holder
from gardener.git.remote import Pushed
from gardener.planning.purge import REPLACEMENT

_SHOWN_COMMITS = 20


@dataclass(frozen=True)
class FileHit:
    path: str  # workspace-relative POSIX
    count: int


@dataclass(frozen=True)
class PurgeResult:
    """What held the text (before the purge) and what the purge did.

    Never holds the text: commit subjects are shown with it masked.
    """

    found: bool
    dry_run: bool
    files: tuple[FileHit, ...]  # work-tree files that held it
    commits: tuple[Holder, ...]  # commits reachable from a ref that held it
    objects: int  # objects in the store that held it (reachable or not)
    objects_scanned: int  # in the last scan: after the purge, if one ran
    remotes: tuple[str, ...]
    purge_id: str | None = None
    commit: str | None = None  # the tombstone
    warnings: tuple[str, ...] = field(default=())
    pushed: tuple[Pushed, ...] = field(default=())  # ``--push``: each branch pushed

    def as_dict(self) -> dict[str, object]:
        return {
            "found": self.found,
            "dry_run": self.dry_run,
            "files": [{"path": f.path, "count": f.count} for f in self.files],
            "commits": [
                {
                    "sha": c.sha,
                    "time": c.time.isoformat(),
                    "subject": c.subject,
                    "in_files": c.in_files,
                    "in_commit": c.in_commit,
                }
                for c in self.commits
            ],
            "objects": self.objects,
            "objects_scanned": self.objects_scanned,
            "remotes": list(self.remotes),
            "purge_id": self.purge_id,
            "commit": self.commit,
            "warnings": list(self.warnings),
            "pushed": [
                {
                    "remote": p.remote,
                    "ref": p.ref,
                    "commit": p.new,
                    "ok": p.ok,
                    "message": p.message,
                }
                for p in self.pushed
            ],
        }

    def lines(self) -> list[str]:
        """The human report: what holds (held) the text, then what was done."""
        if not self.found and self.purge_id:
            made = (
                f"tombstone commit {self.commit[:8]}"
                if self.commit
                else "its tombstone was made already"
            )
            return [
                "not found in the work tree, any commit or the git folder: a purge of it "
                f"had stopped half-way and is finished now; {made} (purge id {self.purge_id})"
            ]  # fmt: skip
        if not self.found:
            return [
                "not found in the work tree, any commit or the git folder: nothing to do"
            ]
        out = [
            f"found in {len(self.commits)} commit(s), {len(self.files)} work-tree "
            f"file(s) and {self.objects} git object(s)"
        ]
        out += [f"  {f.path}: {f.count}" for f in self.files]
        for c in self.commits[:_SHOWN_COMMITS]:
            where = [f"{n} in {what}" for n, what in ((c.in_files, "files"), (c.in_commit, "commit")) if n]  # fmt: skip
            out.append(
                f"  {c.sha[:8]} {c.time:%Y-%m-%d} {c.subject}  ({', '.join(where)})"
            )
        if len(self.commits) > _SHOWN_COMMITS:
            out.append(f"  ... and {len(self.commits) - _SHOWN_COMMITS} more commits")
        if self.dry_run:
            out.append(
                "dry run: nothing changed; run again with --yes to erase it from the "
                "files and the whole history (irreversible)"
            )
        else:
            out.append(
                f"purged: every occurrence is now {REPLACEMENT}; {self.objects_scanned} "
                f"objects checked afterwards, none holds it; tombstone commit "
                f"{(self.commit or '')[:8]} (purge id {self.purge_id})"
            )
        for p in self.pushed:
            done = "force-pushed" if p.ok else f"NOT pushed ({p.message})"
            out.append(f"  {p.remote} {p.ref.removeprefix('refs/heads/')}: {done}")
        return out
