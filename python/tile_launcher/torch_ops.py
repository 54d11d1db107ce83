"""A kernel (or an Autotuner) as a PyTorch custom op, so that it runs under
torch.compile without graph breaks and inside CUDA graphs.

    softmax_op = tile_launcher.register_op("tile::softmax", softmax,
                                           outputs={"Y": "X"})
    y = softmax_op(x)                 # or torch.ops.tile.softmax(x)

The op's arguments are the kernel's ABI entries in order, views as Tensors
and scalars as float (f32), int (i32, i64) or bool (i1), minus the
`outputs`, which the op allocates (torch.empty on the inputs' device) and
returns: one Tensor, or a tuple in the order of `outputs`. An output's spec
says its shape: an input's name (the output has that input's shape), a
shape function called with the op's arguments by name (a tuple, or a
(shape, dtype) pair), or a tuple of sizes; its dtype is the ABI's unless
the function gives one. The same specs make the fake (meta) function that
torch.compile traces with (torch.library.register_fake), so no kernel runs
while tracing. Views the kernel writes that are arguments of the op, not
outputs (in-place kernels), are named in `mutates`.

Under CUDA graphs: call the op once with the shapes to capture before
capturing (an Autotuner times its candidates on a key's first call, which
cannot happen during a capture; a Kernel loads its module on its first
call).

Needs torch (>= 2.4, torch.library.custom_op); the rest of tile_launcher
does not.
"""

from __future__ import annotations

import keyword
from typing import Callable, Dict, Iterable, Mapping, Optional, Sequence, Union

from .abi import LaunchError
from .manifest import Manifest

_SCALAR_TYPES = {"f32": "float", "f16": "float", "bf16": "float", "i32": "int",
                 "i64": "int", "i1": "bool"}
_TORCH_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32",
                 "f64": "float64", "i8": "int8", "i16": "int16", "i32": "int32",
                 "i64": "int64", "i1": "bool"}

OutputSpec = Union[str, Sequence[int], Callable[..., object]]


def _manifest_of(kernel) -> Manifest:
    m = getattr(kernel, "manifest", None)
    if not isinstance(m, Manifest):
        raise TypeError("register_op: the kernel must be a tile_launcher Kernel or "
                        f"Autotuner (something with a .manifest), not {type(kernel).__name__}")
    return m


def op_signature(manifest: Manifest, outputs: Sequence[str]) -> list:
    """[(name, 'Tensor' | 'float' | 'int' | 'bool')] of the op's arguments."""
    views = {e.name for e in manifest.abi if e.kind == "view"}
    for o in outputs:
        if o not in views:
            raise LaunchError(f"register_op: output '{o}' is not a view argument of "
                              f"{manifest.kernel} (views: {', '.join(sorted(views))})")
    args = []
    for e in manifest.abi:
        if e.kind == "tensor_map" or e.name in outputs:
            continue
        if not e.name.isidentifier() or keyword.iskeyword(e.name):
            raise LaunchError(f"register_op: argument '{e.name}' of {manifest.kernel} "
                              "is not a Python identifier")
        if e.kind == "view":
            args.append((e.name, "Tensor"))
        else:
            args.append((e.name, _SCALAR_TYPES[e.dtype]))
    return args


def _output_shape(name: str, spec: OutputSpec, values: Mapping[str, object],
                  abi_dtype: str, torch):
    """(shape, dtype) of output `name` for the op's arguments `values`."""
    dtype = getattr(torch, _TORCH_DTYPES[abi_dtype])
    if isinstance(spec, str):
        ref = values.get(spec)
        if not hasattr(ref, "shape"):
            raise LaunchError(f"output '{name}' mirrors '{spec}', which is not a "
                              "tensor argument of the op")
        return tuple(ref.shape), dtype
    if callable(spec):
        got = spec(**values)
        if isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], torch.dtype):
            return tuple(got[0]), got[1]
        return tuple(got), dtype
    return tuple(spec), dtype


def register_op(name: str, kernel, outputs: Union[Sequence[str], Mapping[str, OutputSpec]],
                *, mutates: Iterable[str] = (), defaults: Optional[Mapping[str, object]] = None,
                device_types: Union[str, Sequence[str]] = "cuda"):
    """Registers `kernel` (a Kernel or an Autotuner) as the custom op `name`
    ("namespace::op"); returns the op (torch.library.CustomOpDef, callable).

    outputs: the ABI views the op allocates and returns, as a dict name ->
    spec (see the module's documentation), or a list of names, each then
    shaped like the first tensor argument of the op.
    mutates: views the kernel writes in place (op arguments).
    defaults: default values of scalar arguments ({"eps": 1e-5}).
    """
    import torch

    if "::" not in name:
        raise ValueError(f"register_op: the name must be 'namespace::op', got '{name}'")
    manifest = _manifest_of(kernel)
    if not isinstance(outputs, Mapping):
        outputs = {o: None for o in outputs}
    outputs = dict(outputs)
    signature = op_signature(manifest, list(outputs))
    arg_names = [n for n, _ in signature]
    tensors = [n for n, t in signature if t == "Tensor"]
    for o, spec in outputs.items():
        if spec is None:
            if not tensors:
                raise LaunchError(f"register_op: output '{o}' needs a shape spec "
                                  "(the op has no tensor argument to mirror)")
            outputs[o] = tensors[0]
        elif isinstance(outputs[o], str) and outputs[o] not in tensors:
            raise LaunchError(f"register_op: output '{o}' mirrors '{spec}', which is not "
                              f"a tensor argument of the op ({', '.join(tensors)})")
    mutates = list(mutates)
    for n in mutates:
        if n not in tensors:
            raise LaunchError(f"register_op: mutates names '{n}', which is not a tensor "
                              f"argument of the op ({', '.join(tensors)})")
    defaults = dict(defaults or {})
    for n in defaults:
        if n not in arg_names or n in tensors:
            raise LaunchError(f"register_op: default for '{n}', which is not a scalar "
                              "argument of the op")
    first_default = next((i for i, n in enumerate(arg_names) if n in defaults), len(arg_names))
    for n in arg_names[first_default:]:
        if n not in defaults:
            raise LaunchError(f"register_op: '{n}' comes after an argument with a "
                              f"default ({arg_names[first_default]}) and needs one too")
    abi_dtypes = {e.name: e.dtype for e in manifest.abi if e.kind == "view"}
    out_names = list(outputs)

    def allocate(values: Dict[str, object], empty):
        device = values[tensors[0]].device if tensors else "cuda"
        result = {}
        for o in out_names:
            shape, dtype = _output_shape(o, outputs[o], values, abi_dtypes[o], torch)
            result[o] = empty(shape, dtype, device)
        return result

    def finish(result):
        if not out_names:
            return None
        if len(out_names) == 1:
            return result[out_names[0]]
        return tuple(result[o] for o in out_names)

    def impl(*args):
        values = dict(zip(arg_names, args))
        result = allocate(values, lambda s, d, dev: torch.empty(s, dtype=d, device=dev))
        kernel(**values, **result)
        return finish(result)

    def fake(*args):
        values = dict(zip(arg_names, args))
        # The fake tensors' empty: on their (fake) device, no memory.
        return finish(allocate(values, lambda s, d, dev: torch.empty(s, dtype=d, device=dev)))

    # torch.library.infer_schema reads annotations: the op's Python function
    # is written out with the kernel's argument names.
    params = []
    for n, t in signature:
        annotation = {"Tensor": "torch.Tensor", "float": "float", "int": "int",
                      "bool": "bool"}[t]
        params.append(f"{n}: {annotation}" + (f" = {defaults[n]!r}" if n in defaults else ""))
    returns = ("None" if not out_names else "torch.Tensor" if len(out_names) == 1
               else "typing.Tuple[" + ", ".join(["torch.Tensor"] * len(out_names)) + "]")
    op_name = name.split("::", 1)[1]
    if not op_name.isidentifier():
        raise ValueError(f"register_op: '{op_name}' is not an identifier")
    namespace = {"torch": torch, "typing": __import__("typing"), "_impl": impl,
                 "_fake": fake}
    source = (f"def {op_name}({', '.join(params)}) -> {returns}:\n"
              f"    return _impl({', '.join(arg_names)})\n"
              f"def {op_name}_fake({', '.join(params)}) -> {returns}:\n"
              f"    return _fake({', '.join(arg_names)})\n")
    exec(compile(source, f"<tile_launcher op {name}>", "exec"), namespace)  # noqa: S102
    op = torch.library.custom_op(name, namespace[op_name], mutates_args=tuple(mutates),
                                 device_types=device_types)
    op.register_fake(namespace[f"{op_name}_fake"])
    return op
