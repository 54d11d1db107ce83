#!/usr/bin/env python3
"""Runs clang-tidy of the pinned LLVM (clang-tidy-22) with the repository's
.clang-tidy over the project's C++ sources (lib/, tools/, test/lib; the
headers of include/ and lib/ through HeaderFilterRegex), using the build's
compile_commands.json. Fails when it reports anything.

A file whose inputs have not changed since it last passed is not checked
again: the result is cached per file under BUILD_DIR/tidy-cache, keyed by
the clang-tidy version, .clang-tidy, its compile command and the contents of
everything it includes outside /usr (the build's dependency record, `ninja
-t deps`; a file without one is always checked). Files run in parallel (-j,
default the number of cores).

usage: scripts/check-tidy.py [-p BUILD_DIR] [-j N] [--no-cache] [FILE...]
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git_files(*patterns):
    out = subprocess.run(["git", "ls-files", "--", *patterns], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


def digest(*parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.encode())
        h.update(b"\0")
    return h.hexdigest()


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-p", dest="build_dir", default="build",
                        help="build directory with compile_commands.json")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()

    version = read("LLVM_VERSION").decode().strip()
    tidy = shutil.which("clang-tidy-" + version)
    if not tidy:
        print("clang-tidy-%s not found: run scripts/install-deps.sh" % version,
              file=sys.stderr)
        return 2
    build = os.path.abspath(os.path.join(ROOT, args.build_dir))
    db_path = os.path.join(build, "compile_commands.json")
    try:
        with open(db_path) as f:
            db = json.load(f)
    except OSError:
        print("no %s: configure the build first (make build)" % db_path,
              file=sys.stderr)
        return 2
    commands = {os.path.realpath(e["file"]): e.get("command") or
                " ".join(e.get("arguments", [])) for e in db}

    sources = args.files or git_files("lib/*.cpp", "tools/*.cpp",
                                      "test/lib/*.cpp")
    # Every source must be in the build, or it would go unchecked.
    missing = [s for s in sources
               if os.path.realpath(os.path.join(ROOT, s)) not in commands]
    if missing:
        print("not in %s (not built?): %s" % (db_path, " ".join(missing)),
              file=sys.stderr)
        return 1

    tidy_version = subprocess.run([tidy, "--version"], capture_output=True,
                                  text=True).stdout
    shared = digest(tidy_version, read(".clang-tidy"))
    cache_dir = os.path.join(build, "tidy-cache")
    os.makedirs(cache_dir, exist_ok=True)

    # What each source includes, from ninja's dependency log.
    objects = {}
    for source in sources:
        words = commands[os.path.realpath(os.path.join(ROOT, source))].split()
        if "-o" in words:
            objects[source] = words[words.index("-o") + 1]
    deps = {}
    out = subprocess.run(["ninja", "-C", build, "-t", "deps",
                          *objects.values()], capture_output=True, text=True)
    current = None
    for line in out.stdout.splitlines():
        if line and not line[0].isspace():
            name = line.split(":")[0]
            current = deps.setdefault(name, []) if "(VALID)" in line else None
        elif current is not None and line.strip():
            current.append(line.strip())

    def key_of(source):
        full = os.path.realpath(os.path.join(ROOT, source))
        inputs = deps.get(objects.get(source))
        if not inputs:
            return None
        parts = [shared, source, commands[full]]
        for dep in inputs:
            path = os.path.normpath(os.path.join(build, dep))
            if path.startswith("/usr/"):
                continue
            try:
                with open(path, "rb") as f:
                    parts.append(path.encode() + f.read())
            except OSError:
                return None
        return digest(*parts)

    def stamp_of(source):
        return os.path.join(cache_dir, source.replace("/", "__") + ".ok")

    todo = []
    for source in sources:
        key = key_of(source)
        stamp = stamp_of(source)
        if key and not args.no_cache and os.path.exists(stamp):
            with open(stamp) as f:
                if f.read() == key:
                    continue
        todo.append((source, key))

    def run(item):
        source, key = item
        start = time.time()
        # The compile database is GCC's: LLVM's CMake adds GCC-only flags
        # (-Wno-class-memaccess) and TILE_WERROR (CI) adds -Werror, under
        # which clang's own warnings (a libstdc++ deprecation inside
        # std::stable_sort) became errors. The compiler judges warnings;
        # clang-tidy judges the checks of .clang-tidy.
        proc = subprocess.run([tidy, "-p", build, "--quiet",
                               "--extra-arg=-Wno-unknown-warning-option",
                               "--extra-arg=-Wno-error", source],
                              cwd=ROOT, capture_output=True, text=True)
        # clang-tidy prints "N warnings generated" for suppressed ones too;
        # only diagnostics with a location count.
        report = [line for line in proc.stdout.splitlines()
                  if ": warning: " in line or ": error: " in line]
        ok = proc.returncode == 0 and not report
        if ok and key:
            with open(stamp_of(source), "w") as f:
                f.write(key)
        return source, ok, proc.stdout + proc.stderr, time.time() - start

    start = time.time()
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.j)) as pool:
        for source, ok, output, seconds in pool.map(run, todo):
            if not ok:
                failed.append(source)
                sys.stdout.write(output)
            print("[tidy] %-60s %6.1f s %s" % (source, seconds,
                                               "ok" if ok else "FAILED"))
    print("[tidy] %d files checked, %d unchanged since they passed, %d failed "
          "(%.0f s)" % (len(todo), len(sources) - len(todo), len(failed),
                        time.time() - start))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
