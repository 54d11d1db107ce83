#!/usr/bin/env python3
"""Keeps the pipeline drawn in docs/design.md equal to the one that runs.

The block between the markers `<!-- pipeline: ARGS -->` and
`<!-- end pipeline -->` in docs/design.md is the output of
`tile-compile --print-pipeline ARGS`. With --check (the test,
test/Pipelines/design-doc.test) a difference fails and is shown; without,
the block is rewritten (`make docs` does that).

usage: scripts/pipeline-doc.py [--check] TILE_COMPILE [DOC]
"""

import difflib
import re
import shlex
import subprocess
import sys

BLOCK = re.compile(r"(<!-- pipeline: (.*?) -->\n```\n)(.*?)(```\n<!-- end pipeline -->)",
                   re.S)


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    tile_compile = args[0]
    doc = args[1] if len(args) > 1 else "docs/design.md"
    with open(doc) as f:
        text = f.read()
    blocks = list(BLOCK.finditer(text))
    if not blocks:
        print("%s: no <!-- pipeline: ... --> block" % doc, file=sys.stderr)
        return 1
    failed = False

    def replace(match):
        nonlocal failed
        command = [tile_compile, "--print-pipeline"] + shlex.split(match.group(2))
        out = subprocess.run(command, capture_output=True, text=True)
        if out.returncode != 0:
            print("failed: %s\n%s" % (" ".join(command), out.stderr),
                  file=sys.stderr)
            failed = True
            return match.group(0)
        if out.stdout != match.group(3):
            if check:
                sys.stdout.writelines(difflib.unified_diff(
                    match.group(3).splitlines(True),
                    out.stdout.splitlines(True),
                    "%s (the documented pipeline)" % doc,
                    "tile-compile --print-pipeline " + match.group(2)))
                print("%s draws a pipeline that is not the one that runs: "
                      "run `make docs`" % doc)
                failed = True
            return match.group(1) + out.stdout + match.group(4)
        return match.group(0)

    new = BLOCK.sub(replace, text)
    if not check and new != text and not failed:
        with open(doc, "w") as f:
            f.write(new)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
