"""The ``gardener`` command line: an adapter over ``gardener.Workspace``.

fast      the console script's entry: a plain ``note`` or ``recall`` without click
options   the options of ``note`` and ``recall``, declared once for both entries
output    what the CLI prints and how errors end a run (exit codes), no click
commands  the click group: its options, its one error handler, the command registry
common    what the click commands share: option decorators, the workspace, echo
init, note, recall, why, promote, prune, forget, purge, review (approve, reject),
check     one module per command: parse options, call the Workspace, print
demo      ``gardener demo``: replay the example agent's notes in a scratch workspace
"""
