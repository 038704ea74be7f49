"""Re-capture tests/fixtures/captured-loops from this machine's real loop stack (root only).

Builds the live test stack (ext4 discard, xfs, btrfs zstd, no-discard ext4, GPT loop), runs
`diskdoctor capture --redact`, extracts it into the fixture folder and writes its golden JSON.
"""

from __future__ import annotations

import json
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from support.cli_runner import run_cli
from support.loop_stack import build_loop_stack

TESTS = Path(__file__).parent
TARGET = TESTS / "fixtures" / "captured-loops"
GOLDEN = TESTS / "golden" / "captured-loops.devices.json"


def main() -> None:
    """Capture, extract, and record the expected JSON."""
    work = Path(tempfile.mkdtemp(prefix="diskdoctor-fixture-"))
    stack = build_loop_stack(work)
    try:
        bundle = work / "capture.tar.gz"
        made = run_cli("capture", "--redact", "-o", str(bundle))
        if made.code != 0:
            raise SystemExit(made.err)
        roles = {role: stack.kname(role) for role in stack.devices}
    finally:
        stack.teardown()
    shutil.rmtree(TARGET, ignore_errors=True)
    with tarfile.open(bundle) as tar:
        tar.extractall(work / "x", filter="fully_trusted")
    shutil.move(str(work / "x" / "diskdoctor-capture"), TARGET)
    (TARGET / "roles.json").write_text(json.dumps(roles, indent=1) + "\n")
    document = run_cli("devices", "--json", "--sysroot", str(TARGET))
    GOLDEN.write_text(document.out)
    shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {TARGET} and {GOLDEN}")


if __name__ == "__main__":
    main()
