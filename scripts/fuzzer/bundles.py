"""Mutators of bundles: manifests (values, structure, text), .npy
headers and the companion PTX.

Manifest mutators: fn(manifest dict, rng) -> (dict, invalid) or None.
invalid: True when no tool may accept the manifest (lib/Bundle's schema
refuses it), LAUNCH when the manifest is well formed but tile-runner must
refuse to launch it (grid, shared memory against the target), False when
it may be fine."""


LAUNCH = "launch"


def manifest_set(path, values, invalid_test):
    def fn(m, rng):
        cur = m
        for key in path[:-1]:
            cur = cur.get(key) if isinstance(cur, dict) else None
            if cur is None:
                return None
        if path[-1] not in cur and not isinstance(path[-1], int):
            return None
        value = rng.choice(values)
        cur[path[-1]] = value
        return m, invalid_test(value)
    return fn


def manifest_delete(key):
    def fn(m, rng):
        if key not in m:
            return None
        del m[key]
        return m, True
    return fn


def manifest_grid(m, rng):
    grid = m.get("grid")
    if not isinstance(grid, list) or not grid:
        return None
    bad = ['(((((', '', 'Z.0', '1/0', 'cdiv(Q.2, 0)', 'Q.99999999999999999999',
           '(' * 20000 + '1' + ')' * 20000, 'Q.2 * Q.2 * Q.2 * Q.2 * Q.2',
           'min(', '-1', '99999999999999999999', 'Q.4', 'K.-1', '1 +* 2',
           'max(1)', 'cdiv(Q.2)', 'Q.2 % 0', '!', 'Q.2 <', '0x10', '1e3']
    i = rng.randrange(len(grid))
    grid[i] = rng.choice(bad)
    # Every one of these is invalid, overflows or launches no block; the
    # last two only at launch.
    return m, LAUNCH if grid[i] in ('-1', 'Q.2 * Q.2 * Q.2 * Q.2 * Q.2') else True


def manifest_requires(m, rng):
    if not isinstance(m.get("requires"), list):
        return None
    bad = ['', '((((', 'Q.9 > 1', 'NO_SUCH == 1', '1 / 0 == 0', 'Q.0 <',
           '(' * 5000 + '1' + ')' * 5000, '!' * 100 + '1', 'Q.2 == 99999999999999999999',
           'Q.2 && ', '1 ==== 1']
    m["requires"] = m["requires"] + [rng.choice(bad + ['0 == 1', 'Q.2 < 0'])]
    # The last two are well formed and fail for every shape.
    return m, LAUNCH if m["requires"][-1] in ('0 == 1', 'Q.2 < 0') else True


def manifest_abi_entry(m, rng):
    abi = m.get("abi")
    views = [e for e in abi if isinstance(e, dict) and e.get("kind") == "view"] \
        if isinstance(abi, list) else []
    if not views:
        return None
    entry = rng.choice(views)
    key, values = rng.choice([
        ("align", [0, 3, 32, -16, 2**40, "16", 1.5, None]),
        ("access", ["rw", "", 1, None, "READ"]),
        ("dtype", ["f64", "", 3, "tensor<4xf32>", None]),
        ("rank", [0, 9, -1, 2**33, "4"]),
        ("name", ["", "1Q", "Q Q", None, abi[0].get("name", "Q") if entry is not abi[0] else "K"]),
        ("kind", ["tensor", "", None]),
    ])
    entry[key] = rng.choice(values)
    return m, True


def manifest_params(m, rng):
    if not isinstance(m.get("params"), dict):
        return None
    name = rng.choice(["", "1X", "A B", "TILE-M"])
    m["params"][name] = 1
    return m, True


def manifest_wrong_type(m, rng):
    keys = [k for k in ("num_warps", "shared_bytes", "occupancy", "block",
                        "grid", "abi", "params", "requires", "target", "entry")
            if k in m]
    if not keys:
        return None
    k = rng.choice(keys)
    # An empty abi, params or requires is well formed.
    values = ["four", None, True, -1.5]
    values += [{}] if k != "params" else [[]]
    values += [[]] if k not in ("abi", "params", "requires") else []
    if k in ("target", "entry"):
        values = [None, 1, [], ""]
    m[k] = rng.choice(values)
    return m, True


def manifest_files(m, rng):
    """`files`: malformed (refused by every reader) or digests that do not
    match the companion files (refused by the readers of the folder)."""
    ptx = m.get("ptx") if isinstance(m.get("ptx"), str) else "kernel.ptx"
    good_hex = "0" * 64
    malformed = [[], 3, {ptx: 1}, {ptx: {"sha256": "ABC", "bytes": 1}},
                 {ptx: {"sha256": good_hex}}, {ptx: {"sha256": good_hex, "bytes": -1}},
                 {"../" + ptx: {"sha256": good_hex, "bytes": 1}},
                 {ptx: {"sha256": good_hex, "bytes": 1, "md5": ""}}]
    mismatched = [{ptx: {"sha256": good_hex, "bytes": 1}},
                  {"kernel.cubin": {"sha256": good_hex, "bytes": 0}},
                  {"absent.bin": {"sha256": good_hex, "bytes": 0}}]
    if rng.random() < 0.5:
        m["files"] = rng.choice(malformed)
        return m, True
    m["files"] = rng.choice(mismatched)
    return m, LAUNCH


NON_NEGATIVE_32 = lambda v: not (isinstance(v, int) and 0 <= v < 2**31)

MANIFEST_MUTATORS = [
    ("shared-bytes", manifest_set(
        ["shared_bytes"], [-1, 2**32, 2**31, 10**20, 1.5, 232449, 10**6],
        lambda v: True if not (isinstance(v, int) and 0 <= v < 2**31)
        else LAUNCH if v > 232448 else False)),
    ("no-shared-bytes", manifest_delete("shared_bytes")),
    ("no-grid", manifest_delete("grid")),
    ("no-abi", manifest_delete("abi")),
    ("no-num-warps", manifest_delete("num_warps")),
    ("num-warps", manifest_set(
        ["num_warps"], [0, -1, 3, 33, 64, 2**32, 10**20],
        lambda v: True)),
    ("occupancy", manifest_set(["occupancy"], [-3, 0, 33, 2**32, 10**20],
                               lambda v: v != 0)),
    ("block", manifest_set(["block"], [[0, 1, 1], [2048, 1, 1], [-128, 1, 1],
                                       [128], [2**32, 1, 1], "128"],
                           lambda v: True)),
    ("grid-expr", manifest_grid),
    ("requires", manifest_requires),
    ("abi", manifest_abi_entry),
    ("params", manifest_params),
    ("wrong-type", manifest_wrong_type),
    ("format", manifest_set(["format"], ["tile-bundle-99", "", 1],
                            lambda v: True)),
    ("files", manifest_files),
]
MANIFEST_TEXT_MUTATORS = [
    ("truncate", True),
    ("dev-zero", True),
    ("duplicate-key", False),
    # A field nested 100,000 levels deep (segfaulted every reader) or just
    # past the limit of 64; a key twice in a nested object.
    ("deep-nesting", True),
    ("nested-duplicate-key", True),
]
# Mutations of an .npy header (the dict after the magic and the length):
# (name, invalid, header). The first is the valid one.
NPY_DESCR = "{'descr': '<f4', 'fortran_order': False, "
NPY_MUTATORS = [
    ("valid", False, NPY_DESCR + "'shape': (5, 64), }"),
    ("empty-shape", True, NPY_DESCR + "'shape': , }"),
    ("no-shape", True, "{'descr': '<f4', 'fortran_order': False, }"),
    ("scalar-shape", True, NPY_DESCR + "'shape': 5, }"),
    ("open-shape", True, NPY_DESCR + "'shape': (5, 64, }"),
    ("deep-shape", True, NPY_DESCR + "'shape': " + "(" * 70 + "5, 64" + ")" * 70 + ", }"),
    ("deep-dict", True, "{" * 100 + NPY_DESCR + "'shape': (5, 64), }" + "}" * 100),
    ("huge-shape", True, NPY_DESCR + "'shape': (99999999999999999999, 64), }"),
    ("wrong-shape", True, NPY_DESCR + "'shape': (64, 5, 1), }"),
    ("bad-descr", True, "{'descr': '>f4', 'fortran_order': False, 'shape': (5, 64), }"),
    ("empty-descr", True, "{'descr': , 'fortran_order': False, 'shape': (5, 64), }"),
    ("fortran", True, "{'descr': '<f4', 'fortran_order': True, 'shape': (5, 64), }"),
]


def npy_text(header, data_bytes=5 * 64 * 4):
    """An .npy file as text that materialize writes byte for byte
    (surrogateescape): magic, version 1.0, length, padded header, zeros."""
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    raw = (b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little")
           + header.encode() + b"\0" * data_bytes)
    return raw.decode("utf-8", errors="surrogateescape")


# Mutations of a bundle's PTX (cut short, empty, only comments, cut inside
# the entry's parameter list).
PTX_MUTATORS = ["truncate", "empty", "comments-only", "cut-parameters"]
