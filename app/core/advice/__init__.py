"""The advisor: the contexts rules are called with, the catalog of rule modules, and the run over a
snapshot."""
