"""The advisor: rules that turn host facts and benchmark results into findings, and their renderers."""
