"""The gardener's own state on disk: ledger, caches, registers, journal.

ledger      the promote ledger, a file a month under .gardener/ledger.d/
settings    the workspace's settings from rules.md, and their cache
retired     the register of retired daily-note entries, read from disk
statcache   what promote learned about notes it did not need to read
notescan    which daily notes a promote pass must read
linememo    MEMORY.md's lines as last parsed, so a pass parses only new ones
journal     the redo journal of the gardener's own rewrites
"""
