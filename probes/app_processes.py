"""Running etcd, Elasticsearch/OpenSearch and Ceph OSD processes and where they keep their data, from their
command lines and config files (psutil; live host only), so a walkthrough can offer the right directory."""

from __future__ import annotations

import os
import re
import urllib.parse
from dataclasses import dataclass

import psutil

from .root import Root

ES_MAIN_CLASSES = ("org.elasticsearch.bootstrap.Elasticsearch", "org.opensearch.bootstrap.OpenSearch")
ES_DEFAULT_DATA = {"elasticsearch": "/var/lib/elasticsearch", "opensearch": "/var/lib/opensearch"}
ES_DEFAULT_CONF = {"elasticsearch": "/etc/elasticsearch", "opensearch": "/etc/opensearch"}


@dataclass(frozen=True)
class AppProcess:
    """One running data service, the directories it writes its data to, and how we know."""

    kind: str
    """"etcd", "elasticsearch", "opensearch" or "ceph-osd"."""
    pid: int
    data_dirs: tuple[str, ...]
    source: str


def option_value(argv: list[str], *names: str) -> str | None:
    """The value of `--name=value` or `--name value` (the last one given wins, as in most parsers)."""
    found = None
    for index, word in enumerate(argv):
        for name in names:
            if word.startswith(name + "="):
                found = word[len(name) + 1:]
            elif word == name and index + 1 < len(argv):
                found = argv[index + 1]
    return found


def _program(argv: list[str], name: str) -> str:
    return os.path.basename(argv[0]) if argv else name


def etcd_data_dir(argv: list[str], environ: dict[str, str], cwd: str | None) -> tuple[str | None, str]:
    """etcd's --data-dir (flag, then ETCD_DATA_DIR, then its default NAME.etcd in the working directory)."""
    flag = option_value(argv, "--data-dir")
    if flag:
        path = flag if os.path.isabs(flag) or not cwd else os.path.join(cwd, flag)
        return path, "--data-dir on its command line"
    if environ.get("ETCD_DATA_DIR"):
        return environ["ETCD_DATA_DIR"], "ETCD_DATA_DIR in its environment"
    if cwd:
        name = option_value(argv, "--name") or environ.get("ETCD_NAME") or "default"
        return os.path.join(cwd, f"{name}.etcd"), "etcd's default (NAME.etcd in its working directory)"
    return None, "no --data-dir and its working directory is not readable"


def yaml_path_data(text: str) -> list[str]:
    """`path.data` of an elasticsearch.yml: `path.data: /a`, `path.data: [/a, /b]`, a `- /a` list, or
    `path:` with a nested `data:` (the forms the Elastic docs show)."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        stripped = line.split("#", 1)[0].rstrip()
        match = re.match(r"^\s*path\.data\s*:\s*(.*)$", stripped)
        nested = re.match(r"^path\s*:\s*$", stripped)
        if nested:
            for inner in lines[index + 1:]:
                if inner and not inner[0].isspace():
                    break
                match = re.match(r"^\s+data\s*:\s*(.*)$", inner.split("#", 1)[0].rstrip())
                if match:
                    index = lines.index(inner)
                    break
        if not match:
            continue
        value = match.group(1).strip()
        if value.startswith("["):
            return [v.strip().strip("'\"") for v in value.strip("[]").split(",") if v.strip()]
        if value:
            return [value.strip("'\"")]
        items = []
        for inner in lines[index + 1:]:
            item = re.match(r"^\s*-\s*(.+)$", inner.split("#", 1)[0].rstrip())
            if not item:
                break
            items.append(item.group(1).strip().strip("'\""))
        return items
    return []


def es_data_dirs(root: Root, kind: str, argv: list[str], environ: dict[str, str]) -> tuple[list[str], str]:
    """Elasticsearch/OpenSearch data paths: -Epath.data, then path.data in the config, then the default."""
    flag = next((w.split("=", 1)[1] for w in argv if w.startswith("-Epath.data=")), None)
    if flag:
        return [p.strip() for p in flag.split(",") if p.strip()], "-Epath.data on its command line"
    conf = (environ.get("ES_PATH_CONF") or environ.get("OPENSEARCH_PATH_CONF")
            or option_value(argv, "-Des.path.conf") or ES_DEFAULT_CONF[kind])
    config = f"{conf.rstrip('/')}/{kind}.yml"
    text, _ = root.read_text(config.lstrip("/"))
    found = yaml_path_data(text or "")
    if found:
        return found, f"path.data in {config}"
    return [ES_DEFAULT_DATA[kind]], f"the package default ({config} sets no path.data)"


def ceph_osd_data_dir(argv: list[str]) -> tuple[str, str]:
    """A ceph-osd's data directory: --osd-data, else /var/lib/ceph/osd/CLUSTER-ID."""
    data = option_value(argv, "--osd-data")
    if data:
        return data, "--osd-data on its command line"
    osd_id = option_value(argv, "--id", "-i") or "?"
    cluster = option_value(argv, "--cluster") or "ceph"
    return f"/var/lib/ceph/osd/{cluster}-{osd_id}", "--id/--cluster on its command line (the default layout)"


def classify(name: str, argv: list[str]) -> str | None:
    """Which data service a process is, from its name and command line."""
    program = _program(argv, name)
    if "etcd" in (program, name):
        return "etcd"
    if "ceph-osd" in (program, name):
        return "ceph-osd"
    joined = " ".join(argv)
    if ES_MAIN_CLASSES[0] in joined:
        return "elasticsearch"
    if ES_MAIN_CLASSES[1] in joined:
        return "opensearch"
    return None


def find_app_processes(root: Root) -> tuple[list[AppProcess], str | None]:
    """Every running etcd, Elasticsearch/OpenSearch and ceph-osd with its data directories, or why none
    can be looked for (a capture has no processes)."""
    if not root.live:
        return [], "running processes need the live host (a capture has none)"
    found = []
    for process in psutil.process_iter(["pid", "name", "cmdline"]):
        argv = [str(word) for word in process.info["cmdline"] or []]
        kind = classify(process.info["name"] or "", argv)
        if kind is None:
            continue
        try:
            environ = process.environ()
        except (psutil.Error, OSError):
            environ = {}
        try:
            cwd = process.cwd()
        except (psutil.Error, OSError):
            cwd = None
        if kind == "etcd":
            path, source = etcd_data_dir(argv, environ, cwd)
            dirs = [path] if path else []
        elif kind == "ceph-osd":
            path, source = ceph_osd_data_dir(argv)
            dirs = [path]
        else:
            dirs, source = es_data_dirs(root, kind, argv, environ)
        pid = process.info["pid"]
        found.append(AppProcess(kind, pid, tuple(dirs), f"{source} (pid {pid})"))
    return found, None


def metrics_urls(listen_metrics_urls: str) -> list[str]:
    """The /metrics URLs a local client can read from etcd's --listen-metrics-urls value (kubeadm sets
    http://127.0.0.1:2381): plain http only (https needs etcd's client certificates), a wildcard
    address read through localhost."""
    urls = []
    for item in listen_metrics_urls.split(","):
        parsed = urllib.parse.urlsplit(item.strip())
        if parsed.scheme != "http" or not parsed.port:
            continue
        host = parsed.hostname or "127.0.0.1"
        host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        host = f"[{host}]" if ":" in host else host
        urls.append(f"http://{host}:{parsed.port}/metrics")
    return urls


def etcd_metrics_locations(root: Root) -> list[tuple[int, str]]:
    """(pid, URL) of every /metrics a running etcd serves over plain http on this host, from its
    --listen-metrics-urls flag or ETCD_LISTEN_METRICS_URLS (empty on a capture)."""
    if not root.live:
        return []
    found = []
    for process in psutil.process_iter(["pid", "name", "cmdline"]):
        argv = [str(word) for word in process.info["cmdline"] or []]
        if classify(process.info["name"] or "", argv) != "etcd":
            continue
        value = option_value(argv, "--listen-metrics-urls")
        if value is None:
            try:
                value = process.environ().get("ETCD_LISTEN_METRICS_URLS")
            except (psutil.Error, OSError):
                value = None
        found += [(process.info["pid"], url) for url in metrics_urls(value or "")]
    return found
