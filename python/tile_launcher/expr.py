"""Grid rules and launch preconditions of a bundle (docs/bundle.md).

The same grammar and semantics as the C++ library (lib/Bundle/Expr.cpp,
the reference; test/Bundle/Inputs/conformance/expr.json holds the cases
both must agree on). Loosest binding first:

    expr    := or
    or      := and ('||' and)*
    and     := eq ('&&' eq)*
    eq      := rel (('==' | '!=') rel)*
    rel     := add (('<' | '<=' | '>' | '>=') add)*
    add     := mul (('+' | '-') mul)*
    mul     := unary (('*' | '/' | '%') unary)*
    unary   := '!' unary | primary
    primary := INT | NAME '.' INT | NAME | call | '(' expr ')'
    call    := ('cdiv' | 'min' | 'max') '(' expr ',' expr ')'

Values are int64 with C semantics: operators of one level associate to the
left (``1 < 2 < 3`` is ``(1 < 2) < 3``), comparisons and logic give 1 or 0,
``/`` and ``%`` truncate toward zero (``-7 / 2`` is -3, ``-7 % 2`` is -1),
``cdiv`` rounds up; ``||`` and ``&&`` do not evaluate their right side when
the left decides. ``NAME.d`` is the size of dimension d of view NAME; a bare
NAME is a parameter (there are no ``true``/``false`` literals: booleans are
parameters, 1 and 0). Arithmetic is checked: overflow and division by zero
are errors. At most 64 nested parentheses, calls and ``!``, and 4096 bytes.

Evaluation takes a scope: ``evaluate`` binds sizes (a launch), ``analyze``
only ranks (checking a manifest: sizes unknown, parameters known), where
the result may be unknown (None).
"""

from __future__ import annotations

import functools
from typing import Dict, List, Mapping, Optional, Sequence

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
MAX_DEPTH = 64          # tilebundle::kMaxExprDepth
MAX_LENGTH = 4096       # tilebundle::kMaxExprLength (bytes)

_SPACE = " \t\n\v\f\r"
_DIGITS = "0123456789"
_ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"
_NAME_CHARS = frozenset(_ALPHA + _DIGITS)
_NAME_START = frozenset(_ALPHA)

# The binary levels, loosest first (Expr.cpp's kLevels); longer spellings
# before their prefixes.
_LEVELS = (("||",), ("&&",), ("==", "!="), ("<=", ">=", "<", ">"),
           ("+", "-"), ("*", "/", "%"))
_LEVEL_OF = {op: level for level, ops in enumerate(_LEVELS) for op in ops}
_TWO_CHAR_OPS = frozenset(op for op in _LEVEL_OF if len(op) == 2)


class ExprError(ValueError):
    """An expression that does not parse or cannot be evaluated."""


def quote(text: str, limit: int = 80) -> str:
    if len(text) <= limit:
        return f"'{text}'"
    return f"'{text[:limit]}...' ({len(text)} characters)"


def _locate(why: str, at: int, text: str) -> str:
    return f"{why} at column {at + 1} of {quote(text)}"


def _parse_int(text: str, lo: int, hi: int) -> (Optional[int], str):
    """tile::checked::parseInt on a run of name characters: (value, "") or
    (None, why)."""
    expected = f"expected an integer in [{lo}, {hi}]"
    magnitude = 0
    for c in text:
        if c not in _DIGITS:
            return None, f"{expected}, got '{text}'"
        magnitude = magnitude * 10 + ord(c) - 48
        if magnitude > 2**63:
            return None, f"'{text}' is out of range ({expected})"
    if not text:
        return None, f"{expected}, got '{text}'"
    if magnitude == 2**63 or not lo <= magnitude <= hi:
        return None, f"'{text}' is out of range ({expected})"
    return magnitude, ""


# Nodes are tuples (kind, at, ...):
#   ("int", at, value)          ("dim", at, name, d)     ("param", at, name)
#   ("not", at, operand)        ("call", at, op, a, b, op_at)
#   ("chain", at, operands, ops, op_ats)   a chain of one level's operators


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.depth = 0

    def fail(self, why: str, at: Optional[int] = None):
        raise ExprError(_locate(why, self.pos if at is None else at, self.text))

    def skip_space(self):
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _SPACE:
            pos += 1
        self.pos = pos

    def consume(self, op: str, not_before: str = "") -> bool:
        self.skip_space()
        if not self.text.startswith(op, self.pos):
            return False
        after = self.pos + len(op)
        if not_before and after < len(self.text) and self.text[after] in not_before:
            return False
        self.pos = after
        return True

    def enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"nesting deeper than {MAX_DEPTH}")

    def binary_op(self) -> Optional[str]:
        """The binary operator at the current position, not consumed."""
        self.skip_space()
        two = self.text[self.pos:self.pos + 2]
        if two in _TWO_CHAR_OPS:
            return two
        one = two[:1]
        return one if one in _LEVEL_OF else None

    def run(self):
        if len(self.text.encode("utf-8", "surrogatepass")) > MAX_LENGTH:
            self.fail(f"the expression is longer than {MAX_LENGTH} characters", 0)
        node = self.expression()
        self.skip_space()
        if self.pos != len(self.text):
            self.fail(f"unexpected '{self.text[self.pos]}'")
        return node

    def expression(self):
        """Operator precedence with an explicit stack: chains of one level
        become one node (as Expr.cpp's), and only parentheses, calls and `!`
        recurse."""
        operands = [self.unary()]
        pending: List[tuple] = []  # (level, op, at)

        def reduce():
            level, op, at = pending.pop()
            rhs, lhs = operands.pop(), operands.pop()
            if lhs[0] == "chain" and _LEVEL_OF[lhs[3][0]] == level:
                # Left association: (a + b) + c is the chain a + b + c.
                lhs[2].append(rhs)
                lhs[3].append(op)
                lhs[4].append(at)
            else:
                lhs = ("chain", lhs[1], [lhs, rhs], [op], [at])
            operands.append(lhs)

        while True:
            op = self.binary_op()
            if op is None:
                break
            level = _LEVEL_OF[op]
            while pending and pending[-1][0] >= level:
                reduce()
            pending.append((level, op, self.pos))
            self.pos += len(op)
            operands.append(self.unary())
        while pending:
            reduce()
        return operands[0]

    def unary(self):
        nots = []
        while True:
            self.skip_space()
            at = self.pos
            if not self.consume("!", "="):
                break
            self.enter()
            nots.append(at)
        node = self.primary()
        self.depth -= len(nots)
        for at in reversed(nots):
            node = ("not", at, node)
        return node

    def primary(self):
        self.skip_space()
        text = self.text
        if self.pos >= len(text):
            self.fail("empty expression" if not text else "unexpected end")
        if self.consume("("):
            self.enter()
            node = self.expression()
            self.depth -= 1
            if not self.consume(")"):
                self.fail("expected ')'")
            return node
        start = self.pos
        if text[start] in _DIGITS:
            word = self.word()
            value, why = _parse_int(word, 0, INT64_MAX)
            if value is None:
                self.fail("integer " + why, start)
            return ("int", start, value)
        if text[start] not in _NAME_START:
            self.fail("expected a number, a name or '('")
        name = self.word()
        if name in ("cdiv", "min", "max"):
            if not self.consume("("):
                self.fail(f"expected '(' after {name}")
            self.enter()
            a = self.expression()
            if not self.consume(","):
                self.fail(f"{name} takes two arguments: expected ','")
            self.skip_space()
            op_at = self.pos
            b = self.expression()
            self.depth -= 1
            if not self.consume(")"):
                self.fail(f"expected ')' after the arguments of {name}")
            return ("call", start, name, a, b, op_at)
        if self.consume("."):
            self.skip_space()
            dim_start = self.pos
            word = self.word()
            if not word:
                self.fail(f"expected a dimension number after '{name}.'")
            dim, why = _parse_int(word, 0, 7)
            if dim is None:
                self.fail("dimension " + why, dim_start)
            return ("dim", start, name, dim)
        return ("param", start, name)

    def word(self) -> str:
        text, start = self.text, self.pos
        end = start
        while end < len(text) and text[end] in _NAME_CHARS:
            end += 1
        self.pos = end
        return text[start:end]


def parse(text: str):
    """The tree of `text` (syntax, integer ranges, nesting and length
    bounds; names are not looked up). Raises ExprError."""
    if not isinstance(text, str):
        raise ExprError(f"expected an expression string, got {type(text).__name__}")
    return _parse(text)


@functools.lru_cache(maxsize=1024)
def _parse(text: str):
    try:
        return _Parser(text).run()
    except RecursionError:  # a Python stack already nearly full
        raise ExprError(_locate("nesting too deep for this Python stack", 0,
                                text)) from None


def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _fits(v: int) -> Optional[int]:
    return v if INT64_MIN <= v <= INT64_MAX else None


class _Scope:
    """What names mean (Expr.h's ExprScope)."""

    def view_dim(self, name: str, dim: int) -> Optional[int]:
        raise NotImplementedError

    def param(self, name: str) -> Optional[int]:
        raise NotImplementedError


class _BindingScope(_Scope):
    def __init__(self, shapes: Mapping[str, Sequence[int]],
                 params: Mapping[str, int]):
        self.shapes, self.params = shapes, params

    def view_dim(self, name, dim):
        shape = self.shapes.get(name)
        if shape is None:
            raise _NameError(f"no view argument named '{name}'")
        if dim >= len(shape):
            raise _NameError(f"view '{name}' has rank {len(shape)}, so no "
                             f"dimension {dim}")
        return int(shape[dim])

    def param(self, name):
        if name not in self.params:
            raise _NameError(f"no parameter named '{name}'")
        return self.params[name]


class _SignatureScope(_Scope):
    def __init__(self, ranks: Mapping[str, int], params: Mapping[str, int],
                 scalars: Sequence[str]):
        self.ranks, self.params, self.scalars = ranks, params, scalars

    def view_dim(self, name, dim):
        rank = self.ranks.get(name)
        if rank is None:
            if name in self.scalars:
                raise _NameError(f"'{name}' is a scalar argument, not a view")
            raise _NameError(f"no view argument named '{name}'")
        if dim >= rank:
            raise _NameError(f"view '{name}' has rank {rank}, so no dimension {dim}")
        return None

    def param(self, name):
        if name not in self.params:
            if name in self.ranks:
                raise _NameError(f"'{name}' is a view: name one of its sizes, "
                                 f"{name}.0 to {name}.{self.ranks[name] - 1}")
            raise _NameError(f"no parameter named '{name}'")
        return self.params[name]


class _NameError(Exception):
    pass


class _Evaluator:
    """Expr.cpp's Evaluator: `live` is false on the side of `||` / `&&` that
    the left side decides (its arithmetic errors are not errors); None is a
    value not known."""

    def __init__(self, text: str, scope: _Scope):
        self.text, self.scope = text, scope

    def fail(self, why: str, at: int):
        raise ExprError(_locate(why, at, self.text))

    def apply(self, op: str, a, b, live: bool, at: int):
        if op in ("/", "%", "cdiv") and b == 0:
            if live:
                self.fail("cdiv by zero" if op == "cdiv" else "division by zero", at)
            return None
        if a is None or b is None:
            return None
        if op == "+":
            r = _fits(a + b)
        elif op == "-":
            r = _fits(a - b)
        elif op == "*":
            r = _fits(a * b)
        elif op in ("/", "%", "cdiv"):
            q = _c_div(a, b)
            if q > INT64_MAX:      # INT64_MIN / -1
                r = None
            elif op == "/":
                r = q
            elif op == "%":
                r = a - b * q
            else:
                r = q + 1 if a - b * q != 0 and (a > 0) == (b > 0) else q
        elif op == "min":
            r = min(a, b)
        elif op == "max":
            r = max(a, b)
        else:
            r = int({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
                     "==": a == b, "!=": a != b}[op])
        if r is None:
            if live:
                self.fail(f"the arithmetic overflows int64 ({a} and {b})", at)
            return None
        return r

    def eval(self, node, live: bool):
        kind = node[0]
        if kind == "int":
            return node[2]
        if kind in ("dim", "param"):
            try:
                if kind == "dim":
                    return self.scope.view_dim(node[2], node[3])
                return self.scope.param(node[2])
            except _NameError as e:
                self.fail(str(e), node[1])
        if kind == "not":
            nots = 0
            while node[0] == "not":
                nots, node = nots + 1, node[2]
            value = self.eval(node, live)
            for _ in range(nots):
                if value is not None:
                    value = int(value == 0)
            return value
        if kind == "call":
            a = self.eval(node[3], live)
            b = self.eval(node[4], live)
            return self.apply(node[2], a, b, live, node[5])
        return self.chain(node, live)

    def chain(self, node, live: bool):
        _, _, operands, ops, op_ats = node
        value = self.eval(operands[0], live)
        for op, rhs_node, at in zip(ops, operands[1:], op_ats):
            if op in ("||", "&&"):
                is_or = op == "||"
                decided = value is not None and (value != 0) == is_or
                rhs = self.eval(rhs_node, live and not decided)
                if decided:
                    value = int(is_or)
                elif value is not None and rhs is not None:
                    value = int(rhs != 0)
                else:
                    value = int(is_or) if rhs is not None and (rhs != 0) == is_or else None
                continue
            rhs = self.eval(rhs_node, live)
            value = self.apply(op, value, rhs, live, at)
        return value

    def run(self, node):
        try:
            return self.eval(node, True)
        except RecursionError:
            raise ExprError(_locate("nesting too deep for this Python stack", 0,
                                    self.text)) from None


def analyze(text: str, ranks: Mapping[str, int], params: Mapping[str, int],
            scalars: Sequence[str] = ()) -> Optional[int]:
    """Checks `text` against a signature (view ranks, known parameters,
    scalar names): syntax, names, dimensions and the arithmetic on what is
    known. The value when it depends on no size, else None."""
    return _Evaluator(text, _SignatureScope(ranks, params, scalars)).run(parse(text))


def evaluate(text: str, shapes: Mapping[str, Sequence[int]],
             params: Optional[Mapping[str, int]] = None) -> int:
    """The value of ``text`` with ``NAME.d`` read from ``shapes`` and bare
    names from ``params``."""
    value = _Evaluator(text, _BindingScope(shapes, params or {})).run(parse(text))
    if value is None:  # not reachable with every name bound; kept as C++'s
        raise ExprError(f"{quote(text)} depends on values that are not bound")
    return value


def param_values(params: Mapping[str, object]) -> Dict[str, int]:
    """The manifest params an expression can name: integers, and booleans
    as 1 and 0 (type names are not values)."""
    out = {}
    for name, value in params.items():
        if isinstance(value, bool):
            out[name] = int(value)
        elif isinstance(value, int):
            out[name] = value
    return out
