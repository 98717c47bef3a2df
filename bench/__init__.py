"""Benchmarks of memory-gardener: ``python -m bench`` prints the table.

__main__    the command line: build the workspaces, measure, print or write the table
generate    deterministic daily notes that read like an agent's: the workload
workspaces  build the 1-day to 10-year workspaces from them
figures     the figures, each against a baseline timed in the same run
timing      run and time commands: the gardener, its baselines, the search tool
probe       child-process probes (fresh interpreters); ``probe profile`` for one verb
table       the results table: a Row per figure, as text or Markdown
beliefs     ``python -m bench.beliefs``: promotion scored against hand labels of real workspaces
purge_kills ``python -m bench.purge_kills``: purges killed at random moments, each run again
soak        ``python -m bench.soak``: every writer at once for minutes, then what was lost

How it measures, the targets and the latest figures: bench/README.md.
"""
