#!/usr/bin/env python3
"""Hostile-input fuzzer of the tile compiler's tools and the Python launcher
(`make fuzz`). The fuzzer is the package scripts/fuzzer/ (its __init__.py
says what it does and where each table lives); this is its entry point.

  scripts/fuzz.py --build build --seed 1 --seconds 60
  scripts/fuzz.py --seconds 1800 --targets all --out build/fuzz
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzzer.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
