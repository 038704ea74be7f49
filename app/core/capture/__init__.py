"""Captures: the bundle, redaction, the tree copy and --sysroot."""
