#!/usr/bin/env bash
# Quick start: set up .venv on first run, then open the diskdoctor TUI (arguments pass through).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/dev-env.sh"
ensure_venv
exec "$VENV/bin/diskdoctor" "$@"
