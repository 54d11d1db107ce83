#!/usr/bin/env python3
"""Writes the hostile bundles of test/Bundle/hostile.test (issue 26) into
OUT, each a copy of the fixture bundle FIXTURE with one thing wrong."""

import hashlib
import json
import os
import shutil
import sys

out, fixture = sys.argv[1], sys.argv[2]
manifest = json.load(open(os.path.join(fixture, "manifest.json")))
ptx = open(os.path.join(fixture, "kernel.ptx"), "rb").read()


def digest(data):
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def bundle(name, m=None, kernel_ptx=None, text=None):
    d = os.path.join(out, name)
    os.makedirs(d)
    with open(os.path.join(d, "kernel.ptx"), "wb") as f:
        f.write(ptx if kernel_ptx is None else kernel_ptx)
    with open(os.path.join(d, "manifest.json"), "w") as f:
        f.write(text if text is not None else json.dumps(m or manifest, indent=1))
    return d


def abi_line(abi):
    """The line tile-compile writes at the top of kernel.ptx: the abi the
    PTX was compiled for."""
    return ("// tile-abi %s [%s]\n" % (manifest["entry"], ", ".join(
        json.dumps(e, separators=(",", ":")) for e in abi))).encode()


# What tile-compile writes with `files`: the PTX names its abi.
plain_ptx = ptx
ptx = abi_line(manifest["abi"]) + plain_ptx


def with_files(files):
    m = dict(manifest)
    m["files"] = files
    return m


# 100,000 levels of arrays (200 kB): was a stack overflow.
deep = '{"format": ' + "[" * 100000 + "]" * 100000 + "}"
with open(os.path.join(out, "deep.json"), "w") as f:
    f.write(deep)
bundle("deep", text=deep)
# 64 levels are fine: the manifest is refused for its content only.
bundle("deep64", text='{"format": ' + "[" * 63 + "]" * 63 + "}")

# Digests.
bundle("digests", with_files({"kernel.ptx": digest(ptx)}))
bundle("digests-size", with_files({"kernel.ptx": digest(ptx)}),
       kernel_ptx=ptx + b"// appended\n")
changed = bytearray(ptx)
changed[-2] = ord("#") if changed[-2] != ord("#") else ord("%")
bundle("digests-sha", with_files({"kernel.ptx": digest(ptx)}),
       kernel_ptx=bytes(changed))
bundle("digests-missing", with_files({"kernel.ptx": digest(ptx),
                                      "kernel.cubin": digest(b"cubin")}))
bundle("files-sha", with_files({"kernel.ptx": {"sha256": "ABC", "bytes": 1}}))
bundle("files-array", with_files([]))
bundle("files-entry", with_files({"kernel.ptx": 3}))
bundle("files-name", with_files({"../kernel.ptx": digest(ptx)}))
bundle("files-field", with_files({"kernel.ptx": dict(digest(ptx), md5="")}))

# The abi the PTX was compiled for (its tile-abi line) against the manifest:
# an edited view dtype changes no parameter size (issue 26).
m = with_files({"kernel.ptx": digest(ptx)})
m["abi"] = [dict(e) for e in manifest["abi"]]
m["abi"][3]["dtype"] = "f32" if m["abi"][3]["dtype"] != "f32" else "f16"
bundle("abi-dtype", m)
m = dict(manifest)
m["abi"] = [dict(e) for e in manifest["abi"]]
m["abi"][0]["align"] = 2
bundle("abi-align-nofiles", m)
bundle("abi-noline", with_files({"kernel.ptx": digest(plain_ptx)}),
       kernel_ptx=plain_ptx)
bundle("abi-nofiles-noline", kernel_ptx=plain_ptx)

# PTX that does not go with the manifest, or is not whole.
text = ptx.decode()
params_end = text.index(")", text.index(".entry"))
bundle("ptx-params", kernel_ptx=text[:params_end - 40].encode())
bundle("ptx-body", kernel_ptx=text[:len(text) // 2].encode())
bundle("ptx-nobody", kernel_ptx=text[:params_end + 1].encode())
bundle("ptx-empty", kernel_ptx=b"")
bundle("ptx-comments", kernel_ptx=b"// .target sm_80\n/* .entry fmha( */\n")
m = dict(manifest)
m["abi"] = manifest["abi"][:-1]
bundle("ptx-abi", m)

# A link loop and a name longer than NAME_MAX.
os.symlink("loop", os.path.join(out, "loop"))
shutil.copytree(os.path.join(out, "digests"), os.path.join(out, "ok"))
