"""The child process of the Python-launcher target (fuzzer/launcher.py):
loads a bundle through python/tile_launcher and plans a call with fake
tensors (no GPU, no torch), then says what happened.

    python3 launcher_harness.py BUNDLE_DIR ARGS.json

ARGS.json maps each argument name to {"tensor": {"shape", "dtype",
"address", "strides", "raise_stride"}} or {"scalar": VALUE} where VALUE is
a JSON number, string or null, or {"float": "nan"|"inf"|"1e400"} or
{"int": "<decimal digits>"} for values JSON does not hold.

Exit status 0 and "accepted" when the call was planned; 1 and "refused:
CLASS: message" for the launcher's documented errors (BundleError,
LaunchError, ExprError). Anything else escapes as a traceback, which the
fuzzer counts as a crash."""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

import tile_launcher as tl  # noqa: E402


class FakeTensor:
    """What tile_launcher.abi.view_of and device_of read of a torch tensor."""

    def __init__(self, spec):
        self.shape = list(spec["shape"])
        self.dtype = spec["dtype"]
        self._address = spec["address"]
        self._strides = spec["strides"]
        self._raise = spec.get("raise_stride", False)

    def data_ptr(self):
        return self._address

    def stride(self):
        if self._raise:
            raise RuntimeError("sparse tensors do not have strides")
        return tuple(self._strides)


def scalar(value):
    if isinstance(value, dict) and "float" in value:
        return float(value["float"])
    if isinstance(value, dict) and "int" in value:
        return int(value["int"])
    return value


def main():
    bundle, args_path = sys.argv[1], sys.argv[2]
    with open(args_path) as f:
        spec = json.load(f)
    args = {}
    for name, a in spec.items():
        args[name] = FakeTensor(a["tensor"]) if "tensor" in a else scalar(a["scalar"])
    try:
        kernel = tl.load(bundle)
        kernel.plan(**args)
    except (tl.BundleError, tl.LaunchError, tl.ExprError) as e:
        print("refused: %s: %s" % (type(e).__name__, e))
        return 1
    print("accepted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
