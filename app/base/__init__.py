"""The floor every other part stands on: errors, the version, formatting and units (the standard library
only)."""
