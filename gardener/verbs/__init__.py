"""The verbs: each reads the files, asks a pure planner, writes and commits inside a ``Session``.

session      Session: the workspace lock, the repo, warnings, apply, the replan loop
clock        Clock: the real clock or a fixed one (GARDENER_NOW)
budget       the loss budget: how much a pass may take out of current memory
reading      MEMORY.md, the daily notes, the ledger, state files, as the verbs read them
messages     every commit message the gardener writes (trailers: gardener.git.trailers)
results      the values the verbs return, with their JSON
note         note: append one entry to a daily note and commit it (the fast path's too)
record       record: commit what was written without the gardener, secrets redacted first
promote      promote: file the notes' durable entries into MEMORY.md
prune        prune: delete old superseded entries, expired entries, aged-out notes
forget       forget: retire the entries that match
held         approve / reject: a person's decision on an entry held for review
judge        review / decide: the entries waiting for the judge, its answers applied
purge        purge: erase a text from the files and every commit (--push: force-push it)
rewriting    purge's rewrite in steps a kill cannot spoil: the work tree carried over, stashes, flags
purgeresume  the rerun of a purge killed half-way: the rewrite finished, the tombstone made once
purgepush    purge --push: the rewrite force-pushed with a lease, a remote on this machine pruned
purgeresult  what a purge found and did (PurgeResult), its report lines
purgekeys    the ledger marks and retired names a purge's edits change, planned before it
sync         sync: record, fetch, merge, promote, push; follow a purge made on another clone
follow       sync's half for a purge made elsewhere: old history found, own commits replayed; the pre-push check
recall       recall: ranked facts and note entries, one key, or what held at a time
why          why: every value a key has had, with the commits
show         show: lines of MEMORY.md, rules.md or a note, secrets redacted
check        check: what is wrong in the workspace's files, or staged, or in history
init         init: create or adopt a workspace, install the pre-commit and pre-push hooks
guard        redaction of the files a verb commits, quarantine, purged texts
nottext      files that are not text: committed as they are, never redacted
secrets      what check reports about secrets: files, names, the hook's index, history
appendonly   a committed note rewritten by hand gets its committed text back; one deleted, restored
rewrites     a rewrite of MEMORY.md past max_loss held aside until ``record --accept``
maintenance  when a commit runs git's housekeeping
merge        the merge drivers git runs; entries a merge dropped, reported and filed again
"""
