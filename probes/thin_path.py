"""Thin pools that a device's stack goes through, each with its discard mode and where that was read."""

from __future__ import annotations

from dataclasses import dataclass

from .device_kinds import split_lvm_dm_name
from .dm_tables import DmFacts
from .host import Host

THIN_POOL_LAYER = "-tpool"


@dataclass(frozen=True, slots=True)
class ThinPoolLayer:
    """A thin pool under a filesystem: its dm layer, its LVM name and its discards mode."""

    kname: str
    pool: str
    """'vg/pool' as lvchange and lvs name it."""
    mode: str | None
    """ignore, nopassdown or passdown; None when neither `dmsetup table` nor `lvs` could be read."""
    source: str
    thin_knames: tuple[str, ...]
    """The thin volumes of this stack sitting directly on the pool."""


def _is_pool_layer(dm_facts: DmFacts, dm_name: str, dm_uuid: str | None) -> bool:
    targets = dm_facts.tables.get(dm_name)
    if targets:
        return targets[0].target == "thin-pool"
    return (dm_uuid or "").startswith("LVM-") and (dm_uuid or "").endswith(THIN_POOL_LAYER)


def thin_pools_in_path(host: Host, knames: list[str], dm_facts: DmFacts) -> list[ThinPoolLayer]:
    """The thin pools among `knames` (one device's stack, top-down), in that order."""
    pools = []
    for kname in knames:
        device = host.devices.get(kname)
        if device is None or not device.dm_name or not _is_pool_layer(dm_facts, device.dm_name,
                                                                       device.dm_uuid):
            continue
        vg, lv, _layer = split_lvm_dm_name(device.dm_name)
        pool = f"{vg}/{lv}"
        targets = dm_facts.tables.get(device.dm_name)
        if targets:
            mode, source = targets[0].thin_pool_discards, f"{dm_facts.tables_source} ({device.dm_name})"
        elif pool in dm_facts.thin_pools:
            mode, source = dm_facts.thin_pools[pool], f"{dm_facts.lvs_source} ({pool})"
        else:
            why = dm_facts.tables_why or dm_facts.lvs_why or "not listed"
            mode, source = None, f"{dm_facts.tables_source}: {why}"
        thins = tuple(k for k in knames if kname in host.parents(k))
        pools.append(ThinPoolLayer(kname, pool, mode, source, thins))
    return pools
