#!/bin/sh
# A ptxas that assembles (an empty cubin at -o) and reports spills the way
# ptxas -v does, for any kernel (tile-compile-bundles.test).
out=
while [ $# -gt 0 ]; do
  if [ "$1" = -o ]; then out=$2; shift; fi
  shift
done
echo "fake cubin" > "$out"
echo "ptxas info    : 0 bytes gmem" >&2
echo "    24 bytes stack frame, 28 bytes spill stores, 32 bytes spill loads" >&2
echo "ptxas info    : Used 255 registers, used 1 barriers, 24 bytes cumulative stack size" >&2
exit 0
