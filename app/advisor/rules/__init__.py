"""The rule modules; importing this package registers every rule with the findings registry."""

from . import bench, geometry, hardware, mounts, queues, software, trim

__all__ = ["bench", "geometry", "hardware", "mounts", "queues", "software", "trim"]
