"""What each screen's help (F1 or ?) says: what it shows, its colours and words, where figures come from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ScreenHelp:
    """The help of one screen; its keys are listed from the screen's own bindings, so they never drift."""

    title: str
    shows: str
    words: tuple[tuple[str, str, str], ...]
    """(word as shown, its style, what it means)."""
    sources: tuple[str, ...]


STACK_HELP = ScreenHelp(
    title="Storage stack",
    shows=("Every block device and how they stack: from the disks up (like lsblk) or from the mountpoints "
           "down (what is under /var/lib/etcd?). The selected row's details list identity, queue, RAID, "
           "device-mapper, loop, partition and filesystem values, each with where it was read; unknown "
           "values say why."),
    words=(("yes", "green", "this layer accepts discard (its queue/discard_max_bytes is above 0)"),
           ("no", "red", "this layer does not accept discard"),
           ("ok", "green", "discard from this filesystem reaches the flash"),
           ("BLOCKED", "bold red", "a layer drops discard on its way down; the details name it"),
           ("unsupported", "yellow", "the bottom device does not accept discard at all"),
           ("?", "dim", "a discard limit could not be read")),
    sources=("/sys/class/block/*: size, queue limits, holders/slaves (the tree), partitions",
             "/proc/self/mountinfo: mountpoints and mount options; /proc/swaps",
             "/run/udev/data: model, serial, filesystem type; blkid when udev has no record",
             "dmsetup table and /sys/block/dm-*/dm: device-mapper names and targets",
             "s shows the source of every value in the details"),
)

TRIM_HELP = ScreenHelp(
    title="TRIM doctor",
    shows=("One row per mounted filesystem on a block device: does discard reach the flash, the discard "
           "mount mode, what trims it periodically, and problems. The selected filesystem's layers, "
           "schedule and fixes (exact commands, their risk and how to verify) are below."),
    words=(("OK", "bold green", "discard reaches the flash and something trims it"),
           ("BLOCKED", "bold red", "a layer drops discard: fstrim does nothing for this filesystem"),
           ("UNSUPPORTED", "yellow", "the bottom device does not accept discard (an HDD, a virtual disk)"),
           ("UNSCHEDULED", "bold yellow",
            "discard works but nothing trims (no timer, cron or discard option)"),
           ("UNKNOWN", "magenta", "a discard limit could not be read"),
           ("WARN / CRIT / INFO", "bold", "severity of a problem card")),
    sources=("queue/discard_max_bytes and discard_granularity of every layer",
             "/proc/self/mountinfo: discard, nodiscard, discard=async mount options",
             "systemctl show fstrim.timer fstrim.service, or the unit files and drop-ins",
             "/etc/cron.*, /etc/crontab, root's crontab; /etc/fstab; /etc/crypttab; lvm.conf",
             "dmsetup table (allow_discards, thin-pool discards mode); lvs"),
)

BENCH_HELP = ScreenHelp(
    title="WAL benchmark",
    shows=("etcd-style durable writes: small writes each followed by fdatasync, in a private scratch "
           "directory that is always removed. A child process measures; this screen only draws. Live: "
           "p50/p90/p99/p99.9 per interval, a histogram of the whole run, ops/s, progress and the time "
           "each layer adds; at the end, the verdict against the threshold you pick."),
    words=(("PASS", "bold green", "the p99 of the durable call is under the threshold"),
           ("FAIL", "bold red", "the p99 is at or over the threshold"),
           ("yellow figure", "yellow", "a percentile resting on fewer than 10 samples: not worth much"),
           ("dashed red line", "red", "the threshold on the chart"),
           ("ratio ours/fio", "bold", "above 1.00: our figure is slower (higher) than fio's")),
    sources=("latencies: measured around write() and fdatasync() in the engine child (nanoseconds)",
             "layers: /proc/diskstats deltas of the target's device and every layer below it",
             "thresholds: etcd docs 10 ms p99 wal_fsync; vendor 20 ms (Red Hat OpenShift guidance)",
             "fio: the same job run by fio (jobs[0].sync.lat_ns), when fio is installed"),
)

ADVICE_HELP = ScreenHelp(
    title="Advice",
    shows=("Every finding of `diskdoctor advise` on this host, grouped by filesystem or device, most "
           "severe first. The selected finding's card shows the evidence (each value with where it was "
           "read), why it matters, the fix commands, their risk and how to verify."),
    words=(("CRIT", "bold white on red", "fix this: data safety or a large performance loss"),
           ("WARN", "bold black on yellow", "worth changing"),
           ("INFO", "bold black on cyan", "context, or a myth debunked (nothing to change)")),
    sources=("the same host snapshot as the other screens (sysfs, mountinfo, udev, TRIM facts)",
             "read-only commands (tune2fs, compsize, ceph-osd --version) where a rule needs them",
             "benchmark results given with advise --bench"),
)
