#!/bin/sh
# A ptxas that never finishes (tile-compile-limits.test: --ptxas-timeout).
exec sleep 600
