"""Unit tests of the fuzzer's oracle (scripts/fuzz.py): which values a tool
must accept. A wrong oracle reports false silent accepts or hides real
ones.

    python3 -m unittest discover -s scripts/tests
"""

import json
import os
import random
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fuzzer  # noqa: E402
from fuzzer import corpus, launcher, mlir, run, tables, values  # noqa: E402
from fuzzer import launcher_harness as harness  # noqa: E402


class FloatFitsTest(unittest.TestCase):
    def test_largest_finite_values_fit(self):
        # FLT_MAX printed to 8 digits rounds to FLT_MAX (the fuzz run of
        # seed 20261202 flagged `fill:3.4028235e38` as a silent accept).
        self.assertTrue(values.float_fits("3.4028235e38", "f32"))
        self.assertTrue(values.float_fits("-3.4028235e38", "f32"))
        self.assertTrue(values.float_fits("340282346638528859811704183484516925440", "f32"))
        self.assertTrue(values.float_fits("65504", "f16"))
        self.assertTrue(values.float_fits("3.3895313892515355e38", "bf16"))

    def test_half_an_ulp_above_the_largest_is_the_edge(self):
        # Below the midpoint rounds down to the largest finite value; the
        # midpoint itself ties to even, which is infinity.
        edges = {"f32": 2**128 - 2**103, "bf16": 2**128 - 2**119, "f16": 65520}
        for dtype, edge in edges.items():
            with self.subTest(dtype=dtype):
                self.assertTrue(values.float_fits(str(edge - 1), dtype))
                self.assertTrue(values.float_fits("-" + str(edge - 1), dtype))
                self.assertFalse(values.float_fits(str(edge), dtype))
                self.assertFalse(values.float_fits("-" + str(edge), dtype))
                self.assertFalse(values.float_fits(str(edge + 1), dtype))
        self.assertTrue(values.float_fits("65519.99", "f16"))
        self.assertTrue(values.float_fits("3.40282356e38", "f32"))
        self.assertFalse(values.float_fits("3.4028236e38", "f32"))

    def test_exact_decimal_not_double(self):
        # 2^128 - 2^103 - 1 rounds to the midpoint as a double; its exact
        # value is below it.
        self.assertEqual(float(2**128 - 2**103 - 1), float(2**128 - 2**103))
        self.assertTrue(values.float_fits(str(2**128 - 2**103 - 1), "f32"))

    def test_the_fuzzers_values(self):
        expect = {
            "0": True, "1": True, "-1": True, "0.5": True, "1e-45": True,
            "65504": True, "-0": True, "nan": True, "inf": True, "-inf": True,
            "1e10": True, "1e39": False, "1e400": False, "3.4028235e38": True,
            "": False, "abc": False, "1.5": True, " 4": False, "0x10": False,
            "1_0": False, "infinity": False,
        }
        for text, fits in expect.items():
            with self.subTest(text=text):
                self.assertEqual(values.float_fits(text, "f32"), fits)
        self.assertFalse(values.float_fits("65520", "f16"))
        self.assertFalse(values.float_fits("1e10", "f16"))
        self.assertFalse(values.float_fits("3.4028235e38", "bf16"))


class IntTest(unittest.TestCase):
    def test_int_in(self):
        self.assertTrue(values.int_in("2147483647", *values.INT_RANGES["i32"]))
        self.assertFalse(values.int_in("2147483648", *values.INT_RANGES["i32"]))
        self.assertTrue(values.int_in("-2147483648", *values.INT_RANGES["i32"]))
        self.assertFalse(values.int_in("1.5", *values.INT_RANGES["i32"]))
        self.assertFalse(values.int_in(" 4", *values.INT_RANGES["i32"]))


class ValueForTest(unittest.TestCase):
    def test_work_limits(self):
        # --max-work: every value the fuzzer gives is either refused by the
        # tools or a limit at most the default (no value asks for hours).
        kind = tables.OPTIONS["tile-runner"]["--max-work"]
        for text in values.WORK_LIMITS:
            with self.subTest(text=text):
                valid = values.int_in(text, kind[1], kind[2])
                self.assertTrue(not valid or 1 <= int(text) <= 2**32)
        rng = random.Random(1)
        for _ in range(50):
            text, invalid = values.value_for(rng, kind)
            self.assertIn(text, values.WORK_LIMITS)
            self.assertEqual(invalid, not values.int_in(text, 0, 2**63 - 1))



class HugeTileTest(unittest.TestCase):
    """huge-tile reports a silent accept unless the tool refuses: every type
    it writes must be past the verifiers' bounds (seed 20261210 wrote a
    16x65536 register tile, 2^20 elements, which the dialect accepts)."""

    def test_limits(self):
        self.assertFalse(mlir.over_type_limit("tensor<16x8xf16, #mma>", ["16", "65536"]))
        self.assertTrue(mlir.over_type_limit("tensor<16x8xf16, #mma>", ["32", "65536"]))
        self.assertFalse(mlir.over_type_limit("!tilegpu.smem<1x8xf16, #s>", ["1", "65536"]))
        self.assertTrue(mlir.over_type_limit("!tilegpu.smem<2x8xf32, #s>", ["2", "65536"]))

    def test_mutations_are_invalid(self):
        import random
        text = ("func.func @f(%a: tensor<16x8xf16, #mma1>, "
                "%b: !tilegpu.smem<1x8xf16, #padded>)")
        rng = random.Random(0)
        for _ in range(200):
            out = mlir.mut_huge_tile(text, rng)
            for t in mlir.encoded_types(out):
                if t not in text:
                    dims = re.search(r"<([0-9x]+)", t).group(1)
                    sizes = [d for d in dims.split("x") if d]
                    self.assertTrue(mlir.over_type_limit(t, sizes), t)


class HangTest(unittest.TestCase):
    """A run past the timeout is a hang unless the command turned the
    work limit off."""

    def test_unbounded_by_request(self):
        off = run.Case("tile-exec", ["x.mlir", "--max-work=0"], "", False)
        off2 = run.Case("tile-exec", ["x.mlir", "--max-work", "0"], "", False)
        on = run.Case("tile-exec", ["x.mlir", "--max-work=1000"], "", False)
        default = run.Case("tile-exec", ["x.mlir"], "", False)
        self.assertEqual(run.classify(off, -9, "", True), "fine")
        self.assertEqual(run.classify(off2, -9, "", True), "fine")
        self.assertEqual(run.classify(on, -9, "", True), "hang")
        self.assertEqual(run.classify(default, -9, "", True), "hang")


class LauncherTargetTest(unittest.TestCase):
    """The Python launcher's target: its unmutated call plans on every
    fixture bundle (so that a silent accept is noticed at all), and every
    call mutation it marks invalid is refused with a documented error."""

    def plan(self, bundle, args):
        sys.path.insert(0, os.path.join(fuzzer.ROOT, "python"))
        import tile_launcher as tl
        fakes = {}
        for name, a in args.items():
            if "tensor" in a:
                fakes[name] = harness.FakeTensor(a["tensor"])
            else:
                fakes[name] = harness.scalar(a["scalar"])
        try:
            tl.load(bundle).plan(**fakes)
        except (tl.BundleError, tl.LaunchError, tl.ExprError) as e:
            return str(e)
        return None

    def test_base_calls_plan_and_mutations_are_refused(self):
        bundles = corpus.Corpus().bundles
        self.assertTrue(bundles)
        rng = random.Random(3)
        for bundle in bundles:
            with open(os.path.join(bundle, "manifest.json")) as f:
                manifest = json.load(f)
            self.assertIsNone(self.plan(bundle, launcher.base_args(manifest)), bundle)
            for _ in range(40):
                result = launcher.mutate_args(rng, manifest, launcher.base_args(manifest))
                if result is None:
                    continue
                args, note, invalid = result
                with self.subTest(bundle=os.path.basename(bundle), note=note):
                    self.assertTrue(invalid)
                    self.assertIsNotNone(self.plan(bundle, args), "planned")


if __name__ == "__main__":
    unittest.main()
