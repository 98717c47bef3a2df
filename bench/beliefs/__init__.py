"""The labelled belief evaluation: ``python -m bench.beliefs`` promotes real agent
workspaces as a new user would and scores what MEMORY.md ends up believing
against hand labels (bench/labels/, by file and line, no note text).

labels    read the label files: items, supersession pairs, accepted pairs, questions
setups    what a user does to each workspace before ``init`` (notes_dir, renames)
run       one workspace through init, promote on day 1, prune on day 36, recall
score     the figures from a run and its labels (pure)
report    the table, the JSON and the ``--verbose`` list of misses
__main__  the command line

How it measures and the latest figures: bench/README.md, "Beliefs".
"""
