"""Git, reached through one package: git runs as a child process, never a shell.

run       Runner: finds the work tree, runs git (literal pathspecs, hooks off, locks waited for)
identity  Identity, GARDENER and identity_for: who a commit is by, never the machine's config
repo      Repo: commits of explicit paths, reads of HEAD, the index and the status
trees     a temporary index/work tree for a commit of given texts
trailers  the Gardener-* trailers of a commit message: their names, written and read here
log       history reads: a path's commits, object scans
rewrite   history rewrites: filter-repo, reflogs, gc (purge)
keep      what a rewrite keeps (stashes, index flags) and what stops one (worktrees, a live gc)
merges    history reads for merges: merge commits of a path, their base, texts at commits
mergefile ``git merge-file``: three texts merged as git merges a file
setup     what a clone needs that git does not clone: the hook, the merge drivers
remote    remotes: refs, fetch, push with a lease, ancestry, purge tombstones (sync, purge --push)
"""
