"""Grid rules and launch preconditions of a bundle (docs/bundle.md).

The grammar is the one tile-compile writes and tile-runner evaluates:
integers, ``+ - * / %`` (``/`` and ``%`` on non-negative operands, ``/``
rounding toward zero), parentheses, ``cdiv(a, b)``, ``min(a, b)``,
``max(a, b)``, ``NAME.d`` (the size of dimension ``d`` of the view argument
``NAME``), and for ``requires`` the comparisons ``== != < <= > >=``, ``&&``,
``||``, ``!`` and the literals ``true``/``false``. Every value must stay in
the int64 range; nesting is bounded so hostile input cannot exhaust the
stack.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, Sequence

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
MAX_DEPTH = 64

_TOKEN = re.compile(
    r"\s*(?:(?P<int>\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>==|!=|<=|>=|&&|\|\||[-+*/%()<>!,.]))"
)


class ExprError(ValueError):
    """An expression that does not parse or cannot be evaluated."""


def _tokenize(text: str):
    tokens, pos = [], 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ExprError(f"unexpected '{text[pos:].lstrip()[:1]}' at column "
                            f"{pos + 1} of '{text}'")
        kind = m.lastgroup
        tokens.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
    tokens.append(("end", "", len(text)))
    return tokens


class _Parser:
    def __init__(self, text: str, sizes: Callable[[str, int], int]):
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0
        self.depth = 0
        self.sizes = sizes

    # -- helpers ---------------------------------------------------------
    def fail(self, why: str):
        col = self.tokens[self.i][2] + 1
        raise ExprError(f"{why} at column {col} of '{self.text}'")

    def peek(self):
        return self.tokens[self.i]

    def accept(self, value: str) -> bool:
        kind, text, _ = self.tokens[self.i]
        if kind in ("op", "name") and text == value:
            self.i += 1
            return True
        return False

    def expect(self, value: str):
        if not self.accept(value):
            self.fail(f"expected '{value}'")

    def checked(self, v: int) -> int:
        if v < INT64_MIN or v > INT64_MAX:
            self.fail("integer overflow")
        return v

    def enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"expression nested deeper than {MAX_DEPTH}")

    # -- grammar ---------------------------------------------------------
    def parse(self) -> int:
        value = self.logical_or()
        if self.peek()[0] != "end":
            self.fail(f"unexpected '{self.peek()[1]}'")
        return value

    def logical_or(self) -> int:
        v = self.logical_and()
        while self.accept("||"):
            rhs = self.logical_and()
            v = int(bool(v) or bool(rhs))
        return v

    def logical_and(self) -> int:
        v = self.logical_not()
        while self.accept("&&"):
            rhs = self.logical_not()
            v = int(bool(v) and bool(rhs))
        return v

    def logical_not(self) -> int:
        if self.accept("!"):
            self.enter()
            v = int(not self.logical_not())
            self.depth -= 1
            return v
        return self.comparison()

    def comparison(self) -> int:
        v = self.sum()
        for op, fn in (("==", lambda a, b: a == b), ("!=", lambda a, b: a != b),
                       ("<=", lambda a, b: a <= b), (">=", lambda a, b: a >= b),
                       ("<", lambda a, b: a < b), (">", lambda a, b: a > b)):
            if self.accept(op):
                return int(fn(v, self.sum()))
        return v

    def sum(self) -> int:
        v = self.term()
        while True:
            if self.accept("+"):
                v = self.checked(v + self.term())
            elif self.accept("-"):
                v = self.checked(v - self.term())
            else:
                return v

    def term(self) -> int:
        v = self.factor()
        while True:
            if self.accept("*"):
                v = self.checked(v * self.factor())
            elif self.accept("/") or self.accept("%"):
                op = self.tokens[self.i - 1][1]
                rhs = self.factor()
                if rhs == 0:
                    self.fail("division by zero")
                if v < 0 or rhs < 0:
                    self.fail(f"'{op}' of a negative value")
                v = v // rhs if op == "/" else v % rhs
            else:
                return v

    def factor(self) -> int:
        kind, text, _ = self.peek()
        if kind == "int":
            self.i += 1
            return self.checked(int(text))
        if self.accept("("):
            self.enter()
            v = self.logical_or()
            self.expect(")")
            self.depth -= 1
            return v
        if kind == "name":
            self.i += 1
            if text in ("true", "false"):
                return int(text == "true")
            if text in ("cdiv", "min", "max"):
                self.enter()
                self.expect("(")
                a = self.logical_or()
                self.expect(",")
                b = self.logical_or()
                self.expect(")")
                self.depth -= 1
                if text == "min":
                    return min(a, b)
                if text == "max":
                    return max(a, b)
                if b <= 0 or a < 0:
                    self.fail("cdiv needs a >= 0 and b > 0")
                return -(-a // b)
            self.expect(".")
            kind2, dim, _ = self.peek()
            if kind2 != "int":
                self.fail(f"expected a dimension after '{text}.'")
            self.i += 1
            return self.checked(self.sizes(text, int(dim)))
        self.fail("expected a value" if kind != "end" else
                  "unexpected end of expression")


def evaluate(text: str, shapes: Dict[str, Sequence[int]]) -> int:
    """The value of ``text`` with ``NAME.d`` read from ``shapes``."""

    def sizes(name: str, dim: int) -> int:
        if name not in shapes:
            raise ExprError(f"'{text}' names '{name}', which is not a view "
                            f"argument (views: {', '.join(sorted(shapes)) or 'none'})")
        shape = shapes[name]
        if dim >= len(shape):
            raise ExprError(f"'{text}' reads dimension {dim} of '{name}', "
                            f"which has rank {len(shape)}")
        return int(shape[dim])

    return _Parser(text, sizes).parse()
