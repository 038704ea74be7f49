"""Benchmarks as records and verdicts: the run record, the per-workload documents and summaries, the bench
rules."""
