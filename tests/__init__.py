"""The tests: tests/<package>/test_<module>.py for gardener/<package>/<module>.py.

e2e/              end-to-end cases over real workspaces, real git and real processes
golden/           input notes and the MEMORY.md promote must write (e2e/test_golden.py)
neverstore/data/  the never-store cases as data files, one row a case
conftest          the fixtures: a machine with no git identity, a workspace, the CLI
helpers           small builders shared by the pure-core tests
"""
