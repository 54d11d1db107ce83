"""python3 -m fuzzer (from scripts/): the same as scripts/fuzz.py."""

import sys

from .cli import main

sys.exit(main())
