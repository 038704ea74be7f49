"""The TRIM verdict: its rules, the trim schedule, the discard mode, the peak window and trim now."""
