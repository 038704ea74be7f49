"""The command line: the argument parser and one module per command; never imports textual."""
