"""Hostile input against the Python launcher (issue 26, third round): memory
that a written view shares, devices, strides, scalar ranges, the call's own
keywords, damaged manifests and bundle files. No GPU or PyTorch: fakes.
    python3 -m unittest discover -s python/tests
"""

import ctypes
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import tile_launcher as tl  # noqa: E402
from tile_launcher import abi, manifest as manifest_module  # noqa: E402
from tile_launcher import launch as launch_module  # noqa: E402
from test_launcher import (FIXTURE, FakeTensor, Y_ADDRESS, ptx_for,  # noqa: E402
                           softmax_manifest)


class FakeDevice:
    def __init__(self, kind, index):
        self.type, self.index = kind, index

    def __str__(self):
        return f"{self.type}:{self.index}" if self.index is not None else self.type


class DeviceTensor(FakeTensor):
    def __init__(self, shape, device, **kw):
        super().__init__(shape, **kw)
        self.device = device
        self.is_cuda = device.type == "cuda"


class SparseTensor(FakeTensor):
    def stride(self):
        raise RuntimeError("sparse tensors do not have strides")


class BundleDir(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def args(self, **kw):
        a = dict(X=FakeTensor([77, 1024]),
                 Y=FakeTensor([77, 1024], address=Y_ADDRESS), eps=1e-5, n=1024)
        a.update(kw)
        return a

    def bundle(self, raw, ptx=None, name="b"):
        path = os.path.join(self.dir, name)
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "manifest.json"), "w") as f:
            f.write(raw if isinstance(raw, str) else json.dumps(raw))
        with open(os.path.join(path, "kernel.ptx"), "w") as f:
            f.write(ptx if ptx is not None else
                    ptx_for(raw if isinstance(raw, dict) else self.raw()))
        return path

    def raw(self, **kw):
        """The softmax manifest of test_launcher, as JSON, changed by kw."""
        softmax_manifest(os.path.join(self.dir, "base"))
        with open(os.path.join(self.dir, "base", "manifest.json")) as f:
            raw = json.load(f)
        raw.update(kw)
        return raw

    def assertRefused(self, error, call, *needles):
        with self.assertRaises(error) as ctx:
            call()
        for needle in needles:
            self.assertIn(needle, str(ctx.exception))
        return ctx.exception


class OverlapTest(BundleDir):
    """A view the kernel writes shares no memory with itself or another."""

    def test_written_view_overlapping_itself(self):
        m = softmax_manifest(self.dir)
        for strides, why in [([0, 1], "stride 0"),          # expand
                             ([512, 1], "stride 512"),      # rows overlap
                             ([1024, 0], None)]:            # inner stride 0
            with self.subTest(strides=strides):
                y = FakeTensor([77, 1024], address=Y_ADDRESS, strides=strides)
                if why is None:  # the innermost stride must be 1 anyway
                    self.assertRefused(tl.LaunchError, lambda: abi.bind(m, self.args(Y=y)),
                                       "'Y'")
                    continue
                self.assertRefused(tl.LaunchError, lambda: abi.bind(m, self.args(Y=y)),
                                   "'Y' is written", "overlap", why)
        # Read views may repeat elements (a broadcast input).
        abi.bind(m, self.args(X=FakeTensor([77, 1024], strides=[0, 1])))
        # A sliced output (rows 2048 apart, 1024 used) is fine.
        abi.bind(m, self.args(Y=FakeTensor([77, 1024], address=Y_ADDRESS,
                                           strides=[2048, 1])))

    def test_output_aliasing_an_input(self):
        m = softmax_manifest(self.dir)
        for address in (0x10000, 0x10000 + 2048, 0x10000 - 1024):
            with self.subTest(address=hex(address)):
                y = FakeTensor([77, 1024], address=address)
                self.assertRefused(tl.LaunchError, lambda: abi.bind(m, self.args(Y=y)),
                                   "'Y' is written", "overlaps argument 'X'")
        # Adjacent, not overlapping: X ends where Y begins.
        abi.bind(m, self.args(Y=FakeTensor([77, 1024], address=0x10000 + 77 * 1024 * 2)))

    def test_two_outputs_on_the_same_memory(self):
        raw = self.raw()
        raw["abi"].insert(2, {"name": "Z", "kind": "view", "dtype": "f16", "rank": 2,
                              "align": 16, "access": "readwrite"})
        m = tl.load_manifest(self.bundle(raw))
        y = FakeTensor([77, 1024], address=Y_ADDRESS)
        self.assertRefused(tl.LaunchError, lambda: abi.bind(m, self.args(Y=y, Z=y)),
                           "'Y'", "'Z'", "overlap")
        # Reads of reads may share: X twice as an input is fine.
        raw["abi"][2]["access"] = "read"
        m = tl.load_manifest(self.bundle(raw, name="c"))
        abi.bind(m, self.args(Z=FakeTensor([77, 1024])))
        # A view the kernel never touches (access none) is not compared.
        raw["abi"][2]["access"] = "none"
        m = tl.load_manifest(self.bundle(raw, name="d"))
        abi.bind(m, self.args(Z=y))

    def test_negative_strides_are_refused(self):
        m = softmax_manifest(self.dir)
        for name in ("X", "Y"):
            with self.subTest(name=name):
                t = FakeTensor([77, 1024], address=0x10000 + 76 * 2048 if name == "X"
                               else Y_ADDRESS + 76 * 2048, strides=[-1024, 1])
                self.assertRefused(tl.LaunchError,
                                   lambda: abi.bind(m, self.args(**{name: t})),
                                   f"'{name}'", "negative")

    def test_empty_views_share_nothing(self):
        m = softmax_manifest(self.dir)
        abi.bind(m, self.args(X=FakeTensor([0, 1024]), Y=FakeTensor([0, 1024])))

    def test_empty_views_meet_the_alignment_contract(self):
        # As tilebundle::checkView: only dimensions of size 1 are exempt.
        m = softmax_manifest(self.dir)
        for strides, why in [([1024, 2], "innermost"), ([100, 1], "stride 100")]:
            with self.subTest(strides=strides):
                x = FakeTensor([0, 0], strides=strides)
                self.assertRefused(tl.LaunchError, lambda: abi.bind(m, self.args(X=x)),
                                   "'X'", why)
        abi.bind(m, self.args(X=FakeTensor([1, 0], strides=[100, 1])))


class DeviceTest(BundleDir):
    def test_tensors_on_two_devices(self):
        m = softmax_manifest(self.dir)
        x = DeviceTensor([77, 1024], FakeDevice("cuda", 0))
        y = DeviceTensor([77, 1024], FakeDevice("cuda", 1), address=Y_ADDRESS)
        self.assertRefused(tl.LaunchError, lambda: abi.bind(m, self.args(X=x, Y=y)),
                           "'Y' is on cuda:1", "'X' is on cuda:0")
        y = DeviceTensor([77, 1024], FakeDevice("cuda", 0), address=Y_ADDRESS)
        self.assertEqual(abi.bind(m, self.args(X=x, Y=y)).device, 0)

    def test_tensor_not_on_a_gpu(self):
        m = softmax_manifest(self.dir)
        x = DeviceTensor([77, 1024], FakeDevice("cpu", None))
        self.assertRefused(tl.LaunchError, lambda: abi.bind(m, self.args(X=x)),
                           "'X'", "not on the GPU")

        class CpuByIndex(FakeTensor):
            def get_device(self):
                return -1
        self.assertRefused(tl.LaunchError,
                           lambda: abi.bind(m, self.args(X=CpuByIndex([77, 1024]))),
                           "'X' is not on the GPU")

    def test_properties_raising_are_launch_errors(self):
        m = softmax_manifest(self.dir)

        class BadDtype(FakeTensor):
            @property
            def dtype(self):
                raise RuntimeError("no dtype")

            @dtype.setter
            def dtype(self, value):
                pass

        class BadDevice(FakeTensor):
            def get_device(self):
                raise RuntimeError("no device")
        for t, why in [(BadDtype([77, 1024]), "no dtype"),
                       (BadDevice([77, 1024]), "cannot read its device")]:
            with self.subTest(why=why):
                self.assertRefused(tl.LaunchError, lambda: abi.bind(m, self.args(X=t)),
                                   "'X'", why)

    def test_stride_raising_is_a_launch_error(self):
        m = softmax_manifest(self.dir)
        self.assertRefused(tl.LaunchError,
                           lambda: abi.bind(m, self.args(X=SparseTensor([77, 1024]))),
                           "'X'", "RuntimeError", "sparse")


class ScalarTest(BundleDir):
    def test_out_of_range_scalars(self):
        m = softmax_manifest(self.dir)
        for kw, why in [(dict(eps=1e39), "'eps' is f32"),
                        (dict(eps=-1e39), "'eps' is f32"),
                        (dict(eps=3.4028236e38), "not a finite f32"),
                        # rounds to inf: the midpoint of FLT_MAX and 2^128
                        (dict(eps=float.fromhex("0x1.ffffffp127")), "not a finite f32"),
                        (dict(eps=10**400), "'eps' is f32"),
                        (dict(eps=float("inf")), "'eps' is f32"),
                        (dict(eps=True), "'eps' is f32"),
                        (dict(n=2**31), "out of range"),
                        (dict(n=-2**31 - 1), "out of range"),
                        (dict(n=10**5000), "out of range"),
                        (dict(n=True), "'n' is i32"),
                        (dict(n=None), "'n' is i32")]:
            with self.subTest(why=why, name=list(kw)[0]):
                self.assertRefused(tl.LaunchError, lambda: abi.bind(m, self.args(**kw)), why)
        plan = abi.bind(m, self.args(eps=3.4028235e38, n=-2**31))  # the extremes
        self.assertIn(("c_int32", -2**31), plan.params)
        # Just below the midpoint rounds to FLT_MAX (LaunchTest's FloatScalars).
        abi.bind(m, self.args(eps=float.fromhex("0x1.fffffefffffffp127")))


class FakeTorch(types.ModuleType):
    """torch.cuda.current_stream() for the call path, without torch."""

    def __init__(self):
        super().__init__("torch")
        stream = types.SimpleNamespace(cuda_stream=777)
        self.cuda = types.SimpleNamespace(current_stream=lambda: stream)


class CallTest(BundleDir):
    """The call's own keywords, streams and devices; the driver is faked."""

    def setUp(self):
        super().setUp()
        self.driver = launch_module.driver
        self.saved = (self.driver.launch, self.driver.current_device,
                      self.driver.TensorMap, sys.modules.get("torch"))
        self.launches = []
        self.driver.launch = lambda fn, grid, block, shared, stream, params, what: \
            self.launches.append((stream, [params[i] for i in range(len(params))]))
        self.driver.current_device = lambda: 0

        class FakeMap:
            address = 0
        self.driver.TensorMap = lambda *a: FakeMap()
        sys.modules["torch"] = FakeTorch()

    def tearDown(self):
        (self.driver.launch, self.driver.current_device, self.driver.TensorMap,
         torch) = self.saved
        if torch is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = torch
        super().tearDown()

    def kernel(self, raw=None, name="k"):
        k = tl.load(self.bundle(raw or self.raw(), name=name))
        k._function = lambda: "fn"
        return k

    def test_abi_arguments_named_stream_and_self(self):
        raw = self.raw()
        raw["abi"][2]["name"] = "stream"   # the f32 scalar
        raw["abi"][3]["name"] = "self"     # the i32 scalar
        k = self.kernel(raw)
        a = self.args()
        a["stream"], a["self"] = a.pop("eps"), a.pop("n")
        k(**a)  # both are kernel arguments; the stream is torch's
        self.assertEqual(self.launches[-1][0], 777)
        value = ctypes.c_float.from_address(self.launches[-1][1][10]).value
        self.assertAlmostEqual(value, 1e-5)
        self.assertEqual(ctypes.c_int32.from_address(self.launches[-1][1][11]).value, 1024)
        k.launch(a, stream=5)  # the stream of such a kernel: launch()
        self.assertEqual(self.launches[-1][0], 5)
        self.assertEqual(k.plan(**a).grid, (20, 1, 1))

    def test_streams(self):
        k = self.kernel()
        k(stream=0, **self.args())
        self.assertEqual(self.launches[-1][0], 0)
        k(stream=types.SimpleNamespace(cuda_stream=1234), **self.args())  # torch.cuda.Stream
        self.assertEqual(self.launches[-1][0], 1234)
        k(**self.args())
        self.assertEqual(self.launches[-1][0], 777)
        for bad in ("abc", -1, 2**64, True, 1.5, object()):
            with self.subTest(stream=repr(bad)[:20]):
                self.assertRefused(tl.LaunchError, lambda: k(stream=bad, **self.args()),
                                   "stream")
        self.assertRefused(tl.LaunchError, lambda: k.launch([1, 2]), "mapping")

    def test_current_device(self):
        k = self.kernel()
        on1 = dict(X=DeviceTensor([77, 1024], FakeDevice("cuda", 1)),
                   Y=DeviceTensor([77, 1024], FakeDevice("cuda", 1), address=Y_ADDRESS))
        self.assertRefused(tl.LaunchError, lambda: k(stream=0, **self.args(**on1)),
                           "tensors are on cuda:1", "current device is cuda:0")
        self.driver.current_device = lambda: 1
        k(stream=0, **self.args(**on1))
        stream0 = types.SimpleNamespace(cuda_stream=9, device=FakeDevice("cuda", 0))
        self.assertRefused(tl.LaunchError, lambda: k(stream=stream0, **self.args(**on1)),
                           "stream is on cuda:0")
        self.assertEqual(len(self.launches), 1)

    def test_a_call_with_a_sparse_tensor(self):
        k = self.kernel()
        self.assertRefused(tl.LaunchError,
                           lambda: k(stream=0, **self.args(X=SparseTensor([77, 1024]))),
                           "'X'")

    def test_load_of_no_folder(self):
        for bad in (None, 3, b"\xff"):
            with self.subTest(bad=bad):
                self.assertRefused(tl.BundleError, lambda: tl.load(bad), "bundle folder")
        self.assertRefused(tl.BundleError, lambda: tl.load(os.path.join(self.dir, "no")),
                           "not a folder")


class ManifestHostileTest(BundleDir):
    def load(self, raw, ptx=None):
        return tl.load_manifest(self.bundle(raw, ptx))

    def test_fields_the_cpp_library_refuses(self):
        def view(**kw):
            e = {"name": "X", "kind": "view", "rank": 2, "dtype": "f16", "align": 16,
                 "access": "read"}
            e.update(kw)
            return e
        cases = [
            (dict(abi=[view(dtype="f64")]), "abi[0].dtype: expected f16, bf16, f32, i32, f8E4M3FN or f8E5M2"),
            (dict(abi=[view(dtype="i1")]), "abi[0].dtype"),
            (dict(abi=[view(), {"name": "s", "kind": "scalar", "dtype": "i64"}]),
             "abi[1].dtype: expected"),
            (dict(block=[256, 1, 1]), "block: 256 threads, but num_warps 4 means 128"),
            (dict(block=[1025, 1, 1]), "block[0]: expected an integer in [1, 1024]"),
            (dict(block=[1024, 32, 32]), "block: 1048576 threads"),
            (dict(target="sm_9"), "target: expected sm_XY"),
            (dict(target="sm_09"), "target"),
            (dict(target="sm_1000"), "target"),
            (dict(colour="blue"), "colour: unknown field"),
            (dict(abi=[view(extra=1)]), "abi[0].extra: unknown field"),
            (dict(format="tile-bundle-1"), "recompile the bundle"),
            (dict(grid=["1", "1"]), "grid: expected an array of 3"),
            (dict(params={"A": 1.5}), "params.A: expected an integer"),
            (dict(params={"A-B": 1}), 'params: "A-B" is not an identifier'),
            (dict(abi=[view()] * 2), "abi[1].name: duplicate"),
            (dict(abi=[view(name=f"V{i}") for i in range(300)]), "abi: more than 256"),
            (dict(requires=["X.0 > 0", "0"]), "requires[1]: '0' is false for every shape"),
            (dict(grid=["X.0", "0", "1"]), "grid[1]: '0' is 0 for every shape"),
            (dict(grid=["1 / 0", "1", "1"]), "grid[0]: division by zero"),
            (dict(kernel="a b"), "kernel: expected an identifier"),
            (dict(ptx="."), "ptx: must name a file in"),
        ]
        for change, message in cases:
            with self.subTest(message=message):
                raw = self.raw(**change)
                self.assertRefused(tl.BundleError, lambda: manifest_module.parse_manifest(raw),
                                   message)

    def test_json_the_cpp_library_refuses(self):
        text = json.dumps(self.raw())
        for bad, message in [
                (text.replace('"kernel": "softmax"', '"kernel": "softmax", "kernel": "x"'),
                 'duplicate key "kernel"'),
                (text.replace('"shared_bytes": 0', '"shared_bytes": NaN'), "NaN"),
                (text.replace('"shared_bytes": 0', '"shared_bytes": -Infinity'), "Infinity"),
                (text.replace('"shared_bytes": 0', '"shared_bytes": 1e400'), "overflow"),
                (text.replace('"shared_bytes": 0', '"shared_bytes": ' + "9" * 5000),
                 "overflow"),
                (text.replace('"params": {}', '"params": {"A": ' + "[" * 10000 + "]" * 10000
                              + "}"), "deeper than 64"),
                ("[" * 100000, "deeper than 64"),
                ("\ufeff" + text[:-1], "not valid JSON"),
                ("", "not valid JSON"), ("[]", "expected a JSON object")]:
            with self.subTest(message=message):
                path = os.path.join(self.dir, "m.json")
                with open(path, "w") as f:
                    f.write(bad)
                self.assertRefused(tl.BundleError, lambda: self.load(bad), message)
        # A byte order mark is skipped, as nlohmann-json does.
        self.load("\ufeff" + text)

    def test_expression_literals(self):
        for literal, message in [("9" * 5000, "longer than 4096"),
                                 ("9" * 4000, "is out of range"),
                                 ("0" * 4000 + "7", None)]:
            with self.subTest(digits=len(literal)):
                raw = self.raw(grid=[literal, "1", "1"])
                if message is None:
                    self.load(raw)
                    continue
                self.assertRefused(tl.BundleError, lambda: self.load(raw), "grid[0]", message)

    def test_parameter_names_in_expressions(self):
        raw = self.raw(params={"TILE": 4, "EVEN": True, "DTYPE": "f16"},
                       grid=["cdiv(X.0, TILE)", "1", "1"],
                       requires=["EVEN || X.1 % 64 == 0", "!X.0 + 1"])
        m = self.load(raw)
        plan = abi.bind(m, self.args())
        self.assertEqual(plan.grid, (20, 1, 1))
        raw["requires"] = ["DTYPE == 1"]  # a type name is no value
        self.assertRefused(tl.BundleError, lambda: self.load(raw),
                           "requires[0]: no parameter named 'DTYPE'")

    def test_large_inputs_load_fast(self):
        start = time.monotonic()
        big = "1 + " * 300000 + "1"  # a 1.2 MB grid expression
        self.assertRefused(tl.ExprError, lambda: tl.evaluate(big, {}), "longer than 4096")
        raw = self.raw(grid=[big, "1", "1"])
        self.assertRefused(tl.BundleError, lambda: self.load(raw), "over the limit")
        self.assertRefused(tl.BundleError, lambda: manifest_module.parse_manifest(raw),
                           "grid[0]", "longer than 4096")
        view = {"kind": "view", "rank": 2, "dtype": "f16", "align": 16, "access": "read"}
        raw = self.raw(abi=[dict(view, name=f"V{i}") for i in range(50000)])
        self.assertRefused(tl.BundleError, lambda: manifest_module.parse_manifest(raw),
                           "abi: more than 256")
        raw["abi"][49999]["name"] = "V0"
        self.assertRefused(tl.BundleError, lambda: manifest_module.parse_manifest(raw),
                           "abi: more than 256")
        # The longest expression the grammar takes, as a long chain.
        chain = " + ".join(["X.0"] * 600)
        self.assertEqual(tl.evaluate(chain, {"X": [1]}), 600)
        self.assertLess(time.monotonic() - start, 5)


class BundleFilesTest(BundleDir):
    """`files` digests and the PTX entry against the ABI."""

    def digests(self, path, **override):
        files = {}
        for name in ("kernel.ptx",):
            with open(os.path.join(path, name), "rb") as f:
                data = f.read()
            files[name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        files.update(override)
        with open(os.path.join(path, "manifest.json")) as f:
            raw = json.load(f)
        raw["files"] = files
        with open(os.path.join(path, "manifest.json"), "w") as f:
            json.dump(raw, f)
        return raw

    def test_digests(self):
        path = self.bundle(self.raw())
        good = self.digests(path)
        m = tl.load_manifest(path)
        self.assertEqual(m.files["kernel.ptx"]["bytes"], good["files"]["kernel.ptx"]["bytes"])
        with open(os.path.join(path, "kernel.ptx"), "a") as f:
            f.write("\n")  # one byte more
        self.assertRefused(tl.BundleError, lambda: tl.load_manifest(path),
                           "kernel.ptx", "bytes")
        ptx = os.path.join(path, "kernel.ptx")
        with open(ptx, "rb") as f:
            data = bytearray(f.read()[:-1])
        data[-3] ^= 1  # same size, another byte
        with open(ptx, "wb") as f:
            f.write(data)
        self.assertRefused(tl.BundleError, lambda: tl.load_manifest(path),
                           "kernel.ptx", "sha256")
        for override, message in [
                ({"kernel.cubin": {"sha256": "0" * 64, "bytes": 1}}, "kernel.cubin"),
                ({"kernel.ptx": {"sha256": "A" * 64, "bytes": 1}},
                 "files.kernel.ptx.sha256: expected 64 lowercase hex"),
                ({"kernel.ptx": {"sha256": "0" * 64}}, "files.kernel.ptx.bytes: missing"),
                ({"kernel.ptx": {"sha256": "0" * 64, "bytes": 1, "md5": ""}},
                 "files.kernel.ptx.md5: unknown field"),
                ({"../x": {"sha256": "0" * 64, "bytes": 1}}, "not a file name")]:
            with self.subTest(message=message):
                shutil.copy(os.path.join(FIXTURE, "kernel.ptx"), ptx)  # any content
                self.digests(path, **override)
                self.assertRefused(tl.BundleError, lambda: tl.load_manifest(path), message)

    def test_files_are_checked_again_when_loaded_into_the_driver(self):
        path = self.bundle(self.raw())
        self.digests(path)
        kernel = tl.load(path)
        self.assertTrue(kernel._read_image("kernel.ptx").startswith(b"//"))
        with open(os.path.join(path, "kernel.ptx"), "a") as f:
            f.write("// changed after load\n")
        self.assertRefused(tl.BundleError, lambda: kernel._read_image("kernel.ptx"),
                           "kernel.ptx", "changed since the bundle was loaded")

    def test_ptx_against_the_abi(self):
        raw = self.raw()
        good = ptx_for(raw)
        cases = [
            ("", "no .target"),
            ("// nothing but a comment\n/* and another */\n", "no .target"),
            (good.replace(".entry softmax", ".entry other").replace("softmax_param",
                                                                    "other_param"),
             "no .entry named 'softmax'"),
            (good.replace("\tret;\n}\n", "\tret;\n"),
             "the PTX is truncated: its braces do not balance"),
            (good[:good.index("softmax_param_3")],
             "the PTX is truncated: .entry softmax has no closed parameter list"),
            (good.replace(".u64 softmax_param_0", ".u32 softmax_param_0"),
             "parameter 0 is 4 bytes"),
            (good.replace(".b8 softmax_param_12[128]", ".b8 softmax_param_12[64]"),
             "parameter 12 is 64 bytes"),
            (good.replace(".target sm_90a", ".target sm_80"), ".target sm_80"),
        ]
        for ptx, message in cases:
            with self.subTest(message=message):
                self.assertRefused(tl.BundleError, lambda: tl.load_manifest(
                    self.bundle(raw, ptx)), "kernel.ptx", message)
        # Comments and the .param spellings of real PTX are understood.
        commented = good.replace(".u64 softmax_param_0", ".u64 .ptr .align 1 softmax_param_0"
                                 " /* the address */").replace("(\n", "( // params\n")
        tl.load_manifest(self.bundle(raw, commented))
        # The fixture's PTX (nvcc's) matches its manifest.
        tl.load_manifest(FIXTURE)

    def test_an_edited_abi_is_refused(self):
        # The PTX cannot tell a view of f16 from one of f32 by its parameter
        # sizes: its tile-abi line (the abi it was compiled for) can. On the
        # GPU an f32 claim over an f16 PTX launched and wrote NaNs.
        raw = self.raw()
        good = ptx_for(raw)
        views = [i for i, e in enumerate(raw["abi"]) if e["kind"] == "view"]
        scalars = [i for i, e in enumerate(raw["abi"]) if e["kind"] == "scalar"]
        edits = [(views[-1], "dtype", "bf16" if raw["abi"][views[-1]]["dtype"] != "bf16"
                  else "f16"),
                 (views[-1], "align", 8),
                 (views[0], "access", "none"),
                 (scalars[0], "dtype", "i32" if raw["abi"][scalars[0]]["dtype"] != "i32"
                  else "f32")]
        for index, key, value in edits:
            for with_files in (False, True):
                with self.subTest(key=key, files=with_files):
                    edited = json.loads(json.dumps(raw))
                    edited["abi"][index][key] = value
                    path = self.bundle(edited, good)
                    if with_files:
                        self.digests(path)
                    self.assertRefused(tl.BundleError, lambda: tl.load_manifest(path),
                                       "kernel.ptx", f"the manifest's abi[{index}] is",
                                       "an edited manifest")
        # Without the line: refused where the manifest lists files (what
        # tile-compile writes), loaded where it does not (hand-made bundles).
        plain = good[good.index("\n") + 1:]
        path = self.bundle(raw, plain)
        tl.load_manifest(path)
        self.digests(path)
        self.assertRefused(tl.BundleError, lambda: tl.load_manifest(path),
                           "has no '// tile-abi softmax' line")
        # And the line as written loads, with files.
        path = self.bundle(raw, good)
        self.digests(path)
        tl.load_manifest(path)

    def test_a_missing_cubin_is_ignored(self):
        # docs/bundle.md and tilebundle::loadBundle: the PTX is JIT-compiled.
        path = self.bundle(self.raw(cubin="kernel.cubin"))
        self.assertIsNone(tl.load_manifest(path).cubin)
        with open(os.path.join(path, "kernel.cubin"), "wb") as f:
            f.write(b"\x7fELF")
        self.assertEqual(tl.load_manifest(path).cubin, "kernel.cubin")
        # Unless the manifest's files lists it: then it is a damaged bundle.
        os.remove(os.path.join(path, "kernel.cubin"))
        self.digests(path, **{"kernel.cubin": {"sha256": "0" * 64, "bytes": 4}})
        self.assertRefused(tl.BundleError, lambda: tl.load_manifest(path),
                           "kernel.cubin", "missing")
        for name in os.listdir(os.path.join(FIXTURE, "..")):
            with self.subTest(fixture=name):
                tl.load_manifest(os.path.join(FIXTURE, "..", name))


if __name__ == "__main__":
    unittest.main()
