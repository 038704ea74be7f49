"""The diskdoctor application, one layered house: base, core, text, report, cli and tui floors
(docs/dev/architecture.md)."""
