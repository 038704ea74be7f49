#!/usr/bin/env bash
# Build the generated files the package ships, from their sources (commit the results):
#   docs/man/diskdoctor.1            from docs/man/diskdoctor.1.md (pandoc, Debian's package `pandoc`)
#   packaging/completions/diskdoctor, _diskdoctor   bash and zsh completion, from the argument parser
# Usage: bash packaging/build-docs.sh [man OUTFILE | completion SHELL OUTFILE]   (no arguments: all of them)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"

build_man() {
    local out="$1" version
    command -v pandoc >/dev/null || { echo "build-docs.sh: pandoc is missing (apt-get install pandoc)" >&2; exit 2; }
    version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$REPO/pyproject.toml")"
    pandoc --standalone --from markdown --to man --metadata footer="diskdoctor $version" \
        "$REPO/docs/man/diskdoctor.1.md" --output "$out"
}

build_completion() {
    "$PYTHON" -m diskdoctor.app --print-completion "$1" > "$2"
}

case "${1:-all}" in
    man) build_man "$2" ;;
    completion) build_completion "$2" "$3" ;;
    all)
        build_man "$REPO/docs/man/diskdoctor.1"
        build_completion bash "$REPO/packaging/completions/diskdoctor"
        build_completion zsh "$REPO/packaging/completions/_diskdoctor"
        echo "built docs/man/diskdoctor.1 and packaging/completions/{diskdoctor,_diskdoctor}" ;;
    *) echo "usage: bash packaging/build-docs.sh [man OUTFILE | completion bash|zsh OUTFILE]" >&2; exit 2 ;;
esac
