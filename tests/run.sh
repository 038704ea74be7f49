#!/usr/bin/env bash
# Quick start for developers and CI: install what the tests need, then lint and run every test.
# Live tests need root (loop devices); with CI=true a skipped live test fails the run.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../packaging/dev-env.sh"

DEBIAN_PACKAGES="xfsprogs btrfs-progs btrfs-compsize fio fdisk util-linux e2fsprogs tmux chromium pandoc man-db etcd-server etcd-client linux-perf rocksdb-tools"
need_packages() {
    local missing=""
    for tool in mkfs.xfs:xfsprogs mkfs.btrfs:btrfs-progs fio:fio sfdisk:fdisk partx:util-linux mkfs.ext4:e2fsprogs tmux:tmux compsize:btrfs-compsize chromium:chromium pandoc:pandoc man:man-db etcd:etcd-server etcdctl:etcd-client perf:linux-perf db_bench:rocksdb-tools; do
        command -v "${tool%%:*}" >/dev/null || missing="$missing ${tool##*:}"
    done
    echo "$missing"
}
missing="$(need_packages)"
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "tests/run.sh: installing Debian packages:$missing" >&2
        apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get -o DPkg::Lock::Timeout=300 install -y -qq $DEBIAN_PACKAGES >/dev/null
    else
        echo "tests/run.sh: missing$missing (live tests will skip; install: apt-get install$missing)" >&2
    fi
fi
# watch's live tests read kernel tracepoints: mount tracefs where the host has not (systemd mounts it at boot)
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing ] && [ ! -d /sys/kernel/tracing/instances ]; then
    mount -t tracefs nodev /sys/kernel/tracing \
        || echo "tests/run.sh: could not mount tracefs (watch's live tests will skip)" >&2
fi
ensure_venv test
cd "$REPO"
"$VENV/bin/ruff" check .
exec "$VENV/bin/python" -m pytest "$@"
