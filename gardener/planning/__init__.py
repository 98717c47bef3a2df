"""The planners: parsed values and the time in, a plan out; pure, nothing written.

classify    an entry's kind and key, by the rules
headings    the kind a heading gives the entries under it (``note`` asks it too)
sameness    when two values are the same (normalized, or near-duplicates)
reconcile   the reconciliation timeline: the decision table that files one entry
refusals    why never-store refuses a durable entry
promote     a promotion pass: notes in, MEMORY.md's new facts and the ledger out
prune       a prune pass: superseded and expired entries, notes past their TTL
forget      a forget pass: retire the entries a selector matches
purge       purge matching: the text to erase, its cut forms, its keyed hash
check       the problems ``gardener check`` reports
"""
