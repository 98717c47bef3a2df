"""The planners: parsed values and the time in, a plan out; pure, nothing written.

classify    an entry's kind and key, by the rules
values      a value cut from a sentence: its full stop off, an abbreviation's kept
headings    the kind and subject an entry's headings give it
headingwords the kind rules.md's heading words give a heading (``note`` asks it)
labels      label bullets: ``**Key**: value``, ``Key: value``, and what a label is
keying      keys for free text: patterns, topics, copulas, the person of a preference
frames      sentence frames of change, removal and negation
anchor      key a change or removal by the one current value it names
sameness    when two values are the same (normalized, or near-duplicates)
reconcile   the reconciliation timeline: the decision table that files one entry
ending      removals: what one names, what held then, what it ends
polarity    whether a sentence is for or against something (en/de/fr/es/ru/zh/ja)
refusals    why never-store refuses a durable entry
promote     a promotion pass: notes in, MEMORY.md's new facts and the ledger out
prune       a prune pass: superseded and expired entries, notes past their TTL
forget      a forget pass: retire the entries a selector matches
purge       purge matching: the text to erase, its cut forms, its keyed hash
check       the problems ``gardener check`` reports
merge       the three-way merge of MEMORY.md's block by entry id; entries a merge dropped
mergetext   MEMORY.md's text merged around the block; set-like files merged as sets
duplicates  exact duplicate blocks in a note (an agent's second flush)
"""
