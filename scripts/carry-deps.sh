#!/usr/bin/env bash
# Copies the header-only dependencies of the runner-only build (nlohmann-json)
# into DEST/.deps/include, for a machine without package access (the GPU
# machine): carry DEST/.deps with the sources and CMake finds the headers
# there (cmake/TileDeps.cmake). DEST defaults to the repository root.
#
# usage: scripts/carry-deps.sh [DEST]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$root}
src=/usr/include/nlohmann
[ -f "$src/json.hpp" ] || { echo "carry-deps: $src/json.hpp not found (apt-get install nlohmann-json3-dev)" >&2; exit 1; }
mkdir -p "$dest/.deps/include"
rm -rf "$dest/.deps/include/nlohmann"
cp -r "$src" "$dest/.deps/include/nlohmann"
echo "carry-deps: $dest/.deps/include/nlohmann ($(du -sh "$dest/.deps/include/nlohmann" | cut -f1))"
