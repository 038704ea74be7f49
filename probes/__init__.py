"""Everything that measures the host: passive probes that read files under a Root, no UI imports."""
