"""Recall: the recall index, how it ranks, and the search that keeps it fresh.

search  search, search_fresh: re-read the files that changed, then ask the index
index   Index: facts, curated text and note entries in SQLite FTS5; best BM25 first, then newest
terms   the words of a text as the index holds them (CJK runs as bigrams), a query as FTS5 asks
curated MEMORY.md's text outside the managed block as units: status curated, with their lines
schema  the index's tables, and the signature that says when to empty them
stamps  a file's or folder's stamp (size, mtime, ctime, inode): what tells it changed
filed   queries over the index's rows: what MEMORY.md filed from the notes, what is pending
hits    pick: which matches a plain or ``--all`` recall answers with
rank    facts and entries as hits and index rows; as-of, ``--key`` lookup, ``why``'s history

The ranking of a plain recall is the ``ORDER BY`` of ``Index.search`` (BM25,
then recency) and the choice ``hits.pick`` makes (current, pending, not
retired); ``--as-of`` ranks with ``rank.rank``. The verb that calls these is
``gardener.verbs.recall``.
"""
