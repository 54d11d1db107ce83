#!/usr/bin/env python3
"""Lists every user-facing diagnostic of lib/ and tools/ that no test
exercises, and fails when there is one.

A diagnostic is a statement that emits an MLIR diagnostic (emitError,
emitOpError, emitWarning, emitRemark, a pass pipeline's errorHandler), a
tool's error message (`llvm::errs() << "tile-compile: ..."`, an
`error = "..."` or `errors.push_back(...)` message, tile-runner's
`return "..."` and `fail("...")` errors, fprintf to stderr). Its text is the
string literals of the statement, in order; the values streamed between them
(`<< name <<`) are holes. A diagnostic is tested when one line of a file
under test/ contains every literal piece, in order (of a piece longer than
40 characters, its first 40 are enough): an `expected-error` line, a
FileCheck line, or a message a test greps for. The lines of a message of
several lines may be on consecutive test lines (CHECK-NEXT), and in the
googletest suites (unittests/) a string literal that clang-format wrapped
onto the next line continues its line.

Diagnostics that no input reaches are listed, with the reason, in
scripts/untestable-diagnostics.txt; they are reported and do not fail. A
listed one that a test does reach fails (the list stays true).

usage: scripts/check-diagnostics.py [--list] [--warn-only PREFIX]...
                                   [--tests PATHSPEC]
  --list          print every diagnostic with the test line that covers it
  --warn-only P   report untested diagnostics under path prefix P without
                  failing (their owner is elsewhere)
  --tests S       search the test files of git pathspec S (repeatable;
                  default test/* and unittests/*)
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Where a diagnostic statement starts.
STARTS = [
    r"\bemit(?:Op)?Error\s*\(",
    r"\bemitWarning\s*\(",
    r"\bemitRemark\s*\(",
    r"\berrorHandler\s*\(",
    r"\berrs\(\)\s*<<",
    r"\berror\s*=\s*(?=\")",
    r"\berror\s*=\s*\"",
    r"\b(?:errors|failures)\.push_back\s*\(",
    r"\bfprintf\s*\(\s*stderr\s*,",
    # Helpers that return an InFlightDiagnostic, and diagnostics in flight.
    r"\bfail\(\)\s*<<",
    r"\bdiag\s*<<",
]
# tile-runner reports errors as returned strings.
RUNNER_STARTS = [r"\breturn\s+(?:std::string\()?\"", r"\bfail\s*\(\s*\""]

START_RE = re.compile("|".join(STARTS))
RUNNER_RE = re.compile("|".join(RUNNER_STARTS))
# Between the pieces of two lines of one message.
NEWLINE = "\n"
LITERAL_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# A line that ends in a string literal (not an escaped quote).
CONTINUED_RE = re.compile(r'(?<!\\)"\s*$')
UNTESTABLE_LIST = os.path.join(ROOT, "scripts", "untestable-diagnostics.txt")


def read_untestable():
    entries = []
    with open(UNTESTABLE_LIST) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            path, start, reason = [x.strip() for x in line.split("|", 2)]
            entries.append({"file": path, "start": start, "reason": reason,
                            "used": False})
    return entries


def git_files(*patterns):
    out = subprocess.run(["git", "ls-files", "--", *patterns], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


def statement_end(text, start):
    """The end of the statement that begins at `start`: the first `;` (or
    `{` of a body) outside strings, characters and brackets."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == '"':
            m = LITERAL_RE.match(text, i)
            i = m.end() if m else i + 1
            continue
        if c == "'":
            j = text.find("'", i + 1)
            while j != -1 and text[j - 1] == "\\" and text[j - 2] != "\\":
                j = text.find("'", j + 1)
            i = j + 1 if j != -1 else i + 1
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth < 0:
                return i
        elif c == ";" and depth <= 0:
            return i
        elif c == "{" and depth <= 0:
            return i
        i += 1
    return len(text)


def unescape(s):
    return (s.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t")
            .replace("\\\\", "\\"))


def pieces(statement):
    """The literal pieces of a statement: adjacent literals joined; pieces
    that are alternatives of a `?:` dropped (either may print); pieces
    trimmed of the spaces and quotes around the holes."""
    out = []
    pos = 0
    current = None
    prev_code = ""
    for m in LITERAL_RE.finditer(statement):
        between = statement[pos:m.start()]
        pos = m.end()
        if current is not None and between.strip() == "":
            current += unescape(m.group(1))
            continue
        if current is not None:
            out.append((current, prev_code))
        prev_code = between
        current = unescape(m.group(1))
    if current is not None:
        out.append((current, prev_code))
    result = []
    for text, before in out:
        tail = before.rstrip()
        if tail.endswith("?") or tail.endswith(":") and not tail.endswith("::"):
            continue
        # A piece is a line of output at most (NEWLINE marks where the
        # output goes on with the next line); printf conversions are holes.
        for n, line in enumerate(text.split("\n")):
            if n and result and result[-1] != NEWLINE:
                result.append(NEWLINE)
            for part in re.split(r"%[-0-9.]*(?:l?l?[dus]|zu|f|g|x|s)", line):
                part = part.strip(" '\"`:,.()[]{}")
                if sum(ch.isalpha() for ch in part) >= 3:
                    result.append(part)
    while result and result[-1] == NEWLINE:
        result.pop()
    return result


def text_of(parts):
    return " ... ".join(p for p in parts if p != NEWLINE)


def collect(path, text, runner):
    found = []
    regexes = [START_RE] + ([RUNNER_RE] if runner else [])
    seen = set()
    for regex in regexes:
        for m in regex.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            line = text[line_start:text.find("\n", m.start())]
            stripped = line.lstrip()
            # Declarations and definitions, comments, and progress output.
            if stripped.startswith("//") or stripped.startswith("*"):
                continue
            if re.match(r"\s*(?:static\s+)?(?:inline\s+)?(?:mlir::)?"
                        r"(?:InFlightDiagnostic|LogicalResult|void|auto)\s+"
                        r"\w*(?:emit|fail)", line):
                continue
            end = statement_end(text, m.start())
            statement = text[m.start():end]
            parts = pieces(statement)
            if not parts or m.start() in seen:
                continue
            seen.add(m.start())
            if any(p.startswith("[") for p in parts[:1]) or \
                    statement.lstrip().startswith("errs() << \"["):
                continue
            lineno = text.count("\n", 0, m.start()) + 1
            found.append({"file": path, "line": lineno, "pieces": parts,
                          "untestable": None})
    return found


# A test may check the start of a long piece only.
PREFIX = 40


def covered(parts, test_lines):
    """Where one test line holds every piece in order; the pieces of a
    message of several lines may be on as many consecutive lines of one test
    (FileCheck's CHECK-NEXT)."""
    for k, (path, lineno, line) in enumerate(test_lines):
        pos = 0
        j = k
        may_go_on = False
        for part in parts:
            if part == NEWLINE:
                may_go_on = True
                continue
            end = find_piece(test_lines[j][2], part, pos)
            if end < 0 and may_go_on and j + 1 < len(test_lines) and \
                    test_lines[j + 1][0] == path:
                j += 1
                end = find_piece(test_lines[j][2], part, 0)
            may_go_on = False
            if end < 0:
                break
            pos = end
        else:
            return "%s:%d" % (path, lineno)
    return None


def find_piece(line, part, pos):
    """Where `part` (or the first PREFIX characters of a long one) ends in
    `line` when searched from `pos`, or -1."""
    i = line.find(part, pos)
    if i < 0 and len(part) > PREFIX:
        part = part[:PREFIX]
        i = line.find(part, pos)
    return i + len(part) if i >= 0 else -1


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--warn-only", action="append", default=[])
    parser.add_argument("--tests", action="append",
                        help="the test files to search (a git pathspec; "
                        "default test/* and unittests/*, the googletest "
                        "suites)")
    args = parser.parse_args()

    sources = [f for f in git_files("lib/*.cpp", "lib/*.h", "tools/*.cpp",
                                    "tools/*.h")]
    diagnostics = []
    for path in sources:
        with open(os.path.join(ROOT, path)) as f:
            text = f.read()
        diagnostics += collect(path, text, path.startswith("tools/tile-runner/"))

    test_lines = []
    for path in git_files(*(args.tests or ["test/*", "unittests/*"])):
        if path.startswith("test/lib/") or "/Inputs/bundles/" in path:
            continue
        try:
            with open(os.path.join(ROOT, path), errors="replace") as f:
                lines = f.read().split("\n")
        except (IsADirectoryError, FileNotFoundError):
            continue
        n = 0
        while n < len(lines):
            line, first = lines[n], n + 1
            # In C++ tests a message may be a string literal that
            # clang-format wrapped: adjacent literals, and a `+` before a
            # literal on the next line, make one line.
            while path.endswith(".cpp") and n + 1 < len(lines) and \
                    (CONTINUED_RE.search(line) or
                     line.rstrip().endswith("+")) and \
                    lines[n + 1].lstrip().startswith('"'):
                n += 1
                if line.rstrip().endswith("+"):
                    line = line.rstrip() + " " + lines[n].lstrip()
                else:
                    line = line[:line.rstrip().rfind('"')] + \
                        lines[n].lstrip()[1:]
            test_lines.append((path, first, line))
            n += 1

    listed = read_untestable()
    for d in diagnostics:
        for entry in listed:
            if d["file"] == entry["file"] and \
                    text_of(d["pieces"]).startswith(entry["start"]):
                d["untestable"] = entry["reason"]
                entry["used"] = True
    stale = [e for e in listed if not e["used"]]

    untested, warned, untestable, reached = [], [], [], []
    for d in diagnostics:
        where = covered(d["pieces"], test_lines)
        if where and d["untestable"]:
            reached.append((d, text_of(d["pieces"])))
        text = text_of(d["pieces"])
        if args.list:
            print("%s:%d: %s\n    %s" % (d["file"], d["line"], text,
                                         where or "UNTESTED"))
        if where:
            continue
        if d["untestable"]:
            untestable.append((d, text))
        elif any(d["file"].startswith(p) for p in args.warn_only):
            warned.append((d, text))
        else:
            untested.append((d, text))

    for e in stale:
        print("%s: '%s' in %s matches no diagnostic" %
              (os.path.relpath(UNTESTABLE_LIST, ROOT), e["start"], e["file"]))
    for title, group in (("listed as untestable but tested (remove them "
                          "from the list)", reached),
                         ("untested", untested),
                         ("untested (owned elsewhere, not failing)", warned),
                         ("untestable (marked)", untestable)):
        if not group:
            continue
        print("%s diagnostics:" % title)
        for d, text in group:
            extra = " [%s]" % d["untestable"] if d["untestable"] else ""
            print("  %s:%d: %s%s" % (d["file"], d["line"], text, extra))
    print("%d diagnostics in lib/ and tools/: %d tested, %d untested, "
          "%d untested but not failing, %d marked untestable" %
          (len(diagnostics), len(diagnostics) - len(untested) - len(warned) -
           len(untestable), len(untested), len(warned), len(untestable)))
    return 1 if untested or reached or stale else 0


if __name__ == "__main__":
    sys.exit(main())
