"""Guided walkthroughs: one question or step at a time, ending in a verdict that links to the findings.

Each walkthrough only orders and explains what the screens and commands already do (the stack, TRIM,
benchmarks, the monitor, the advisor, saved runs, reports); every step is reachable without it.
"""
