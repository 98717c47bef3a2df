"""History rewrites for ``purge``: replace a text in every commit of a
``gardener.git.repo.Repo``, then make the old history unrecoverable.

``rewrite_history`` runs git-filter-repo (file contents and names, messages,
names, emails, ref names of every commit and tag reachable from a ref);
``forget_old_history`` removes what still points at the old commits and
prunes them. ``remotes`` tells purge when a
rewrite must not run and what it cannot reach. Each function takes the
``Repo`` to work on; the history they rewrite is read with ``gardener.git.log``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from gardener.errors import GardenerError
from gardener.git.run import decode

if TYPE_CHECKING:
    from gardener.git.repo import Repo

# Files in the git folder that hold commit messages: scrubbed after a rewrite.
_MESSAGE_FILES = ("COMMIT_EDITMSG", "MERGE_MSG", "SQUASH_MSG", "TAG_EDITMSG")
# They point at commits of the old history, which a rewrite leaves behind.
_OLD_POINTERS = ("ORIG_HEAD", "FETCH_HEAD")
# Run by ``rewrite_history`` in a child Python: git-filter-repo as a library,
# with callbacks (the text never touches the disk, unlike --replace-text). The
# matching must agree with gardener.planning.purge.Needle: one regex (the text, its cut
# forms, any run of white space for a run), over the bytes, or, ignoring
# case, over the UTF-8 text (bad bytes kept as surrogates).
_FILTER_REPO_DRIVER = r"""
import json, re, sys
import git_filter_repo as fr
spec = json.loads(sys.stdin.buffer.read())
new = spec["replacement"]
if spec["ignore_case"]:
    pattern = re.compile(spec["pattern"], re.IGNORECASE)
    def sub(data):
        text = data.decode("utf-8", "surrogateescape")
        return pattern.sub(lambda _m: new, text).encode("utf-8", "surrogateescape")
else:
    pattern = re.compile(spec["pattern"].encode("utf-8", "surrogateescape"))
    new_bytes = new.encode("utf-8", "surrogateescape")
    def sub(data):
        return pattern.sub(lambda _m: new_bytes, data)
def blob(b, _metadata):
    b.data = sub(b.data)
def refname(name):
    # a ref name cannot hold "[" or a space: the text becomes PURGED there
    new_name = sub(name)
    return re.sub(rb"[\[\] ]", b"", new_name) if new_name != name else name
# no final ``reset --hard``: it would wipe what others appended meanwhile;
# purge carries the work tree over itself (gardener.verbs.rewriting)
fr.RepoFilter.cleanup = lambda *_args, **_kwargs: None
args = fr.FilteringOptions.parse_args(spec["args"])
fr.RepoFilter(
    args, blob_callback=blob, message_callback=sub, name_callback=sub,
    email_callback=sub, filename_callback=sub, refname_callback=refname,
).run()
"""


def remotes(repo: Repo) -> list[str]:
    """The names of the repository's remotes (``git remote``), as git lists them."""
    return decode(repo.run("remote")[1]).split()


def rewrite_history(
    repo: Repo, pattern: str, replacement: str, ignore_case: bool
) -> None:
    """Replace what the regex ``pattern`` matches in every blob, file name,
    message, name, email and ref name of every commit and tag reachable
    from any ref, with git-filter-repo.

    The work tree and the index are left as they were (the caller carries
    them over to the new HEAD); the repository's hooks do not run. Remotes and remote-
    tracking refs are kept (``--partial``), every commit is kept even if it
    becomes empty, replace refs are dropped. The old objects stay until
    ``forget_old_history``. Raises GardenerError if filter-repo is missing
    or fails.
    """
    if importlib.util.find_spec("git_filter_repo") is None:
        raise GardenerError(
            f"git-filter-repo is not installed; install it with `{sys.executable} -m pip install git-filter-repo`"
        )
    shutil.rmtree(repo.git_dir / "filter-repo", ignore_errors=True)
    spec = {
        "pattern": pattern,
        "replacement": replacement,
        "ignore_case": ignore_case,
        "args": [
            "--force", "--partial", "--quiet", "--replace-refs", "delete-no-add",
            "--prune-empty", "never", "--prune-degenerate", "never",
        ],
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", _FILTER_REPO_DRIVER],
        input=json.dumps(spec).encode(),
        cwd=repo.root,
        env={**os.environ, **repo.location_env(), **_no_hooks()},
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        err = decode(done.stderr).strip().splitlines()[-5:]
        raise GardenerError(
            f"git-filter-repo failed (exit {done.returncode}): {' / '.join(err)}"
        )


def _no_hooks() -> dict[str, str]:
    """Environment that adds ``core.hooksPath=/dev/null`` to every git that
    filter-repo starts (a failing ``reference-transaction`` hook of the
    repository aborted the rewrite half-way)."""
    n = int(os.environ.get("GIT_CONFIG_COUNT", "0") or 0)
    return {
        "GIT_CONFIG_COUNT": str(n + 1),
        f"GIT_CONFIG_KEY_{n}": "core.hooksPath",
        f"GIT_CONFIG_VALUE_{n}": os.devnull,
    }


def drop_named_refs(repo: Repo, regex: re.Pattern[str]) -> None:
    """Delete the refs whose names hold the text: filter-repo made their
    renamed copies (``notes-PURGED``) and left the old names on the old history."""
    _, out = repo.run("for-each-ref", "--format=%(refname)")
    for name in decode(out).splitlines():
        if name and regex.search(name):
            repo.run("update-ref", "-d", name)


def rename_checked_out(repo: Repo, regex: re.Pattern[str], replacement: str) -> None:
    """Rename the branch checked out when its name holds the text, before the
    rewrite: filter-repo resets the work tree to HEAD's branch, which must
    still be there under the name it ends with."""
    code, head = repo.run("symbolic-ref", "-q", "--short", "HEAD", ok=(0, 1))
    branch = decode(head).strip() if code == 0 else ""
    if branch and regex.search(branch):
        repo.run("branch", "-m", branch, regex.sub(replacement, branch))


def forget_old_history(repo: Repo, sub: Callable[[bytes], bytes]) -> None:
    """Make the history before a rewrite unrecoverable from this repository:
    ``scrub_git_files``, ``expire_reflogs``, ``prune``."""
    scrub_git_files(repo, sub)
    expire_reflogs(repo)
    prune(repo)


def scrub_git_files(repo: Repo, sub: Callable[[bytes], bytes]) -> None:
    """Remove filter-repo's leftovers (``.git/filter-repo/``), ORIG_HEAD and
    FETCH_HEAD; apply ``sub`` to the saved commit messages (COMMIT_EDITMSG...)."""
    shutil.rmtree(repo.git_dir / "filter-repo", ignore_errors=True)
    for name in _OLD_POINTERS:
        (repo.git_dir / name).unlink(missing_ok=True)
    for name in _MESSAGE_FILES:
        path = repo.git_dir / name
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            if sub(data) != data:
                path.write_bytes(sub(data))


def expire_reflogs(repo: Repo) -> None:
    """Expire every reflog entry of every ref (the stash's too)."""
    repo.run("reflog", "expire", "--expire=now", "--expire-unreachable=now", "--all")


def prune(repo: Repo) -> None:
    """Delete every object no ref, reflog or index reaches (``gc --prune=now``);
    the reflogs left are kept whatever their age (a rebuilt stash's entries).
    A ``gc.pid`` no live gc holds (a killed one's) is removed first."""
    from gardener.git.keep import live_gc

    if (repo.git_dir / "gc.pid").exists() and live_gc(repo) is None:
        (repo.git_dir / "gc.pid").unlink(missing_ok=True)
    repo.run(
        "-c", "gc.reflogExpire=never", "-c", "gc.reflogExpireUnreachable=never",
        "gc", "--prune=now", "--quiet",
    )  # fmt: skip
