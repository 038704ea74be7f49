"""Software rules: the Ceph packages whose bundled RocksDB was built without optimisation, and a fio too old
to report sync latencies."""

from __future__ import annotations

from collections.abc import Iterator

from diskdoctor.app.core.findings.finding import Evidence, Finding
from diskdoctor.app.core.findings.registry import Scope, rule
from diskdoctor.app.core.findings.vocabulary import Severity
from diskdoctor.probes.tool_reports import parse_ceph_version, parse_fio_version

from ..contexts import AdviceInput

FIXED_IN = {16: (16, 2, 15), 17: (17, 2, 8), 18: (18, 2, 4)}
"""First release of each series whose Debian/Ubuntu packages build RocksDB with optimisation."""
FIRST_GOOD_SERIES = 19
DEBIAN_FAMILY = ("debian", "ubuntu")
FIO_SYNC_PERCENTILES = (3, 4)
"""fio-3.4 is the first release with fsync/fdatasync latency percentiles (commit b2b3eefe)."""
FIO_ADVISED = (3, 5)
"""The release the etcd/fio guides name ("fio >= 3.5")."""


def _debian_like(release: dict[str, str]) -> bool:
    words = f"{release.get('ID', '')} {release.get('ID_LIKE', '')}".lower().split()
    return any(word in DEBIAN_FAMILY for word in words)


@rule("CEPH-ROCKSDB-BUILD", scope=Scope.HOST, severity=Severity.WARN,
      checks="ceph-osd on Debian/Ubuntu older than 16.2.15 / 17.2.8 / 18.2.4 (RocksDB built without -O2)",
      sources=("ceph.io blog 2024-02-13: Silver bullet for RocksDB performance", "ceph/ceph pr#54918",
               "backports pr#55500 (16.2.15), pr#55501 (17.2.8), pr#55502 (18.2.4)"))
def ceph_rocksdb(advice: AdviceInput) -> Iterator[Finding]:
    """CEPH-ROCKSDB-BUILD: upstream Debian/Ubuntu Ceph packages shipped an unoptimised RocksDB."""
    line, release = advice.facts.ceph_osd_version, advice.facts.os_release
    version = parse_ceph_version(line.value or "")
    if version is None or release.value is None or not _debian_like(release.value):
        return
    fixed = FIXED_IN.get(version[0])
    if version[0] >= FIRST_GOOD_SERIES or (fixed is not None and version >= fixed):
        return
    target = ".".join(map(str, fixed)) if fixed else "a supported release (18.2.4 or later)"
    shown = ".".join(map(str, version))
    yield Finding(
        "CEPH-ROCKSDB-BUILD", Severity.WARN, "ceph-osd",
        f"ceph-osd {shown} on {release.value.get('PRETTY_NAME', 'Debian/Ubuntu')} ships a RocksDB built "
        "without optimisation",
        (Evidence.of("ceph-osd --version", line),
         Evidence("distribution", release.value.get("PRETTY_NAME") or release.value.get("ID", "?"),
                  release.source)),
        "Upstream Debian/Ubuntu packages built the bundled RocksDB with CMAKE_BUILD_TYPE=None (no -O2). "
        "With an optimised build, 4K random writes doubled and RocksDB compaction took 2-3x less time "
        "(ceph.io, 2024). Fixed in 16.2.15, 17.2.8 and 18.2.4"
        + ("." if fixed else f"; the {version[0]}.x series is end of life and never got the fix."),
        (f"# upgrade Ceph to {target} or later (one OSD host at a time, noout set)",
         "ceph osd set noout && apt-get install --only-upgrade ceph-osd && systemctl restart ceph-osd.target"
         " && ceph osd unset noout"),
        "An upgrade restarts the OSDs on this host; recovery traffic follows.",
        ("ceph-osd --version", "ceph tell osd.* compact   # then compare compaction times"))


@rule("FIO-VERSION", scope=Scope.HOST, severity=Severity.WARN,
      checks="the installed fio is older than 3.4 (no sync latency percentiles) or than the 3.5 the etcd "
             "guides name",
      sources=("fio git: b2b3eefe 'Add support for logging fsync (and friends) latencies' (in fio-3.4)",
               "IBM: using fio to tell whether your storage is fast enough for etcd (fio >= 3.5)"))
def fio_version(advice: AdviceInput) -> Iterator[Finding]:
    """FIO-VERSION: an old fio prints no fdatasync percentiles, so the usual etcd disk check cannot work."""
    line = advice.facts.fio_version
    version = parse_fio_version(line.value or "")
    if version is None or version >= FIO_ADVISED:
        return
    shown = f"{version[0]}.{version[1]}"
    blind = version < FIO_SYNC_PERCENTILES
    yield Finding(
        "FIO-VERSION", Severity.WARN if blind else Severity.INFO, "fio",
        f"fio {shown} " + ("reports no fdatasync latency percentiles" if blind else
                           "is older than the 3.5 the etcd disk guides name"),
        (Evidence.of("fio --version", line),),
        "The etcd disk check (fio --rw=write --ioengine=sync --fdatasync=1 ...) is read from fio's 'sync' "
        "percentiles, which fio only reports since 3.4; an older fio prints write latencies alone, which say "
        "nothing about fdatasync. The guides ask for 3.5 or later. diskdoctor bench wal measures the same "
        "job without fio.",
        ("apt-get install --only-upgrade fio   # or dnf upgrade fio; any distribution release since 2018",),
        None,
        ("fio --version   # fio-3.5 or later",))
