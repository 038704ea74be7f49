#!/usr/bin/env bash
# Build dist/diskdoctor: PyInstaller one-file, then staticx, so it runs on any x86-64 Linux whatever its glibc.
# Idempotent: the build venv (build/binary-venv, from Debian's /usr/bin/python3) is made once and reused.
# Quiet: tool output goes to build/build-binary.log; on failure its tail is shown.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$REPO/build"
VENV="$BUILD/binary-venv"
LOG="$BUILD/build-binary.log"
OUT="$REPO/dist/diskdoctor"
# Debian's interpreter: a pyenv-built one gives extension modules RUNPATH tags, which staticx refuses.
BUILD_PYTHON="${BUILD_PYTHON:-/usr/bin/python3}"
DEBIAN_TOOLS="patchelf:patchelf objcopy:binutils ldd:libc-bin"

die() { echo "build-binary: $*" >&2; [ -f "$LOG" ] && { tail -25 "$LOG" >&2; echo "(full log: $LOG)" >&2; }; exit 2; }
step() { echo "build-binary: $*" >&2; echo "=== $*" >>"$LOG"; }

# The Debian packages the build still needs: tools for staticx/PyInstaller, venv, the shared libpython.
missing_debian_packages() {
    local missing="" pair version
    for pair in $DEBIAN_TOOLS; do
        command -v "${pair%%:*}" >/dev/null || missing="$missing ${pair##*:}"
    done
    [ -x "$BUILD_PYTHON" ] || { echo "$missing"; return; }
    "$BUILD_PYTHON" -c 'import ensurepip, venv' 2>/dev/null || missing="$missing python3-venv"
    version="$("$BUILD_PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    "$BUILD_PYTHON" -c "import ctypes.util, sys; sys.exit(not ctypes.util.find_library('python$version'))" \
        || missing="$missing libpython$version"
    echo "$missing"
}

install_debian_tools() {
    local missing
    missing="$(missing_debian_packages)"
    [ -z "$missing" ] && return
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        die "missing Debian packages:$missing (install: apt-get install$missing)"
    fi
    step "installing Debian packages:$missing"
    apt-get -o DPkg::Lock::Timeout=300 update -qq >>"$LOG" 2>&1 && DEBIAN_FRONTEND=noninteractive \
        apt-get -o DPkg::Lock::Timeout=300 install -y -qq $missing \
        >>"$LOG" 2>&1 || die "apt-get install$missing failed"
}

ensure_build_venv() {
    [ -x "$BUILD_PYTHON" ] || die "no $BUILD_PYTHON (set BUILD_PYTHON to a distribution's python3 >= 3.10)"
    local stamp="$VENV/.deps-installed"
    if [ ! -x "$VENV/bin/python" ]; then
        step "creating $VENV from $BUILD_PYTHON"
        "$BUILD_PYTHON" -m venv "$VENV" >>"$LOG" 2>&1 || die "python3 -m venv failed (apt-get install python3-venv)"
    fi
    if [ ! -f "$stamp" ] || [ "$REPO/pyproject.toml" -nt "$stamp" ]; then
        step "installing build tools (PyInstaller, staticx) and diskdoctor's dependencies"
        "$VENV/bin/python" -m pip install -q --upgrade pip "setuptools>=77" wheel >>"$LOG" 2>&1 \
            || die "pip install of setuptools failed"
        (cd "$REPO" && "$VENV/bin/python" -m pip install -q ".[binary]") >>"$LOG" 2>&1 \
            || die "pip install .[binary] failed"
        touch "$stamp"
    fi
    step "installing this tree's diskdoctor into the build venv"
    (cd "$REPO" && "$VENV/bin/python" -m pip install -q --no-deps --no-build-isolation --force-reinstall .) \
        >>"$LOG" 2>&1 || die "pip install of diskdoctor failed"
}

build() {
    local work="$BUILD/pyinstaller" onefile="$BUILD/pyinstaller-dist/diskdoctor"
    step "PyInstaller one-file build"
    # Level 0: the PYZ's modules stored, not deflated (see STORED in diskdoctor.spec: start-up over size).
    (cd "$REPO/packaging" && PYINSTALLER_ZLIB_COMPRESSION_LEVEL=0 "$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
        --workpath "$work" --distpath "$BUILD/pyinstaller-dist" diskdoctor.spec) >>"$LOG" 2>&1 \
        || die "PyInstaller failed"
    mkdir -p "$(dirname "$OUT")"
    step "staticx: bundling the C library and the loader"
    # --no-compress: xz on top saved 2 MB and cost 0.35 s of unpacking at every start (and the
    # PyInstaller archive inside is stored uncompressed on purpose: see diskdoctor.spec).
    "$VENV/bin/staticx" --strip --no-compress "$onefile" "$OUT.tmp" >>"$LOG" 2>&1 || die "staticx failed"
    chmod 755 "$OUT.tmp"
    mv -f "$OUT.tmp" "$OUT"
}

mkdir -p "$BUILD"
: >"$LOG"
start=$(date +%s)
install_debian_tools
ensure_build_venv
build
mib=$(awk -v bytes="$(stat -c %s "$OUT")" 'BEGIN { printf "%.1f", bytes / 1048576 }')
echo "build-binary: built $OUT ($mib MiB) in $(( $(date +%s) - start )) s (log: $LOG)"
