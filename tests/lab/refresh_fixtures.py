"""Turn lab outputs into committed fixtures: each group's redacted capture, extracted, plus the kernel's
truth beside it (fstrim results, discard counters, dm features) so the normal suite can check verdicts.

Usage: python3 tests/lab/refresh_fixtures.py DIR   (DIR written by `python3 tests/lab/vm.py --out DIR`)
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS))

from diskdoctor.app.core.capture.sysroot import safe_extract  # noqa: E402
from lab.vm import GROUPS  # noqa: E402
from support.lab_results import LabGroup  # noqa: E402

TRUTH = "lab-truth.json"


def truth(group: LabGroup) -> dict[str, object]:
    """What the kernel said in the guest, per lab mount."""
    mounts = {}
    for name in group.mounts():
        run = group.fstrim(name)
        mounts[f"/lab/{name}"] = {"fstrim_rc": run.rc, "fstrim_output": run.output,
                                  "trimmed_bytes": run.trimmed_bytes, "reached_disks": run.reached_disks,
                                  "disk_discard_sectors": run.disk_discard_sectors}
    return {"mounts": mounts, "dmsetup_table": (group.folder / "dmsetup-table.txt").read_text(),
            "made_by": "tests/lab/guest.sh (see tests/fixtures/README.md)"}


def refresh(outputs: Path, group_name: str) -> Path:
    """Replace tests/fixtures/lab-GROUP with the group's capture and truth."""
    group = LabGroup(outputs / group_name)
    target = TESTS / "fixtures" / f"lab-{group_name}"
    work = Path(tempfile.mkdtemp(prefix="diskdoctor-lab-fixture-"))
    try:
        safe_extract(str(group.folder / "capture.tar.gz"), str(work))
        tops = [p for p in work.iterdir() if p.is_dir()]
        top = tops[0] if len(tops) == 1 and not (work / "sys").exists() else work
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(top, target, symlinks=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    (target / TRUTH).write_text(json.dumps(truth(group), indent=1, sort_keys=True) + "\n")
    return target


def main(argv: list[str]) -> int:
    """Refresh every group found in the outputs folder."""
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    outputs = Path(argv[0])
    for name in GROUPS:
        if (outputs / name / "done").exists():
            print(refresh(outputs, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
