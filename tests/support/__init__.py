"""Helpers the tests share: fixture roots, loop stacks, CLI runners, fixed runs."""
