"""Everything that measures the host: passive probes that read files under a Root, no UI imports.

Loading this package first imports `dataclasses` without `inspect` (with `ast`, `dis` and `tokenize`:
~6 ms of every command's start-up, 8% of `devices --json`): dataclasses calls `inspect.signature` only
for a class without a docstring, so while it loads, `inspect` is a stand-in that imports the real
module on the first attribute asked of it. Every later `import inspect` gets the real module.
Then `dataclasses` is given the bytecode of our dataclasses' methods compiled ahead (record_code.py)."""

import sys
import types


class _InspectOnFirstUse(types.ModuleType):
    """Stands in for `inspect` inside dataclasses; any attribute is the real module's (imported then)."""

    def __getattr__(self, name: str) -> object:
        import importlib

        return getattr(importlib.import_module("inspect"), name)


if "dataclasses" not in sys.modules and "inspect" not in sys.modules:
    sys.modules["inspect"] = _InspectOnFirstUse("inspect")
    try:
        import dataclasses  # noqa: F401
    finally:
        del sys.modules["inspect"]

from . import record_code  # noqa: E402  (after dataclasses, which it hands the compiled methods)

record_code.install()
