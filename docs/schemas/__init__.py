"""JSON Schemas of the files diskdoctor writes and reads, shipped in the package (importlib.resources)."""
