"""The diskdoctor application: CLI, Textual app and screens, captures and reports."""
