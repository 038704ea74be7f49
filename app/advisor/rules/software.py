"""Rules (filled in below)."""
