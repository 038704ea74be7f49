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
           ("OK", "bold green", "a mountpoint row (v): discard passes down and something trims it"),
           ("UNSCHEDULED", "bold yellow", "discard passes down, but nothing trims the filesystem"),
           ("BLOCKED", "bold red", "a layer drops discard on its way down; the details name it"),
           ("UNSUPPORTED", "yellow", "the bottom device does not accept discard at all"),
           ("?", "dim", "a discard limit could not be read, or the TRIM verdict is not in yet"),
           ("luks", "bold black on yellow", "what a / filter matched (n / N: the next / previous match); "
            "the other rows kept are what it rests on and what rests on it")),
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
           ("WARN / CRIT / INFO", "bold", "severity of a problem card"),
           ("Sched, Warn", "bold", "the Periodic trim and Warnings headings, shortened where a long "
                                   "mountpoint needs their cells")),
    sources=("queue/discard_max_bytes and discard_granularity of every layer",
             "/proc/self/mountinfo: discard, nodiscard, discard=async mount options",
             "systemctl show fstrim.timer fstrim.service, or the unit files and drop-ins",
             "/etc/cron.*, /etc/crontab, root's crontab; /etc/fstab; /etc/crypttab; lvm.conf",
             "dmsetup table (allow_discards, thin-pool discards mode); lvs"),
)

BENCH_FIELDS = (
    ("filesystem", "bold", "the mounted filesystem to test; it follows the directory typed"),
    ("directory", "bold", "where the scratch files go (a folder made there, removed after the run)"),
    ("profile", "bold", "the WAL's settings as a database writes them (etcd, ...), or custom"),
    ("bs", "bold", "bytes per write: 2,300 B (type 2300, 8k or 1m)"),
    ("size", "bold", "bytes written in all (22 MiB; type 22m or 1g); the run ends there, unless seconds "
                     "is set"),
    ("seconds", "bold", "how long each load runs; empty (until size): the run ends once size is written"),
    ("sync call", "bold", "the call that makes each write durable: fdatasync, fsync, O_DSYNC writes, ..."),
    ("segments: prealloc", "bold", "allocate the WAL file before writing, as etcd does"),
    ("writes/s", "bold", "the open-loop loads, each its own: 50, 500 is two loads, 50/s then 500/s "
                         "(type 50,500)"),
    ("arrivals", "bold", "steady: a write every 1/rate s; poisson: independent clients"),
    ("then: capacity", "bold", "after the loads, a closed loop as fast as the disk goes (never the "
                               "verdict)"),
    ("jobs", "bold", "parallel compaction processes (compaction and interference)"),
    ("I/O: O_DIRECT", "bold", "randwrite bypasses the page cache"),
)
"""One line per Benchmark form field, by its label, for F1 (newuser16 #6: F1 explained none of them)."""

BENCH_HELP = ScreenHelp(
    title="WAL benchmark",
    shows=("etcd-style durable writes: small writes each followed by fdatasync, in a private scratch "
           "directory that is always removed. A child process measures; this screen only draws. Live: "
           "p50/p90/p99/p99.9 per interval, a histogram of the whole run, ops/s, progress and the time "
           "each layer adds; at the end, the verdict against the threshold you pick (WAL and WAL under "
           "compaction; compaction and randwrite are measured, not judged, so they have no threshold). "
           "After a WAL run the chart, figures, histogram and layer times show the load the verdict judged; "
           "c steps through the other loads (the closed-loop capacity run is never judged). Before the first "
           "run the column says what Start runs and lists the runs saved on that filesystem; / filters that "
           "list, as on every list (its title says how many fit above the fold). d moves to the "
           "directory field without typing into it; a path already there stays; a field tabbed into keeps "
           "its text (the cursor at its end)."),
    words=(*BENCH_FIELDS,
           ("PASS", "bold green", "the p99 of the durable call is under the threshold"),
           ("FAIL", "bold red", "the p99 is at or over the threshold"),
           ("INCONCLUSIVE", "bold yellow",
            "the p99's 95% confidence interval lies on both sides of the threshold: too few slow samples "
            "to say, often on a busy host ([host busy]). The verdict says how long a run would settle it; "
            "l (Run longer, after a WAL run) runs that long; a quieter moment helps too"),
           ("samples", "bold", "beside a percentile: how many writes took that long or longer, the evidence "
                               "behind it"),
           ("yellow figure", "yellow", "a percentile resting on fewer than 10 samples: not worth much"),
           ("dashed red line", "red", "the threshold on the chart (only for a judged WAL run)"),
           ("ratio ours/fio", "bold", "above 1.00: our latency is higher (slower), our MB/s or ops/s higher "
                                      "(faster); the meaning column says which")),
    sources=("latencies: measured around write() and fdatasync() in the engine child (nanoseconds)",
             "layers: /proc/diskstats deltas of the target's device and every layer below it",
             "thresholds: etcd docs 10 ms p99 wal_fsync; vendor 20 ms (Red Hat OpenShift guidance)",
             "fio (f, when installed): the equivalent job on the same directory, for every workload: "
             "the WAL's and randwrite's latencies (sync.lat_ns), compaction's reader and writer MB/s and "
             "sync p99, the WAL alone and beside fio's compaction jobs"),
)

BENCH_CAPTURE_HELP = ScreenHelp(
    title="WAL benchmark (needs the live host)",
    shows=("On a capture (--sysroot) this page only says why nothing runs here: a benchmark writes to the "
           "storage it measures, so it runs only on the host itself. Run diskdoctor there without --sysroot "
           "(or `diskdoctor bench wal --dir DIR` in its shell); Runs (key 5) lists the runs saved on this "
           "machine, and Stack (1), TRIM (2) and Advice (4) read the capture as they would the host."),
    words=(),
    sources=(),
)
"""The Benchmark page's help on a capture: only what the page has there (newuser14 #10)."""

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

RUNS_HELP = ScreenHelp(
    title="Saved runs",
    shows=("Every benchmark run saved in the runs folder of the user running diskdoctor "
           "($XDG_STATE_HOME/diskdoctor/runs, else ~/.local/state/diskdoctor/runs; the status line says "
           "whose): every shell and session of that user on this host saves there, and run files copied "
           "from other hosts name their host after the target where there is room. Newest first: ↑↓ or j/k"
           " move, g/G go to the first/last run, Space or Enter picks two to compare (● marks a picked run;"
           " the cursor is the run other screens follow), / filters; PgDn/PgUp"
           " scroll the run's details or the comparison when they run below the fold. Where every run "
           "listed is of one kind, the kind column gives its room to the others and the result's header "
           "names the kind (WAL result); in a narrow terminal, runs of several kinds give the save time's "
           "column to their verdicts' limits (the status line says it is hidden, the details give the "
           "time)."),
    words=(("PASS", "bold green", "the figure is under the workload's limit (e.g. etcd's p99 < 10 ms)"),
           ("FAIL", "bold red", "at or over the limit"),
           ("INCONCLUSIVE", "bold yellow", "the figure's 95% interval reaches both sides of the limit"),
           ("samples", "bold", "in a verdict (\"100 samples\"): how many timed writes its p99 was read from "
                               "(at the judged load), the evidence behind it; few widen the 95% interval"),
           ("[host busy]", "", "a caveat: the figures include other processes' load (the details say more)"),
           ("…", "dim", "more caveats than the column has room for: the run's details list them"),
           ("REGRESSION", "bold red",
            "of two runs compared, a judged figure 20% or more worse, beyond their noise"),
           ("NOT COMPARABLE", "bold yellow",
            "the two runs differ in filesystem, durability, host or parameters: no change between them is "
            "a regression")),
    sources=("one JSON file per run in the runs folder (diskdoctor runs list shows the same)",),
)

MONITOR_HELP = ScreenHelp(
    title="Live I/O monitor",
    shows=("iostat -x for the whole stack, every second: a group per filesystem from its device down to "
           "the disks (a layer under two filesystems shows in both), then devices under none. Per layer: "
           "utilisation and its trend, read/write IOPS and MB/s, average wait per read and write, flushes "
           "and discards with their waits, requests in flight. Beside it: the processes moving the most "
           "storage bytes and CPU iowait/steal (a noisy neighbour on a VM shows as steal), and the page "
           "cache's dirty bytes: a process's buffered write counts when it reaches the page cache, and a "
           "device shows it only at writeback, so a writer no device matches yet is explained there. A "
           "kernel worker (kworker) writes data a process wrote already (a loop device's, into its backing "
           "file): its rows are dim, after the writers', and do not add to theirs. o sorts "
           "by a column; sorted, each device names the first mountpoint it serves and how many more "
           "(sda /lab/data +11: under 12 filesystems) where it fits; the others are counted on the status "
           "line (3 mountpoints only in the details) and named in the details. Where the table leaves "
           "rows under it (a wide, tall "
           "terminal, a few devices), they chart the selected layer's last minute: a bar chart per figure, "
           "each with its figure now and the minute's peak (a full bar; util's is 100%; awaits in ms), the "
           "newest tick on the right, the columns no tick has reached yet dotted. On a capture "
           "there is one reading: its cumulative counters are shown, and live rates need the live host."),
    words=(("red row", "bold white on red", "the group's saturated layer: busy 90% of the interval or more"),
           ("yellow util", "yellow", "busy 60% of the interval or more"),
           ("util trend", "cyan", "utilisation over the last 12 ticks, 0 to 100%, newest on the right"),
           ("r_await / w_await", "bold", "average ms per completed read / write, queueing included"),
           ("f/s, d/s", "bold", "flushes (cache flushes: fsync reaching the disk) and discards per second"),
           ("-", "dim", "nothing of that kind completed in the interval, or this kernel lacks the field")),
    sources=("/proc/diskstats (every field; /sys/block/X/stat on a capture without it), deltas per tick",
             "the stack under each filesystem: the shared host snapshot (sysfs holders/slaves, mountinfo)",
             "per-process read/write bytes: psutil (/proc/PID/io; another user's process needs root)",
             "dirty and writeback bytes: /proc/meminfo; how long a page stays dirty: "
             "/proc/sys/vm/dirty_expire_centisecs",
             "CPU iowait and steal: psutil.cpu_times() deltas",
             "hotplug: pyudev netlink events (udev, or kernel uevents without udevd); else sysfs re-read"),
)

GUIDE_HELP = ScreenHelp(
    title="Guided walkthrough",
    shows=("One question or step per page, in order, ending in a verdict that lists the findings behind it "
           "and can save a report. The progress line shows where you are (●). Answers and results are kept "
           "when you go back. Steps that run something (a short benchmark, trim now, a monitor reading) wait "
           "for Start; Skip goes on without them. Steps that need the live host say so on a capture and are "
           "skipped. Everything a walkthrough does is also on the screens 1-6 and in the CLI."),
    words=(("●○", "cyan", "steps done and to come"),
           ("PASS / FAIL", "bold", "a benchmark's p99 against the chosen threshold"),
           ("INCONCLUSIVE", "bold yellow", "its interval lies on both sides of the threshold (a busy host, "
                                           "few samples): a longer run on screen 3 settles it"),
           ("short run", "dim", "walkthrough benchmarks are shortened for a first verdict; screen 3 runs "
                                "the full ones")),
    sources=("the shared host snapshot (stack, TRIM facts and verdicts), the advisor's rules",
             "running processes' command lines and config files (psutil, live host only)",
             "benchmarks: the same engine as diskdoctor bench; every run is saved (screen 5)"),
)
