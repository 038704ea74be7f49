"""The storage under a benchmark's directory when it ran: filesystem, mount options and every layer below."""

from __future__ import annotations

from dataclasses import dataclass

from diskdoctor.app.base.filesystem_words import filesystem_on
from diskdoctor.probes.host import Host
from diskdoctor.probes.host_text import visible
from diskdoctor.probes.wal_target import Target

from .json_fields import as_dict, as_list


def _text(value: object) -> str | None:
    return None if value is None else visible(str(value))


@dataclass(frozen=True)
class StackLayer:
    """One block layer under the filesystem, as it was during the run."""

    kname: str
    name: str
    kind: str
    model: str | None
    rotational: bool | None
    scheduler: str | None

    def to_json(self) -> dict[str, object]:
        """One entry of the stack fingerprint's `layers`."""
        return {"kname": self.kname, "name": self.name, "type": self.kind, "model": self.model,
                "rotational": self.rotational, "scheduler": self.scheduler}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> StackLayer:
        """Inverse of `to_json` (strings made visible)."""
        rotational = data.get("rotational")
        return cls(visible(str(data["kname"])), visible(str(data.get("name") or data["kname"])),
                   visible(str(data.get("type") or "?")), _text(data.get("model")),
                   rotational if isinstance(rotational, bool) else None, _text(data.get("scheduler")))


@dataclass(frozen=True)
class StackFingerprint:
    """Where a benchmark wrote: the directory, its filesystem and mount options, and the layers below."""

    target: Target
    mount_options: tuple[str, ...] = ()
    layers: tuple[StackLayer, ...] = ()

    def same_filesystem(self, other: StackFingerprint) -> bool:
        """Same mountpoint, filesystem type and device: results are comparable as "before and after"."""
        mine, theirs = self.target, other.target
        return ((mine.mountpoint, mine.fstype, mine.device)
                == (theirs.mountpoint, theirs.fstype, theirs.device))

    def describe(self) -> str:
        """e.g. "/var/lib/etcd (ext4 on dm-2)"."""
        target = self.target
        return f"{target.directory} ({filesystem_on(target.fstype, target.device)})"

    def to_json(self) -> dict[str, object]:
        """The `stack` object of a saved run."""
        target = self.target.to_json()
        target["layers"] = list(self.target.layers)
        return {"target": target, "mount_options": list(self.mount_options),
                "layers": [layer.to_json() for layer in self.layers]}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> StackFingerprint:
        """Inverse of `to_json`; strings made visible (a run file is untrusted)."""
        target = Target.from_json(as_dict(data["target"], "stack.target"))
        target = Target(visible(target.directory), visible(target.mountpoint), visible(target.fstype),
                        _text(target.device), tuple(visible(layer) for layer in target.layers),
                        tuple(visible(reason) for reason in target.not_durable))
        options = as_list(data.get("mount_options"), "stack.mount_options")
        layers = as_list(data.get("layers"), "stack.layers")
        return cls(target, tuple(visible(str(option)) for option in options),
                   tuple(StackLayer.from_json(as_dict(layer, "stack layer")) for layer in layers))


def stack_fingerprint(host: Host, target: Target) -> StackFingerprint:
    """The fingerprint of `target` on the live host it was benchmarked on."""
    mounted = host.mount_for_path(target.directory)
    options = mounted.mount.options if mounted else ()
    layers = []
    for kname in target.layers:
        device = host.devices.get(kname)
        if device is None:
            layers.append(StackLayer(kname, kname, "?", None, None, None))
            continue
        layers.append(StackLayer(kname, device.name, device.kind, device.model.value,
                                 device.rotational.value, device.scheduler.value))
    return StackFingerprint(target, tuple(options), tuple(layers))
