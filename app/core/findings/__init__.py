"""Findings, their vocabulary, and a registry of rules that knows no rule module."""
