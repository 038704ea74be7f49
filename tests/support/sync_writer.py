"""A small database stand-in the watch tests trace: etcd's file layout (member/wal/*.wal, member/snap/db),
COUNT write+fdatasync calls on the WAL and one write+fsync on the db every tenth (or, given PLAIN,
write+fdatasync on that one file of no database's layout); it starts on a "go" line."""

from __future__ import annotations

import os
import sys

WAL = "member/wal/0000000000000000-0000000000000000.wal"
DB = "member/snap/db"


def main(directory: str, count: int, plain: str | None = None) -> None:
    """Open the files, say "ready", wait for "go", sync COUNT times, say "done", wait for stdin to close."""
    for name in (WAL, DB) if plain is None else (plain,):
        os.makedirs(os.path.join(directory, os.path.dirname(name)), exist_ok=True)
    wal = os.open(os.path.join(directory, plain or WAL), os.O_WRONLY | os.O_CREAT, 0o600)
    db = wal if plain else os.open(os.path.join(directory, DB), os.O_WRONLY | os.O_CREAT, 0o600)
    print("ready", flush=True)
    sys.stdin.readline()
    for index in range(count):
        os.write(wal, b"w" * 2048)
        os.fdatasync(wal)
        if index % 10 == 0 and not plain:
            os.write(db, b"d" * 4096)
            os.fsync(db)
    print("done", flush=True)
    sys.stdin.readline()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), *sys.argv[3:4])
