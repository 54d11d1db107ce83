#!/bin/sh
# A ptxas that rejects its input the way ptxas 13.0 does for occupancy 7 on
# sm_80 (tile-compile-limits.test).
echo "ptxas fatal   : (C7602) Insufficient registers (32) to compile instruction at line 1499 in function fmha. Try to compile with register target of 94 or higher." >&2
echo "ptxas fatal   : Ptx assembly aborted due to errors" >&2
exit 255
