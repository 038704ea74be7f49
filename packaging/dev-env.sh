# Sourced by the quick-start scripts: create or refresh .venv with diskdoctor installed (idempotent).
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO/.venv"
PYTHON="${PYTHON:-python3}"

die() { echo "diskdoctor setup: $*" >&2; exit 2; }

make_venv() {
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null \
        || die "Python 3.10 or newer is needed (found: $("$PYTHON" --version 2>&1))"
    if "$PYTHON" -m venv "$VENV" >/dev/null 2>&1; then return; fi
    rm -rf "$VENV"
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "diskdoctor setup: installing python3-venv" >&2
        apt-get -o DPkg::Lock::Timeout=300 update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq python3-venv >/dev/null \
            || die "could not install python3-venv"
        "$PYTHON" -m venv "$VENV" || die "could not create $VENV"
    else
        die "python3 -m venv failed; install python3-venv (sudo apt-get install python3-venv)"
    fi
}

# ensure_venv [EXTRA]: a venv with diskdoctor (and the optional extra) installed, editable.
ensure_venv() {
    local extra="${1:-}" spec="." stamp
    [ -n "$extra" ] && spec=".[$extra]"
    [ -x "$VENV/bin/python" ] || make_venv
    stamp="$VENV/.diskdoctor-installed${extra:+-$extra}"
    if [ ! -f "$stamp" ] || [ "$REPO/pyproject.toml" -nt "$stamp" ]; then
        local log="$VENV/pip-install.log"
        echo "diskdoctor setup: installing into $VENV, about a minute the first time (log: $log)" >&2
        "$VENV/bin/python" -m pip install -q --upgrade pip >"$log" 2>&1 || true
        if ! (cd "$REPO" && "$VENV/bin/python" -m pip install -q -e "$spec") >>"$log" 2>&1; then
            tail -20 "$log" >&2
            die "pip install failed (full log: $log)"
        fi
        touch "$stamp"
    fi
    compile_bytecode
    link_data_files
}

# An editable install imports the checkout's own files, and where PYTHONDONTWRITEBYTECODE=1 is set the
# interpreter never caches their bytecode: every start would recompile every module (+30-60 ms). Compile
# them once here (only stale files are rewritten; a wheel install gets the same from pip at install time).
compile_bytecode() {
    "$VENV/bin/python" -m compileall -q -j 0 "$REPO/app" "$REPO/probes" "$REPO/widgets" >/dev/null 2>&1 \
        || echo "diskdoctor setup: could not compile bytecode (start-up will be slower)" >&2
}

# The editable install (PEP 660) installs no data files (a wheel does: pyproject.toml's data-files), so
# link them into the venv's prefix where a wheel puts them: `man diskdoctor` then works once activated.
DATA_FILES="docs/man/diskdoctor.1:share/man/man1 packaging/completions/diskdoctor:share/bash-completion/completions packaging/completions/_diskdoctor:share/zsh/site-functions"
link_data_files() {
    local pair
    for pair in $DATA_FILES; do
        mkdir -p "$VENV/${pair#*:}" && ln -sfn "$REPO/${pair%%:*}" "$VENV/${pair#*:}/" \
            || die "could not link ${pair%%:*} into $VENV"
    done
}
