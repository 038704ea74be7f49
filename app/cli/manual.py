"""`--man`: the manual page that the package installs (share/man/man1) and the binary carries (its assets),
shown in man(1) on a terminal, else printed as roff so `diskdoctor --man | man -l -` works anywhere."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..base.errors import EXIT_USAGE
from ..base.quiet_stdout import write_stdout

PAGE = "diskdoctor.1"


def manual_page() -> Path | None:
    """Where the roff page is: inside the package's assets (the binary), or under an install prefix."""
    import site
    from importlib.resources import files

    bundled = files("diskdoctor.assets") / PAGE
    if bundled.is_file():
        return Path(str(bundled))
    user_base = getattr(site, "getuserbase", lambda: None)()  # the frozen binary's site has none
    for prefix in (sys.prefix, user_base):
        installed = Path(prefix) / "share" / "man" / "man1" / PAGE if prefix else None
        if installed is not None and installed.is_file():
            return installed
    return None


def show_manual() -> int:
    """Open the page in man on a terminal, else print it; 2 with one line when it is not installed."""
    page = manual_page()
    if page is None:
        print("diskdoctor: error: the manual page is not installed here (its source is "
              "docs/man/diskdoctor.1.md in diskdoctor's source tree)", file=sys.stderr)
        return EXIT_USAGE
    import shutil  # with subprocess, only for --man (they cost every other command ~6 ms)
    import subprocess

    man = shutil.which("man")
    if man and sys.stdout.isatty():
        return subprocess.run([man, "-l", str(page)], check=False).returncode
    return write_stdout(page.read_text(encoding="utf-8"))


class ManualAction(argparse.Action):
    """`--man`: show the manual page and exit."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        parser.exit(show_manual())
