#!/usr/bin/env bash
# Installs what the build and the tests need on a Debian 12 machine, and
# nothing that is already there. The LLVM/MLIR major version comes from the
# file LLVM_VERSION, the one place it is pinned.
set -euo pipefail
cd "$(dirname "$0")/.."
V=$(tr -d '[:space:]' < LLVM_VERSION)

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in cmake ninja-build g++ make python3 \
           "clang-format-$V" "clang-tidy-$V" \
           nlohmann-json3-dev libgtest-dev \
           "llvm-$V-dev" "llvm-$V-tools" "libmlir-$V-dev" "mlir-$V-tools"; do
  have_pkg "$pkg" || need+=("$pkg")
done

if [ ${#need[@]} -eq 0 ]; then
  echo "[deps] all present (LLVM/MLIR $V)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "[deps] installing: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "[deps] done"
