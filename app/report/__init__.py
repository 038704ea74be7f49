"""Reports for a ticket: one model of host, TRIM, findings and runs, rendered as JSON, Markdown and HTML."""
