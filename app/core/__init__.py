"""Judgement and records: findings, TRIM, benchmarks, saved runs, advice, captures and the one snapshot (no
textual, no rich)."""
