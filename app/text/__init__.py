"""Plain and Rich text shared by the CLI, the TUI and the report."""
