"""Changes of fact written as agents write them: does the later note supersede,
end or leave alone the earlier one? (``python -m bench.changes``; see
bench/README.md, "Changes of fact".)"""
