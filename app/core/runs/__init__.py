"""Saved benchmark runs: the record and its file format, the runs directory, comparisons, fingerprints."""
