"""The gardener's own state on disk: ledger, registers, journal, caches.

ledger      the promote ledger, a file a month under .gardener/ledger.d/
retired     the register of retired daily-note entries (.gardener/retired), read from disk
purged      the purged-text register (.gardener/purged, sealed) and this machine's fast hashes
journal     the redo journal of the gardener's own rewrites (.git/gardener-pending.json)
settings    load: the settings from rules.md, and their cache (.git/gardener/config.json)
statcache   what promote learned about notes it did not need to read
notescan    which daily notes a promote pass must read
notetail    a big note parsed from where the last pass left it
tailstore   where note tails are kept, and the ledger state they rest on
linememo    MEMORY.md's lines as last parsed, so a pass parses only new ones

What each file holds, and which are caches: docs/internals.md.
"""
