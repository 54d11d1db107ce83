"""The conformance corpus (test/Bundle/Inputs/conformance): expressions,
manifests and targets on which python/tile_launcher and the C++ library
(lib/Bundle, read by unittests/Bundle/ConformanceTest.cpp) must agree.
    python3 -m unittest discover -s python/tests
"""

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tile_launcher import abi, expr, manifest, target  # noqa: E402

CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "test", "Bundle",
                      "Inputs", "conformance")


def cases(name):
    with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
        return json.load(f)["cases"]


def expr_error_class(message: str) -> str:
    """The class of an expression error (ConformanceTest.cpp's exprErrorClass)."""
    if "nesting deeper than" in message:
        return "depth"
    if "longer than" in message:
        return "length"
    if message.startswith(("integer ", "dimension ")):
        return "literal"
    if "division by zero" in message or "cdiv by zero" in message:
        return "division"
    if "overflows int64" in message:
        return "overflow"
    if any(s in message for s in ("no view argument named", "no parameter named",
                                  "has rank", "is a scalar argument", "is a view:")):
        return "name"
    return "syntax"


class ConformanceTest(unittest.TestCase):
    def test_expressions(self):
        for c in cases("expr.json"):
            with self.subTest(expr=c["expr"][:60]):
                try:
                    if "views" in c:
                        value = expr.evaluate(c["expr"], c["views"], c["params"])
                    else:
                        value = expr.analyze(c["expr"], c["ranks"], c["params"],
                                             c["scalars"])
                except expr.ExprError as e:
                    self.assertIn("error", c, f"refused: {e}")
                    self.assertEqual(expr_error_class(str(e)), c["error"], str(e))
                    continue
                self.assertNotIn("error", c, f"accepted with value {value}")
                self.assertEqual(value, c["value"])

    def test_manifests(self):
        for c in cases("manifest.json"):
            with self.subTest(case=c["name"]):
                stage, message = "ok", ""
                try:
                    raw = c.get("manifest")
                    if raw is None:
                        stage = "json"
                        raw = manifest.parse_json(c["text"].encode("utf-8"), "manifest.json")
                        stage = "ok"
                    manifest.parse_manifest(raw)
                except manifest.BundleError as e:
                    message = str(e)
                    if stage == "ok":
                        stage = "field"
                if c.get("ok"):
                    self.assertEqual(stage, "ok", message)
                elif c["error"] == "":
                    self.assertNotEqual(stage, "ok")
                elif c["error"] == "json":
                    self.assertEqual(stage, "json", message)
                else:
                    self.assertEqual(stage, "field", message)
                    self.assertTrue(message.startswith(f"manifest.json: {c['error']}: "),
                                    message)

    def test_targets(self):
        for c in cases("target.json"):
            with self.subTest(target=c["target"]):
                t = target.parse(c["target"])
                self.assertEqual(t is not None, c["ok"])
                if t is None:
                    continue
                self.assertEqual((t.major, t.minor, t.suffix),
                                 (c["major"], c["minor"], c["suffix"]))
                for key, runs, want in [("ptx_runs_on", target.ptx_runs_on, True),
                                        ("ptx_not_on", target.ptx_runs_on, False),
                                        ("cubin_runs_on", target.cubin_runs_on, True),
                                        ("cubin_not_on", target.cubin_runs_on, False)]:
                    for cc in c[key]:
                        major, minor = map(int, cc.split("."))
                        self.assertEqual(runs(t, major, minor), want, f"{key} {cc}")

    def test_ptx(self):
        for c in cases("ptx.json"):
            with self.subTest(case=c["name"]):
                try:
                    info = target.scan_ptx(c["ptx"])
                except ValueError as e:
                    self.assertIn("error", c, str(e))
                    self.assertIn(c["error"], str(e))
                    continue
                self.assertNotIn("error", c)
                self.assertEqual((info.version, info.target, info.entries, info.param_sizes),
                                 (c["version"], c["target"], c["entries"], c["param_sizes"]))

    def test_ptx_abi(self):
        corpus = cases("abi.json")
        self.assertGreater(len(corpus), 15)
        for c in corpus:
            with self.subTest(case=c["name"]):
                entries = manifest.parse_abi_json(json.dumps(c["abi"]))
                try:
                    manifest.check_ptx_abi(c["ptx"], c["entry"], entries, c["required"])
                except manifest.BundleError as e:
                    self.assertIn("error", c, str(e))
                    self.assertIn(c["error"], str(e))
                    continue
                self.assertNotIn("error", c)

    def test_views(self):
        classes = [("innermost", "innermost"), ("base address", "address"),
                   ("ABI's int32", "size"), ("negative", "stride"),
                   ("must have rank", "rank"), ("must be", "dtype"),
                   ("stride", "outer")]
        for c in cases("view.json"):
            with self.subTest(case=c["name"]):
                e = manifest.AbiEntry("A", "view", c["abi"]["dtype"], c["abi"]["rank"],
                                      c["abi"]["align"], "read")
                v = c["view"]
                try:
                    abi.check_view(e, abi.ViewBinding(v["address"], v["dtype"],
                                                      v["sizes"], v["strides"]))
                except abi.LaunchError as err:
                    self.assertIn("error", c, str(err))
                    found = next(k for needle, k in classes if needle in str(err))
                    self.assertEqual(found, c["error"], str(err))
                    continue
                self.assertNotIn("error", c)


if __name__ == "__main__":
    unittest.main()
