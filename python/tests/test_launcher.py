"""Unit tests of tile_launcher that need no GPU and no PyTorch: expressions,
manifests, binding and the alignment contract. Run:
    python3 -m unittest discover -s python/tests
"""

import ctypes
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import tile_launcher as tl  # noqa: E402
from tile_launcher import abi, driver  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
FIXTURE = os.path.join(ROOT, "test", "Runner", "Inputs", "bundles",
                       "fmha-d64-causal-lse-w4")
# Where tests put an output tensor: far from the inputs at 0x10000 (a view
# the kernel writes may not share memory with another).
Y_ADDRESS = 0x10000000


class FakeTensor:
    """What abi.view_of reads of a torch tensor."""

    def __init__(self, shape, dtype="torch.float16", address=0x10000, strides=None):
        self.shape = list(shape)
        self.dtype = dtype
        self._address = address
        if strides is None:
            strides, n = [], 1
            for s in reversed(self.shape):
                strides.insert(0, n)
                n *= s
        self._strides = strides

    def data_ptr(self):
        return self._address

    def stride(self):
        return tuple(self._strides)


class ExprTest(unittest.TestCase):
    shapes = {"Q": [4, 32, 1000, 128], "X": [7, 77]}

    def ev(self, text, params=None):
        return tl.evaluate(text, self.shapes, params)

    def test_grid_grammar(self):
        self.assertEqual(self.ev("cdiv(Q.2, 128)"), 8)
        self.assertEqual(self.ev("Q.0 * Q.1"), 128)
        self.assertEqual(self.ev("min(X.0, 3) + max(1, 2) * (4 - 1)"), 9)
        self.assertEqual(self.ev("X.1 / 10"), 7)
        self.assertEqual(self.ev("X.1 % 10"), 7)
        # tile-persistent's rule and precondition (parenthesized sizes).
        self.assertEqual(self.ev("min((cdiv(Q.2, 128)) * (Q.0 * Q.1) * (1), 132)"), 132)
        self.assertEqual(self.ev("min((cdiv(X.0, 4)) * (X.1 / 8 + (0 - 1) + 1) * (1), 500)"), 18)
        self.assertEqual(self.ev("(cdiv(Q.2, 128)) * (Q.0 * Q.1) * (1) <= 2147483647"), 1)

    def test_requires_grammar(self):
        self.assertEqual(self.ev("X.1 <= 128"), 1)
        self.assertEqual(self.ev("X.1 > 128"), 0)
        self.assertEqual(self.ev("X.1 % 64 == 0 || 0 == 0"), 1)
        # Booleans are parameters (1 and 0), as in the C++ library: there
        # are no true/false literals.
        self.assertEqual(self.ev("!(X.0 == 7) && T", dict(T=1, F=0)), 0)
        self.assertEqual(self.ev("X.0 != 7 || F", dict(T=1, F=0)), 0)

    def test_errors(self):
        # The messages are the C++ library's (lib/Bundle/Expr.cpp).
        for text, why in [("(((((", "unexpected end"), ("", "empty expression"),
                          ("Z.0", "no view argument named 'Z'"), ("X.2", "rank 2"),
                          ("1/0", "division by zero"), ("cdiv(Q.2, 0)", "cdiv by zero"),
                          ("Q.99999999999999999999", "dimension '99999999999999999999' "
                           "is out of range (expected an integer in [0, 7])"),
                          ("99999999999999999999", "integer '99999999999999999999' is "
                           "out of range"),
                          ("Q.2 * Q.2 * Q.2 * Q.2 * Q.2 * Q.2 * Q.2", "overflow"),
                          ("(" * 20000 + "1" + ")" * 20000, "longer than 4096"),
                          ("(" * 65 + "1" + ")" * 65, "nesting deeper than 64"),
                          ("!" * 65 + "1", "nesting deeper than 64"),
                          ("3 $ 4", "unexpected '$'"), ("X.", "expected a dimension"),
                          ("true", "no parameter named 'true'")]:
            with self.subTest(text=text[:30]):
                with self.assertRaises(tl.ExprError) as ctx:
                    self.ev(text)
                self.assertIn(why, str(ctx.exception))


class ManifestTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.bundle = os.path.join(self.dir, "b")
        shutil.copytree(FIXTURE, self.bundle)
        with open(os.path.join(self.bundle, "manifest.json")) as f:
            self.raw = json.load(f)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, raw):
        with open(os.path.join(self.bundle, "manifest.json"), "w") as f:
            json.dump(raw, f)

    def test_fixture_loads(self):
        m = tl.load_manifest(self.bundle)
        self.assertEqual(m.kernel, "fmha")
        self.assertEqual([e.name for e in m.views()], ["Q", "K", "V", "Out", "Lse"])
        self.assertEqual(m.views()[0].align, 16)
        # tile-bundle-2 records what the kernel does with each view.
        self.assertEqual([e.access for e in m.views()],
                         ["read", "read", "read", "write", "write"])
        raw = json.loads(json.dumps(self.raw))
        raw["abi"][4]["access"] = "none"  # a view the kernel never touches
        self.write(raw)
        self.assertEqual(tl.load_manifest(self.bundle).views()[4].access, "none")

    def test_field_errors_name_the_field(self):
        cases = [
            (lambda r: r.pop("shared_bytes"), "shared_bytes: missing"),
            (lambda r: r.update(shared_bytes=2**32), "shared_bytes: expected an integer in"),
            (lambda r: r.update(block=[128, 1]), "block: expected three"),
            (lambda r: r["grid"].__setitem__(0, "((((("), "grid[0]: unexpected end"),
            (lambda r: r["abi"][0].update(rank=99), "abi[0].rank: expected an integer in [1, 8]"),
            (lambda r: r["abi"][1].update(align=3), "abi[1].align: expected a power of two"),
            (lambda r: r["abi"][1].update(align=True), "abi[1].align: expected an integer"),
            (lambda r: r["abi"][2].update(kind="blob"), "abi[2].kind"),
            (lambda r: r["abi"].append(dict(r["abi"][0])), "named twice"),
            (lambda r: r.update(ptx="../../etc/passwd"), "must name a file in"),
            (lambda r: r.update(format="other"), "not a tile bundle"),
        ]
        for mutate, message in cases:
            with self.subTest(message=message):
                raw = json.loads(json.dumps(self.raw))
                mutate(raw)
                self.write(raw)
                with self.assertRaises(tl.BundleError) as ctx:
                    tl.load_manifest(self.bundle)
                self.assertIn(message, str(ctx.exception))

    def test_dev_zero_is_refused(self):
        os.remove(os.path.join(self.bundle, "manifest.json"))
        os.symlink("/dev/zero", os.path.join(self.bundle, "manifest.json"))
        with self.assertRaises(tl.BundleError) as ctx:
            tl.load_manifest(self.bundle)
        self.assertIn("not a regular file", str(ctx.exception))


def softmax_manifest(tmp, align=16, requires=(), dtype="f16"):
    raw = {
        "format": "tile-bundle-2", "kernel": "softmax", "entry": "softmax",
        "ptx": "kernel.ptx", "target": "sm_90a", "num_warps": 4,
        "block": [128, 1, 1], "shared_bytes": 0,
        "grid": ["cdiv(X.0, 4)", "1", "1"], "requires": list(requires),
        "params": {},
        "abi": [
            {"name": "X", "kind": "view", "rank": 2, "dtype": dtype, "align": align,
             "access": "read"},
            {"name": "Y", "kind": "view", "rank": 2, "dtype": dtype, "align": align,
             "access": "write"},
            {"name": "eps", "kind": "scalar", "dtype": "f32"},
            {"name": "n", "kind": "scalar", "dtype": "i32"},
        ],
    }
    if align == 16:  # a tensor map needs align 16
        raw["abi"].append({"name": "X@tma0", "kind": "tensor_map", "view": "X",
                           "dims": [1, 0], "box": [128 // tl.manifest.DTYPE_BYTES[dtype], 4],
                           "swizzle": 128})
    os.makedirs(tmp, exist_ok=True)
    with open(os.path.join(tmp, "manifest.json"), "w") as f:
        json.dump(raw, f)
    with open(os.path.join(tmp, "kernel.ptx"), "w") as f:
        f.write(ptx_for(raw))
    return tl.load_manifest(tmp)


def ptx_for(raw, entry=None):
    """A PTX whose entry takes the parameters the manifest's abi expands to."""
    params = []
    for e in raw["abi"]:
        if e["kind"] == "view":
            params += [".u64"] + [".u32"] * e["rank"] + [".u64"] * e["rank"]
        elif e["kind"] == "scalar":
            params.append(".f32" if e["dtype"] == "f32" else ".u32")
        else:
            params.append(".align 64 .b8")
    entry = entry or raw["entry"]
    decls = ",\n".join(f"\t.param {t} {entry}_param_{i}" + ("[128]" if "b8" in t else "")
                        for i, t in enumerate(params))
    # The first line is tile-compile's record of the abi (// tile-abi).
    abi_line = f"// tile-abi {entry} [" + ", ".join(
        json.dumps(e, separators=(",", ":")) for e in raw["abi"]) + "]\n"
    return (abi_line + f"//\n// Generated for the tests\n//\n.version 8.5\n.target {raw['target']}\n"
            f".address_size 64\n\n.visible .entry {entry}(\n{decls}\n)\n{{\n\tret;\n}}\n")


class BindTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def args(self, rows=77, width=1024, **kw):
        a = dict(X=FakeTensor([rows, width]),
                 Y=FakeTensor([rows, width], address=Y_ADDRESS), eps=1e-5, n=width)
        a.update(kw)
        return a

    def test_tensor_map_unit_dimension_strides(self):
        # A [1, 65] f16 view: its row stride (130 bytes) is never used; the
        # driver wants a multiple of 16, so the map gets the row's span
        # rounded up (the same rule as tilebundle::tensorMapByteStrides).
        self.assertEqual(abi.tensor_map_byte_strides([1, 0], [1, 65], [65, 1], 2), [144])
        self.assertEqual(abi.tensor_map_byte_strides([1, 0], [77, 64], [64, 1], 2), [128])
        self.assertEqual(abi.tensor_map_byte_strides([3, 2, 1, 0], [2, 1, 100, 64],
                                                     [7000, 3, 64, 1], 2),
                         [128, 12800, 14000])

    def test_plan(self):
        m = softmax_manifest(self.dir)
        plan = abi.bind(m, self.args())
        self.assertEqual(plan.grid, (20, 1, 1))
        kinds = [k for k, _ in plan.params]
        self.assertEqual(kinds, ["c_uint64", "c_int32", "c_int32", "c_int64", "c_int64"] * 2
                         + ["c_float", "c_int32", "tensor_map"])
        tmap = plan.params[-1][1]
        self.assertEqual(tmap["sizes"], [1024, 77])
        self.assertEqual(tmap["byte_strides"], [2048])
        pointers, keep = abi.pack([p for p in plan.params if p[0] != "tensor_map"], {})
        self.assertEqual(ctypes.c_uint64.from_address(pointers[0]).value, 0x10000)
        self.assertEqual(ctypes.c_int32.from_address(pointers[2]).value, 1024)
        self.assertAlmostEqual(ctypes.c_float.from_address(pointers[10]).value, 1e-5)

    def test_fp8_views(self):
        # fp8 (torch.float8_e4m3fn): one byte an element, a tensor map of
        # bytes (CU_TENSOR_MAP_DATA_TYPE_UINT8) with 128-element boxes; rows
        # must stay 16-byte aligned (width % 16), and dtypes must match.
        m = softmax_manifest(self.dir, dtype="f8E4M3FN")
        fp8 = "torch.float8_e4m3fn"
        plan = abi.bind(m, self.args(X=FakeTensor([77, 1024], dtype=fp8),
                                     Y=FakeTensor([77, 1024], dtype=fp8,
                                                  address=Y_ADDRESS)))
        tmap = plan.params[-1][1]
        self.assertEqual(tmap["dtype"], "f8E4M3FN")
        self.assertEqual(tmap["byte_strides"], [1024])
        self.assertEqual(tmap["box"], [128, 4])
        self.assertEqual(driver.TENSOR_MAP_DTYPE[tmap["dtype"]], 0)
        with self.assertRaises(tl.LaunchError) as ctx:
            abi.bind(m, self.args(width=40, X=FakeTensor([77, 40], dtype=fp8),
                                  Y=FakeTensor([77, 40], dtype=fp8, address=Y_ADDRESS)))
        self.assertIn("X", str(ctx.exception))
        with self.assertRaises(tl.LaunchError) as ctx:
            abi.bind(m, self.args())
        self.assertIn("'X' must be f8E4M3FN, got f16", str(ctx.exception))

    def test_argument_errors(self):
        m = softmax_manifest(self.dir)
        cases = [
            (dict(Z=FakeTensor([1, 1])), "no argument named 'Z'"),
            (dict(X=FakeTensor([4, 8], dtype="torch.float32")), "'X' must be f16, got f32"),
            (dict(X=FakeTensor([4])), "'X' must have rank 2"),
            (dict(eps=float("nan")), "'eps' is f32"),
            (dict(n=2**31), "'n' is i32: 2147483648 is out of range"),
            (dict(n=1.5), "'n' is i32"),
            (dict(eps="x"), "'eps' is f32"),
            (dict(X=FakeTensor([3, 2**31])), "does not fit the ABI's int32"),
        ]
        for override, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(tl.LaunchError) as ctx:
                    abi.bind(m, self.args(**override))
                self.assertIn(message, str(ctx.exception))
        a = self.args()
        del a["Y"]
        with self.assertRaises(tl.LaunchError) as ctx:
            abi.bind(m, a)
        self.assertIn("missing argument(s) 'Y'", str(ctx.exception))

    def test_alignment_contract(self):
        m = softmax_manifest(self.dir)
        # K = 100 f16 rows are 200 bytes: 8-byte aligned, not 16.
        with self.assertRaises(tl.LaunchError) as ctx:
            abi.bind(m, self.args(width=100, X=FakeTensor([77, 100])))
        self.assertIn("'X': stride 100 of dimension 0 is 200 bytes", str(ctx.exception))
        self.assertIn("view-align=8", str(ctx.exception))
        with self.assertRaises(tl.LaunchError) as ctx:
            abi.bind(m, self.args(X=FakeTensor([77, 1024], address=0x10008)))
        self.assertIn("base address aligned to 16 bytes, got 0x10008", str(ctx.exception))
        with self.assertRaises(tl.LaunchError) as ctx:
            abi.bind(m, self.args(X=FakeTensor([77, 1024], strides=[1, 77])))
        self.assertIn("innermost dimension must be contiguous", str(ctx.exception))
        # A bundle compiled for 2-byte views takes K = 65 rows (tensor maps
        # aside, which need 16 bytes).
        m2 = softmax_manifest(os.path.join(self.dir, "a2"), align=2)
        plan = abi.bind(m2, self.args(width=65, X=FakeTensor([77, 65]),
                                      Y=FakeTensor([77, 65], address=Y_ADDRESS)))
        self.assertEqual(plan.grid, (20, 1, 1))
        self.assertEqual(tl.largest_alignment(tl.view_of("X", FakeTensor([77, 65]))), 2)
        self.assertEqual(tl.largest_alignment(tl.view_of("X", FakeTensor([77, 100]))), 8)
        self.assertEqual(tl.largest_alignment(tl.view_of("X", FakeTensor([77, 64]))), 16)

    def test_requires(self):
        m = softmax_manifest(self.dir, requires=["X.1 <= 4096"])
        abi.bind(m, self.args(width=4096, X=FakeTensor([2, 4096]),
                              Y=FakeTensor([2, 4096], address=Y_ADDRESS)))
        with self.assertRaises(tl.LaunchError) as ctx:
            abi.bind(m, self.args(width=4104, X=FakeTensor([2, 4104]),
                                  Y=FakeTensor([2, 4104], address=Y_ADDRESS)))
        self.assertIn("requirement 'X.1 <= 4096'", str(ctx.exception))
        self.assertIn("X[2, 4104]", str(ctx.exception))

    def test_grid_limits(self):
        m = softmax_manifest(self.dir)
        m.grid[1] = "X.1 * X.1"
        with self.assertRaises(tl.LaunchError) as ctx:
            abi.bind(m, self.args(width=1024))
        self.assertIn("grid[1] = 'X.1 * X.1' is 1048576, outside [0, 65535]", str(ctx.exception))


if __name__ == "__main__":
    unittest.main()


class CallCacheTest(unittest.TestCase):
    """A call with the same arguments as the one before reuses its check and
    packed parameters (so a timing loop times the kernel); any change of a
    tensor or scalar checks and packs again. The driver is replaced by fakes:
    no GPU needed."""

    def setUp(self):
        from tile_launcher import launch as launch_module
        self.dir = tempfile.mkdtemp()
        softmax_manifest(self.dir)
        self.kernel = tl.load(self.dir)
        self.kernel._function = lambda: "fn"
        self.launches, self.binds = [], []
        self.driver = launch_module.driver
        self.saved = (self.driver.launch, self.driver.TensorMap, abi.bind)

        class FakeMap:
            address = 0

        self.driver.TensorMap = lambda *a: FakeMap()
        self.driver.launch = lambda fn, grid, block, shared, stream, params, what: \
            self.launches.append((grid, ctypes.c_uint64.from_address(params[0]).value,
                                  ctypes.c_float.from_address(params[10]).value))
        real_bind = self.saved[2]

        def counting_bind(m, args):
            self.binds.append(1)
            return real_bind(m, args)
        launch_module.abi.bind = counting_bind

    def tearDown(self):
        from tile_launcher import launch as launch_module
        self.driver.launch, self.driver.TensorMap, launch_module.abi.bind = self.saved
        shutil.rmtree(self.dir)

    def test_same_arguments_reuse_the_plan(self):
        x = FakeTensor([77, 1024])
        y = FakeTensor([77, 1024], address=Y_ADDRESS)
        for _ in range(3):
            self.kernel(stream=0, X=x, Y=y, eps=1e-5, n=1024)
        self.assertEqual(len(self.binds), 1)
        self.assertEqual(len(self.launches), 3)
        self.assertEqual(self.launches[0], self.launches[2])
        # Another address, another scalar, another shape: checked again.
        self.kernel(stream=0, X=FakeTensor([77, 1024], address=0x40000), Y=y,
                    eps=1e-5, n=1024)
        self.assertEqual(self.launches[-1][1], 0x40000)
        self.kernel(stream=0, X=x, Y=y, eps=0.5, n=1024)
        self.assertAlmostEqual(self.launches[-1][2], 0.5)
        self.kernel(stream=0, X=FakeTensor([200, 1024]),
                    Y=FakeTensor([200, 1024], address=Y_ADDRESS), eps=0.5, n=1024)
        self.assertEqual(self.launches[-1][0], (50, 1, 1))
        self.assertEqual(len(self.binds), 4)
        # A call the check refuses leaves nothing cached.
        with self.assertRaises(tl.LaunchError):
            self.kernel(stream=0, X=FakeTensor([77, 1024], address=0x10002), Y=y,
                        eps=0.5, n=1024)
        self.kernel(stream=0, X=x, Y=y, eps=1e-5, n=1024)
        self.assertEqual(len(self.binds), 6)
