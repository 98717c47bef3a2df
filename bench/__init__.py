"""Benchmarks of memory-gardener: ``python -m bench`` prints the table (see __main__)."""
