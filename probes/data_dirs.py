"""Where databases and search engines keep their data on this host: known directories or --data paths."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .root import Root

KNOWN_DATA_DIRS = {
    "/var/lib/etcd": "etcd", "/var/lib/elasticsearch": "Elasticsearch", "/var/lib/opensearch": "OpenSearch",
    "/var/lib/ceph/osd": "Ceph OSD", "/var/lib/postgresql": "PostgreSQL", "/var/lib/pgsql": "PostgreSQL",
    "/var/lib/mysql": "MySQL", "/var/lib/mongodb": "MongoDB", "/var/lib/cassandra": "Cassandra",
    "/var/lib/kafka": "Kafka", "/var/lib/clickhouse": "ClickHouse", "/var/lib/prometheus": "Prometheus",
    "/var/lib/redis": "Redis", "/var/lib/rabbitmq": "RabbitMQ",
}


@dataclass(frozen=True, slots=True)
class DataDir:
    """A directory holding database or search data, what uses it, and how we know."""

    path: str
    owner: str
    source: str


def find_data_dirs(root: Root, mountpoints: list[str], extra: tuple[str, ...] = ()) -> list[DataDir]:
    """Known data directories that exist under `root` or are mountpoints, plus the user's --data paths."""
    found = [DataDir(os.path.normpath(path), "database", "--data") for path in extra]
    points = set(mountpoints)
    for path, owner in KNOWN_DATA_DIRS.items():
        if path in points:
            found.append(DataDir(path, owner, "/proc/self/mountinfo (a mountpoint)"))
        elif root.exists(path.lstrip("/")):
            found.append(DataDir(path, owner, f"{path} exists"))
    return found
