"""MEMORY.md rewritten outside the gardener past the loss budget: held aside, not committed.

An agent that rewrites MEMORY.md keeping 20 of its 100 entries would have
that committed as a hand edit. ``record`` holds such a rewrite instead: the
committed text is put back (every removed entry with it), the attempted
version and its diff are kept in ``.gardener/held/`` (git-ignored, this
machine only), and a warning says so. ``gardener record --accept`` (a
person's decision) commits the held version. A smaller hand edit is
committed as before (docs/design.md, Record).
"""

from __future__ import annotations

import difflib
import hashlib
import json
from pathlib import Path

from gardener.errors import GardenerError, ParseError
from gardener.files.atomic import atomic_write, ensure_state_dir, replace_if_unchanged
from gardener.files.layout import STATE_DIR
from gardener.files.read import read_text
from gardener.formats.memoryfile import parse_memory
from gardener.model.facts import Fact, normalize_value
from gardener.model.validtime import format_instant, is_current
from gardener.planning.prune import loss_allowed
from gardener.store.purged import exclude_locally
from gardener.verbs.session import Session

HELD_DIR = (
    f"{STATE_DIR}/held"  # git-ignored: .git/info/exclude and .gardener/.gitignore
)
_META = "held.json"  # {"file", "base" (sha256 of the text put back), "deleted", "when"}


def outside_loss(
    committed: str, current: str | None, today: str, path: str = "MEMORY.md"
) -> tuple[list[Fact], int]:
    """The current entries of ``committed`` that ``current`` (None: the file
    was deleted) no longer holds, and how many were current.

    An entry is kept if ``current`` holds a current entry with its id, its
    key (a changed value is an edit, not a loss) or its value (compared
    normalized). ``today`` is ``YYYY-MM-DD``. ([], 0) when ``committed``
    cannot be parsed; a ``current`` that cannot be parsed keeps nothing.
    """
    try:
        before = [
            f for f in parse_memory(committed, path).facts if is_current(f, today)
        ]
    except ParseError:
        return [], 0
    try:
        after = parse_memory(current, path).facts if current is not None else []
    except ParseError:
        after = []
    live = [f for f in after if is_current(f, today)]
    ids = {f.id for f in live if f.id}
    keys = {f.norm_key for f in live if f.norm_key}
    values = {normalize_value(f.value) for f in live}
    lost = [
        f
        for f in before
        if not (f.id and f.id in ids)
        and not (f.norm_key and f.norm_key in keys)
        and normalize_value(f.value) not in values
    ]
    return lost, len(before)


def hold_rewrite(s: Session, rel: str) -> str | None:
    """Hold an outside change to MEMORY.md (``rel``) that removes more than
    ``max_loss`` of its current entries: put its committed text back, keep the
    attempted version and its diff in ``HELD_DIR``; the warning saying so.
    None (nothing done) for a smaller change, or a file with no commit."""
    committed = s.repo.committed_text(rel)
    if committed is None:
        return None
    target = s.root / rel
    current = _text(target)
    lost, count = outside_loss(committed, current, format_instant(s.now())[:10], rel)
    if not lost or loss_allowed(len(lost), count, s.config.max_loss):
        return None
    folder = _folder(s.root)
    name = Path(rel).name
    atomic_write(folder / name, current or "")
    diff = difflib.unified_diff(
        committed.splitlines(keepends=True),
        (current or "").splitlines(keepends=True),
        f"a/{rel}",
        "/dev/null" if current is None else f"b/{rel}",
    )
    atomic_write(folder / f"{name}.diff", "".join(diff))
    meta = {
        "file": rel,
        "base": _digest(committed),
        "deleted": current is None,
        "when": s.now().strftime("%Y-%m-%dT%H:%M"),
    }
    atomic_write(folder / _META, json.dumps(meta) + "\n")
    s.repo.run("checkout", "HEAD", "--", rel, index=True)  # file and index as committed
    names = ", ".join(f.key or f.value[:30] for f in lost[:5])
    more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
    change = "deleted" if current is None else "rewritten"
    why = ""
    if current is not None:
        try:
            parse_memory(current, rel)
        except ParseError as exc:  # a marker cut: every entry reads as lost
            why = f" ({exc.location_message()})"
    return (
        f"{rel} was {change} outside the gardener{why}, removing {len(lost)} of {count}"
        f" current entries ({names}{more}), over max_loss={s.config.max_loss}: not"
        f" committed; its committed text is restored, the attempted version is kept"
        f" in {HELD_DIR}/{name} (diff: {HELD_DIR}/{name}.diff); `gardener record"
        " --accept` commits it"
    )


def accept_held(s: Session) -> str | None:
    """Put the held version of MEMORY.md in place for ``record --accept`` to
    commit; what was accepted (a line for the commit message), or None if
    nothing is held. A held version whose file has changed since it was held
    is accepted only if the change is outside the gardener's (the person's
    newer edit is then what is committed, the held version dropped); raises
    GardenerError if the gardener committed the file since (accepting would
    undo that commit)."""
    folder = s.root / HELD_DIR
    try:
        meta = json.loads(read_text(folder / _META))
        rel = str(meta["file"])
    except (FileNotFoundError, ParseError, ValueError, KeyError, TypeError):
        return None
    target = s.root / rel
    current = _text(target)
    if current is None or _digest(current) != meta.get("base"):
        if current == s.repo.committed_text(rel):
            raise GardenerError(
                f"{rel} was committed again since its rewrite was held on"
                f" {meta.get('when')}; accepting it would undo that: see"
                f" {HELD_DIR}/{Path(rel).name}.diff, make the edit by hand, then run"
                " `gardener record --accept`"
            )
        _drop(folder)
        return f"accepted the outside change to {rel} past max_loss"
    if meta.get("deleted"):
        target.unlink()
    else:
        held = (folder / Path(rel).name).read_bytes()
        atomic_write(target, held.decode("utf-8", "surrogateescape"))
    _drop(folder)
    return f"accepted the rewrite of {rel} held on {meta.get('when')}"


def _folder(root: Path) -> Path:
    ensure_state_dir(root)
    exclude_locally(root, [f"{HELD_DIR}/"])
    folder = root / HELD_DIR
    folder.mkdir(exist_ok=True)
    return folder


def _drop(folder: Path) -> None:
    for item in folder.iterdir():
        item.unlink()
    folder.rmdir()


def _text(path: Path) -> str | None:
    """The file's text, bad bytes kept (None: no plain file there)."""
    if path.is_symlink() or not path.is_file():
        return None
    return path.read_bytes().decode("utf-8", "surrogateescape")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


_STALE_DEPTH = 20  # promote commits looked back through for the writer's copy


def restore_promoted(s: Session, rel: str) -> str | None:
    """Put back into MEMORY.md (``rel``) the entries promote added since the
    copy an outside writer rewrote it from: the warning saying so, or None.

    The writer's copy is taken to be the file before one of the latest
    promote commits (only promotes since it, nothing else changed the
    file) when the change keeps some of that version's entries and drops
    the entries those promotes added, keeping none of them: a writer who read the file after the promote would have
    kept some of what it added. The writer's change is then replayed onto
    the committed file (``merge_memory``, as the merge driver does: its
    edits, additions and removals of older entries kept). A change that
    also keeps some fresh entries (a person deleting one of them) is left
    as it is; so is one the merge cannot replay cleanly.
    """
    for _ in range(3):  # a save landing meanwhile: plan again on it
        done = _restore_promoted(s, rel)
        if done is None or isinstance(done, str):
            return done
    return None


def _restore_promoted(s: Session, rel: str) -> str | None | bool:
    """``restore_promoted`` once; False when the file changed meanwhile."""
    committed = s.repo.committed_text(rel)
    current = _text(s.root / rel)
    if committed is None or current is None:
        return None
    today = format_instant(s.now())[:10]
    lost, _ = outside_loss(committed, current, today, rel)
    if not lost or not all(f.id for f in lost):
        return None
    try:
        head_ids = _ids(committed, rel)
        now_ids = _ids(current, rel)
    except ParseError:
        return None
    lost_ids = {f.id for f in lost}
    for base in _promote_bases(s, rel):
        try:
            base_ids = _ids(base, rel)
        except ParseError:
            return None
        added = head_ids - base_ids
        # a copy of that version: keeps some of it, none of what came after
        if lost_ids <= added and not added & now_ids and base_ids & now_ids:
            return _replay(s, rel, base, committed, current, lost)
    return None


def _replay(
    s: Session, rel: str, base: str, committed: str, current: str, lost: list[Fact]
) -> str | None | bool:
    from gardener.git.mergefile import merge_file
    from gardener.model.config import multi_valued
    from gardener.planning.mergetext import merge_memory

    def outside(base: str, ours: str, theirs: str) -> tuple[str, int]:
        # the writer's own text outside the block: a conflict there (their
        # line promote committed with its entries, then one more) keeps both
        text, conflicts = merge_file(base, ours, theirs)
        return (union_conflicts(text), 0) if conflicts else (text, 0)

    try:
        done = merge_memory(
            base, committed, current, outside,
            multi=lambda key: multi_valued(key, s.config), path=rel,
        )  # fmt: skip
    except ParseError:
        return None
    if done.conflicts or done.outside_conflicts:
        return None
    if not replace_if_unchanged(s.root / rel, done.text, current, root=s.root):
        return False  # a person's save landed meanwhile: never over it
    names = ", ".join(f.key or f.value[:30] for f in lost[:5])
    more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
    return (
        f"{rel} was rewritten from a copy read before promote filed {len(lost)}"
        f" entries ({names}{more}): they are put back, the rest of the change is kept"
    )


def union_conflicts(text: str) -> str:
    """``merge_file``'s output with each conflict resolved as both sides: the
    lines of ours, then those of theirs that ours lacks."""
    out: list[str] = []
    ours: list[str] = []
    theirs: list[str] = []
    side = None
    for line in text.splitlines(keepends=True):
        if side is None and line.startswith("<<<<<<< "):
            side, ours, theirs = "ours", [], []
        elif side == "ours" and line.rstrip("\r\n") == "=======":
            side = "theirs"
        elif side == "theirs" and line.startswith(">>>>>>> "):
            out += ours + [x for x in theirs if x not in ours]
            side = None
        elif side is not None:
            (ours if side == "ours" else theirs).append(line)
        else:
            out.append(line)
    return "".join(out)


def _promote_bases(s: Session, rel: str) -> list[str]:
    """``rel``'s text before each of its latest commits, newest first, as
    long as those commits are promotes."""
    from gardener.git.merges import texts_at
    from gardener.git.trailers import ACTION

    fmt = f"--format=%H %(trailers:key={ACTION},valueonly,separator=%x2C)"
    _, out = s.repo.run("log", f"-n{_STALE_DEPTH}", fmt, "--", rel)
    parents = []
    for line in out.decode("utf-8", "replace").splitlines():
        sha, _, action = line.partition(" ")
        if action.strip() != "promote":
            break
        parents.append(f"{sha}^")
    texts = texts_at(s.repo, parents, rel)
    return [t for p in parents if (t := texts.get(p)) is not None]


def _ids(text: str, rel: str) -> set[str]:
    return {f.id for f in parse_memory(text, rel).facts if f.id}
