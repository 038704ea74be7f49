"""Benchmarks as records and verdicts: the kinds table, the run record, the per-workload documents and
summaries, the verdict and the bench rules."""
