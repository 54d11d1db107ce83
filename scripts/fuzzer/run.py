"""Running one case (its files materialized in a scratch folder, in its
own process group under an address-space limit) and classifying it:
crash, hang, silent accept or fine."""

import os
import resource
import shlex
import shutil
import signal
import subprocess
import time


# Output that means the tool crashed even when it exited with a small status.
CRASH_PATTERNS = [
    "PLEASE submit a bug report",
    "LLVM ERROR",
    "Stack dump:",
    "terminate called",
    "std::bad_alloc",
    "Assertion `",
    "AddressSanitizer",
    "LeakSanitizer",
    "UndefinedBehaviorSanitizer",
    "runtime error:",
    "Segmentation fault",
    "Traceback (most recent call last)",
]

# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


class Case:
    """One command to run: tool, argv (with the mutated inputs in place),
    the files it needs (name -> text, or a special), what was mutated."""

    def __init__(self, tool, argv, note, invalid):
        self.tool = tool
        self.argv = argv
        self.note = note
        self.invalid = invalid
        self.files = {}  # relative name -> text | ("link", target) | ("dir",)
        # The address-space limit of the command's RUN line (bytes), if any.
        self.memory_limit = None
        self.bundles = {}  # relative dir -> (source bundle, manifest text)
        # relative dir -> {file name: bytes}: companion files replaced.
        self.bundle_files = {}


def limit_memory(limit_bytes):
    def apply():
        os.setsid()
        if limit_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def materialize(case, workdir):
    """Writes the case's files under workdir; returns argv with {w} paths."""
    for name, content in case.files.items():
        path = os.path.join(workdir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(content, tuple) and content[0] == "link":
            os.symlink(content[1], path)
        elif isinstance(content, tuple) and content[0] == "dir":
            os.makedirs(path, exist_ok=True)
        elif isinstance(content, tuple) and content[0] == "missing":
            pass
        else:
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(content)
    for name, (source, manifest) in case.bundles.items():
        path = os.path.join(workdir, name)
        os.makedirs(path, exist_ok=True)
        for f in os.listdir(source):
            if f != "manifest.json":
                shutil.copy(os.path.join(source, f), path)
        for f, data in case.bundle_files.get(name, {}).items():
            with open(os.path.join(path, f), "wb") as out:
                out.write(data)
        target = os.path.join(path, "manifest.json")
        if isinstance(manifest, tuple) and manifest[0] == "link":
            os.symlink(manifest[1], target)
        else:
            with open(target, "w") as f:
                f.write(manifest)
    os.makedirs(os.path.join(workdir, "tmp"), exist_ok=True)
    return [a.replace("{w}", workdir) for a in case.argv]


def tool_command(case, bindir):
    """The program of a case: a tool of BUILD/bin, or the Python
    launcher's harness (fuzzer/launcher.py)."""
    from . import launcher
    if case.tool == launcher.TOOL:
        return launcher.command()
    return [os.path.join(bindir, case.tool)]


def run_case(case, bindir, workdir, timeout, memory_limit, env):
    argv = tool_command(case, bindir) + materialize(case, workdir)
    if case.memory_limit:
        memory_limit = min(memory_limit, case.memory_limit) if memory_limit \
            else case.memory_limit
    start = time.time()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, cwd=workdir, env=env,
                            preexec_fn=limit_memory(memory_limit))
    try:
        out, _ = proc.communicate(timeout=timeout)
        hung = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = proc.communicate()
        hung = True
    elapsed = time.time() - start
    text = out.decode("utf-8", errors="replace")
    # Keep the head and the tail of long outputs.
    if len(text) > 20000:
        text = text[:10000] + "\n[... %d bytes ...]\n" % (len(text) - 20000) + text[-10000:]
    return proc.returncode, text, hung, elapsed


def unbounded_by_request(case):
    """True when the command turns the executors' work limit off
    (--max-work=0, as test/Executor/work.mlir's RUN lines do): a long run is
    then what was asked for (seed 20261210 mutated that file's loop bound
    to 2^31 + 1, a 2^31-step loop), not a hang."""
    argv = list(case.argv)
    for i, a in enumerate(argv):
        if a == "--max-work=0" or (a == "--max-work" and i + 1 < len(argv)
                                   and argv[i + 1] == "0"):
            return True
    return False


def classify(case, rc, text, hung):
    if hung:
        return "fine" if unbounded_by_request(case) else "hang"
    if rc < 0 or rc > 128:
        return "crash"
    for pattern in CRASH_PATTERNS:
        if pattern in text:
            return "crash"
    if case.invalid and rc == 0:
        return "silent-accept"
    return "fine"


def shell_command(case, workdir_name="."):
    from . import launcher
    tool = ["python3", launcher.HARNESS] if case.tool == launcher.TOOL else [case.tool]
    argv = tool + [a.replace("{w}", workdir_name) for a in case.argv]
    return " ".join(shlex.quote(a) for a in argv)


def save_reproducer(outdir, index, kind, case, workdir, rc, text):
    name = "%04d-%s-%s" % (index, kind, case.tool)
    dest = os.path.join(outdir, name)
    os.makedirs(dest, exist_ok=True)
    for entry in os.listdir(workdir):
        src = os.path.join(workdir, entry)
        dst = os.path.join(dest, entry)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        elif os.path.isdir(src):
            shutil.copytree(src, dst, symlinks=True, dirs_exist_ok=True)
        else:
            shutil.copy(src, dst)
    with open(os.path.join(dest, "command.sh"), "w") as f:
        f.write("#!/bin/sh\n# %s: %s\n# exit status %s\n" % (kind, case.note, rc))
        f.write("# run from this folder with the tools on PATH\n")
        limit = "ulimit -v %d && " % (case.memory_limit // 1024) if case.memory_limit else ""
        f.write("cd \"$(dirname \"$0\")\" && " + limit + shell_command(case) + "\n")
    with open(os.path.join(dest, "output.txt"), "w") as f:
        f.write(text)
    return dest
