"""`sm_XY[a|f]` targets, which devices run their code, and what a PTX file
declares: the same rules as lib/Bundle/Target.cpp (the reference;
test/Bundle/Inputs/conformance/target.json holds the cases both agree on).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, NamedTuple, Optional

_SPACE = " \t\n\v\f\r"  # isspace() of the C locale, what `>>` skips
_WORD = re.compile(r"[^ \t\n\v\f\r]+")


class SmTarget(NamedTuple):
    major: int
    minor: int
    suffix: str  # "a" (exactly this compute capability), "f" (same major), ""

    def __str__(self) -> str:
        return f"sm_{self.major}{self.minor}{self.suffix}"


def parse(text) -> Optional[SmTarget]:
    """tilebundle::parseSmTarget: `sm_` and 2 or 3 digits (the last is the
    minor version, the others the major, 1 to 99), then an optional a or f."""
    if not isinstance(text, str) or len(text) < 5 or not text.startswith("sm_"):
        return None
    suffix = text[-1] if text[-1] in "af" else ""
    digits = text[3:len(text) - len(suffix)]
    if not 2 <= len(digits) <= 3 or any(c not in "0123456789" for c in digits):
        return None
    major = int(digits[:-1])
    if not 1 <= major <= 99:
        return None
    return SmTarget(major, int(digits[-1]), suffix)


def ptx_runs_on(t: SmTarget, major: int, minor: int) -> bool:
    """Whether PTX for `t` can be JIT-compiled for compute capability
    major.minor (ptxTargetRunsOn)."""
    if t.suffix == "a":
        return (major, minor) == (t.major, t.minor)
    if t.suffix == "f":
        return major == t.major and minor >= t.minor
    return (major, minor) >= (t.major, t.minor)


def cubin_runs_on(t: SmTarget, major: int, minor: int) -> bool:
    """Whether a cubin for `t` runs on major.minor (cubinTargetRunsOn)."""
    if t.suffix == "a":
        return (major, minor) == (t.major, t.minor)
    return major == t.major and minor >= t.minor


@dataclass
class PtxInfo:
    version: str = ""
    target: str = ""
    entries: List[str] = field(default_factory=list)
    # Bytes of each .param of each entry; -1 where not understood.
    param_sizes: List[List[int]] = field(default_factory=list)
    # Where each entry's parameter list ends (-1: it does not), and the
    # comment-free text, for complete().
    ends: List[int] = field(default_factory=list)
    text: str = ""

    def complete(self, index: int) -> bool:
        """Whether entry `index` has its whole body (`{ ... }`): a PTX cut
        off inside it is refused before the driver sees it."""
        return self.ends[index] >= 0 and _body_complete(self.text, self.ends[index])


def strip_comments(ptx: str) -> str:
    out, i, n = [], 0, len(ptx)
    while i < n:
        line = ptx.find("//", i)
        block = ptx.find("/*", i)
        if line < 0 and block < 0:
            out.append(ptx[i:])
            break
        if block < 0 or (0 <= line < block):
            out.append(ptx[i:line])
            end = ptx.find("\n", line)
            out.append("\n")
            i = n if end < 0 else end + 1
        else:
            out.append(ptx[i:block])
            close = ptx.find("*/", block + 2)
            out.append(" ")
            i = n if close < 0 else close + 2
    return "".join(out)


def _param_bytes(declaration: str) -> int:
    """Bytes of one `.param` declaration (ptxParamBytes): `.u64 .ptr .align
    1 name`, `.f32 name`, `.align 64 .b8 name[128]`; -1 if not understood."""
    scalar, byte_array = -1, False
    for word in _WORD.findall(declaration):
        if word == ".b8":
            byte_array = True
            continue
        if len(word) >= 3 and word[0] == "." and word[1] in "usbf":
            bits = word[2:]
            if bits in ("8", "16", "32", "64"):
                scalar = int(bits) // 8
            continue
        open_ = word.find("[")
        if byte_array and open_ >= 0:
            close = word.find("]", open_)
            if close < 0:
                return -1
            digits = word[open_ + 1:close]
            if digits.startswith("+"):  # parseInt takes a sign
                digits = digits[1:]
            if not digits.isdigit() or not digits.isascii() or len(digits) > 8:
                return -1
            n = int(digits)
            return n if 1 <= n <= 1 << 20 else -1
    return 1 if byte_array else scalar


def _body_complete(text: str, start: int) -> bool:
    """Whether a `{ ... }` with balanced braces follows `start`."""
    open_ = text.find("{", start)
    if open_ < 0:
        return False
    depth = 0
    for i in range(open_, len(text)):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return True
    return False


def scan_ptx(ptx: str) -> PtxInfo:
    """tilebundle::scanPtx: .version, .target and each .entry's parameter
    sizes, comments ignored. ValueError without a .target or an .entry, or
    for a PTX cut short (an entry without its closed parameter list and
    body, unbalanced braces)."""
    text = strip_comments(ptx)
    info = PtxInfo(text=text)
    pos, n = 0, len(text)

    def next_word():
        nonlocal pos
        while pos < n and text[pos] in _SPACE:
            pos += 1
        start = pos
        while pos < n and text[pos] not in _SPACE:
            pos += 1
        return text[start:pos]

    while True:
        word = next_word()
        if not word:
            break
        if word == ".version" and not info.version:
            info.version = next_word()
        elif word == ".target" and not info.target:
            info.target = next_word().split(",")[0]
        elif word == ".entry":
            close = text.find(")", pos)
            rest = text[pos:] if close < 0 else text[pos:close]
            pos = n if close < 0 else close + 1
            open_ = rest.find("(")
            name = (rest if open_ < 0 else rest[:open_]).strip(" \t\r\n")
            if not name:
                continue
            # A file cut inside the parameter list or before the body: the
            # parameters read so far would be taken for all of them.
            if close < 0 or (open_ >= 0 and text.find("{", pos) < 0):
                raise ValueError(f"the PTX is truncated: .entry {name} has no "
                                 "closed parameter list and body")
            sizes = []
            if open_ >= 0:
                params = rest[open_ + 1:].split(".param")[1:]
                sizes = [_param_bytes(p) for p in params]
            info.entries.append(name)
            info.param_sizes.append(sizes)
            info.ends.append(pos if close >= 0 else -1)
    if not info.target:
        raise ValueError("the PTX has no .target directive")
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                break
    if depth != 0:
        raise ValueError("the PTX is truncated: its braces do not balance")
    if not info.entries:
        raise ValueError("the PTX declares no .entry")
    return info
