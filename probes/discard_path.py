"""Walk a filesystem's stack downwards and find whether discard reaches the bottom, or where it stops."""

from __future__ import annotations

from dataclasses import dataclass

from .host import Host


@dataclass(frozen=True, slots=True)
class DiscardLayer:
    """One layer under a filesystem with its discard limits (partitions show their disk's)."""

    kname: str
    name: str
    kind: str
    discard_max_bytes: int | None
    discard_granularity: int | None
    source: str

    @property
    def accepts(self) -> bool | None:
        """Whether this layer passes discard; None when discard_max_bytes could not be read."""
        return None if self.discard_max_bytes is None else self.discard_max_bytes > 0


@dataclass(frozen=True, slots=True)
class DiscardReach:
    """Whether discard sent to a device passes down its stack: reaches, blocked, unsupported or unknown.

    A fact about the path only: whether anything ever sends a discard (a schedule, a mount option) is the
    TRIM verdict's business (app/core/trim/doctor.py)."""

    verdict: str
    layers: tuple[DiscardLayer, ...]
    blocked_at: str | None
    leaves: tuple[str, ...]
    summary: str


def layers_below(host: Host, kname: str) -> list[str]:
    """`kname` and every device under it, top-down, each once (breadth-first)."""
    order, queue, seen = [], [kname], {kname}
    while queue:
        current = queue.pop(0)
        order.append(current)
        for parent in host.parents(current):
            if parent not in seen:
                seen.add(parent)
                queue.append(parent)
    return order


def _descendants(host: Host, kname: str) -> list[str]:
    return layers_below(host, kname)[1:]


def why_layer_blocks(kind: str, md_level: str | None) -> str:
    """The usual reason a layer of this kind drops discards."""
    if kind == "crypt":
        return "dm-crypt without allow_discards"
    if md_level in ("raid4", "raid5", "raid6"):
        return "md raid4/5/6 needs raid456 devices_handle_discard_safely=Y"
    if md_level == "raid0":
        return "md raid0 with discard disabled (RHEL 7 raid0.devices_discard_performance?)"
    if kind == "lvm":
        return "LVM target without discard support (a thin pool with discards=ignore?)"
    return "this layer does not pass discard down"


def discard_reach(host: Host, kname: str) -> DiscardReach:
    """Does discard sent to `kname` reach the bottom of its stack? If not, which layer stops it."""
    names = layers_below(host, kname)
    layers = []
    for name in names:
        device = host.devices[name]
        layers.append(DiscardLayer(name, device.name, device.kind, device.discard_max_bytes.value,
                                   device.discard_granularity.value,
                                   device.discard_max_bytes.source))
    by_name = {layer.kname: layer for layer in layers}
    leaves = tuple(n for n in names if not host.parents(n))
    leaf_names = ", ".join(by_name[n].name for n in leaves)
    via = [layer.name for layer in layers if layer.kname not in leaves]
    for layer in layers:
        if layer.accepts is None:
            return DiscardReach("unknown", tuple(layers), None, leaves,
                                f"unknown: cannot read discard limits of {layer.name}")
        if layer.accepts is False:
            below = [by_name[n] for n in _descendants(host, layer.kname)]
            if any(b.accepts for b in below):
                device = host.devices[layer.kname]
                reason = why_layer_blocks(layer.kind, device.md_level)
                return DiscardReach("blocked", tuple(layers), layer.kname, leaves,
                                    f"BLOCKED at {layer.name} ({reason})")
            return DiscardReach("unsupported", tuple(layers), layer.kname, leaves,
                                f"not supported: {leaf_names} does not accept discard")
    through = f" through {', '.join(via)}" if via else ""
    return DiscardReach("reaches", tuple(layers), None, leaves,
                        f"discard passes down to {leaf_names}{through}")
