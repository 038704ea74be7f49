"""Data files shipped with diskdoctor (the Textual stylesheet)."""
