"""The ``gardener`` command line: an adapter over ``gardener.Workspace``.

fast      the console script's entry: a plain ``note`` or ``recall`` without click
options   the options of ``note`` and ``recall``, declared once for both entries
output    what the CLI prints and how errors end a run (no click)
commands  the click group: its options, its one error handler, the command registry
common    what the click commands share: option decorators, the workspace, echo
init      ``gardener init``: create or adopt a workspace
note      ``gardener note``: append one entry to today's note
recall    ``gardener recall``: rank memory and live notes for a query
why       ``gardener why``: a belief's whole history
show      ``gardener show``: lines of a memory file, secrets redacted
promote   ``gardener promote``: file durable entries into MEMORY.md
prune     ``gardener prune``: drop old and expired entries and notes
forget    ``gardener forget``: retire matching entries
purge     ``gardener purge``: erase a text from the files and every commit
sync      ``gardener sync``: with the remote, both ways; ``gardener pre-push``, the hook's check
held      ``gardener approve`` and ``gardener reject``: a person's word on a held entry
review    ``gardener review``: the entries waiting for the judge
decide    ``gardener decide``: apply the judge's answers
record    ``gardener record``: commit outside changes; ``--accept`` a held rewrite
check     ``gardener check``: report problems (exit 4 when there are any)
demo      ``gardener demo``: replay the example agent's notes in a scratch workspace
merge     ``gardener merge-memory`` and ``merge-union``: the merge drivers git runs (hidden)

A command's options are declared in its module; those of ``note`` and
``recall`` in ``options`` (click and the fast entry read the one table), the
global ``--workspace`` in ``commands``, the shared ``--json``, ``--dry-run`` and
``--force`` in ``common``; ``gardener watch``'s in ``gardener.watch.command``, ``gardener mcp``'s in
``gardener.mcp.command``.
"""
