"""A WAL run's profile as people read it: "etcd WAL", or "etcd WAL (custom: 5 s)" for a profile with a value
changed (the saved profile word "custom" told a newcomer nothing, newuser12)."""

from __future__ import annotations

from diskdoctor.probes.wal_params import PROFILES, WalParams

TITLES = {"etcd": "etcd WAL", "postgres-wal": "postgres WAL"}
"""The profiles as the Benchmark form's menu names them."""
WRITTEN = ("bs", "size", "duration_s", "sync", "prealloc", "format", "commit_ms")
"""What a run writes: a profile with one of these changed is a custom run of it."""


def base_profile(params: WalParams) -> str:
    """The profile `params` was made from: its own, or for a custom run the one it differs from least."""
    if params.profile in PROFILES:
        return params.profile
    return min(PROFILES, key=lambda name: sum(getattr(PROFILES[name], field) != getattr(params, field)
                                              for field in WRITTEN))


def changes(params: WalParams) -> list[str]:
    """What differs from the base profile, in the form's words: "5 s", "8,192 B", "64 MiB", "fsync"."""
    base = PROFILES[base_profile(params)]
    said: list[str] = []
    if params.bs != base.bs:
        said.append(f"{params.bs:,} B writes")
    if params.duration_s and params.duration_s != base.duration_s:
        said.append(f"{params.duration_s:g} s")
    elif params.size != base.size:
        said.append(f"{params.size / (1 << 20):,.4g} MiB")  # as the form takes it (no import: a leaf)
    if params.sync != base.sync:
        said.append(params.sync)
    if params.prealloc != base.prealloc:
        said.append("prealloc" if params.prealloc else "no prealloc")
    return said


def profile_title(params: WalParams) -> str:
    """"etcd WAL", "postgres WAL", or "etcd WAL (custom: 5 s)" for a custom run."""
    if params.profile != "custom":
        return TITLES.get(params.profile, params.profile)
    changed = changes(params)
    title = TITLES.get(base_profile(params), base_profile(params))
    return f"{title} (custom: {', '.join(changed)})" if changed else f"{title} (custom)"


def run_title(params: object, kind: str) -> str:
    """What the status line and the folded form call a run: its WAL profile's title, else its workload."""
    return profile_title(params) if isinstance(params, WalParams) else kind
