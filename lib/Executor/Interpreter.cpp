//===- Interpreter.cpp - running the executor's program ----------------===//
//
// The interpretation of the program (Program.h) by one worker (`Frame`,
// Interpreter.h): one switch per instruction, then a tight loop over
// contiguous arrays; no per-element dispatch or map lookup. Here:
// conversions, elementwise arithmetic, mma, reductions, and scf control flow;
// the loads, stores and element accesses through the kernel's views are in
// InterpreterMemory.cpp. Numerics as Executor.h states them (Numerics.h).
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/APFloat.h"

#include <algorithm>
#include <cfloat>
#include <limits>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::exec;

void Frame::execReduce(const Instr &instr) {
  const int64_t outer = instr.v0[0], len = instr.v0[1], inner = instr.v0[2];
  const int64_t count = outer * inner;
  const auto kind = static_cast<ReduceKind>(instr.sub);
  const Val &src = in(instr, 0);
  const EK srcKind = instr.srcKind;
  const bool isFloat = isFloatKind(srcKind);
  // argmax/argmin: the first index of the extreme value; a NaN wins (the
  // first one), as torch.
  if (kind == ReduceKind::argmax || kind == ReduceKind::argmin) {
    const bool isMax = kind == ReduceKind::argmax;
    auto buffer = newInts(count);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t c = 0; c < inner; ++c) {
        int64_t best = 0;
        auto at = [&](int64_t r) { return (o * len + r) * inner + c; };
        for (int64_t r = 1; r < len; ++r) {
          if (isFloat) {
            float b = src.f()[at(best)], v = src.f()[at(r)];
            if (std::isnan(b))
              break;
            if (std::isnan(v) || (isMax ? v > b : v < b))
              best = r;
          } else {
            int64_t b = src.i()[at(best)], v = src.i()[at(r)];
            if (isMax ? v > b : v < b)
              best = r;
          }
        }
        buffer->i[o * inner + c] = best;
      }
    setOut(instr, buffer);
    return;
  }
  if (isFloat) {
    float identity = kind == ReduceKind::max   ? -INFINITY
                     : kind == ReduceKind::min ? INFINITY
                                               : 0.0f;
    auto buffer = newFloats(count);
    float *dst = buffer->f.get();
    std::fill(dst, dst + count, identity);
    for (int64_t o = 0; o < outer && len > 0; ++o) {
      const float *s = src.f() + o * len * inner;
      float *d = dst + o * inner;
      std::copy(s, s + inner, d);
      for (int64_t r = 1; r < len; ++r) {
        const float *row = s + r * inner;
        for (int64_t c = 0; c < inner; ++c)
          d[c] = kind == ReduceKind::max   ? maximumF(d[c], row[c])
                 : kind == ReduceKind::min ? minimumF(d[c], row[c])
                                           : d[c] + row[c];
      }
    }
    if (kind == ReduceKind::sum)
      roundFloats(instr.kind, dst, count);
    setOut(instr, buffer);
    return;
  }
  const unsigned width = widthOf(srcKind);
  int64_t identity = kind == ReduceKind::max
                         ? normalizeInt(int64_t(1) << (width - 1), width)
                     : kind == ReduceKind::min
                         ? normalizeInt((int64_t(1) << (width - 1)) - 1, width)
                         : 0;
  auto buffer = newInts(count);
  int64_t *dst = buffer->i.get();
  std::fill(dst, dst + count, identity);
  for (int64_t o = 0; o < outer && len > 0; ++o) {
    const int64_t *s = src.i() + o * len * inner;
    int64_t *d = dst + o * inner;
    std::copy(s, s + inner, d);
    for (int64_t r = 1; r < len; ++r) {
      const int64_t *row = s + r * inner;
      for (int64_t c = 0; c < inner; ++c)
        d[c] = kind == ReduceKind::max ? std::max(d[c], row[c])
               : kind == ReduceKind::min
                   ? std::min(d[c], row[c])
                   : static_cast<int64_t>(static_cast<uint64_t>(d[c]) +
                                          static_cast<uint64_t>(row[c]));
    }
  }
  normalizeInts(instr.kind, dst, count);
  setOut(instr, buffer);
}

/// dst = src gathered with `strides` over `shape` (broadcast, permute).
template <typename T>
static void stridedCopy(ArrayRef<int64_t> shape, ArrayRef<int64_t> strides,
                        const T *src, T *dst) {
  const int rank = shape.size();
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  const int last = rank - 1;
  const int64_t cols = shape[last], stride = strides[last];
  int64_t rows = 1;
  for (int d = 0; d < last; ++d)
    rows *= shape[d];
  SmallVector<int64_t, 8> e(rank, 0);
  int64_t offset = 0;
  for (int64_t r = 0; r < rows; ++r, dst += cols) {
    const T *row = src + offset;
    if (stride == 1)
      std::copy(row, row + cols, dst);
    else if (stride == 0)
      std::fill(dst, dst + cols, row[0]);
    else
      for (int64_t c = 0; c < cols; ++c)
        dst[c] = row[c * stride];
    for (int d = last - 1; d >= 0; --d) {
      offset += strides[d];
      if (++e[d] < shape[d])
        break;
      offset -= strides[d] * shape[d];
      e[d] = 0;
    }
  }
}

void Frame::execConvert(const Instr &instr) {
  const Val &src = in(instr, 0);
  const int64_t n = instr.n;
  const EK from = instr.srcKind, to = instr.kind;
  const unsigned fromWidth = widthOf(from), toWidth = widthOf(to);
  switch (static_cast<Conv>(instr.sub)) {
  case Conv::FloatToFloat: {
    auto buffer = newFloats(n);
    std::copy(src.f(), src.f() + n, buffer->f.get());
    roundFloats(to, buffer->f.get(), n);
    setOut(instr, buffer);
    return;
  }
  case Conv::IntToIntSigned:
  case Conv::IntToIntUnsigned: {
    bool isUnsigned = static_cast<Conv>(instr.sub) == Conv::IntToIntUnsigned;
    auto buffer = newInts(n);
    int64_t *dst = buffer->i.get();
    for (int64_t k = 0; k < n; ++k) {
      int64_t value =
          isUnsigned ? static_cast<int64_t>(unsignedInt(src.i()[k], fromWidth))
                     : src.i()[k];
      dst[k] = normalizeInt(value, toWidth);
    }
    setOut(instr, buffer);
    return;
  }
  case Conv::IntToFloatSigned:
  case Conv::IntToFloatUnsigned: {
    bool isUnsigned = static_cast<Conv>(instr.sub) == Conv::IntToFloatUnsigned;
    auto buffer = newFloats(n);
    float *dst = buffer->f.get();
    for (int64_t k = 0; k < n; ++k) {
      int64_t value = src.i()[k];
      if (isUnsigned)
        dst[k] = intToFloat(to, false, unsignedInt(value, fromWidth));
      else
        dst[k] = intToFloat(to, value < 0,
                            value < 0 ? 0 - static_cast<uint64_t>(value)
                                      : static_cast<uint64_t>(value));
    }
    setOut(instr, buffer);
    return;
  }
  case Conv::FloatToIntSigned:
  case Conv::FloatToIntUnsigned:
  case Conv::FloatToBool: {
    auto buffer = newInts(n);
    int64_t *dst = buffer->i.get();
    Conv conv = static_cast<Conv>(instr.sub);
    for (int64_t k = 0; k < n; ++k) {
      float value = src.f()[k];
      if (conv == Conv::FloatToBool)
        dst[k] = (!std::isnan(value) && std::trunc(value) != 0) ? -1 : 0;
      else
        dst[k] = floatToInt(value, toWidth, conv == Conv::FloatToIntUnsigned);
    }
    setOut(instr, buffer);
    return;
  }
  case Conv::Bitcast: {
    // Same width on both sides (verified by arith.bitcast).
    auto bitsOf = [&](int64_t k) -> uint64_t {
      if (!isFloatKind(from))
        return unsignedInt(src.i()[k], fromWidth);
      float value = src.f()[k];
      if (from == EK::F16)
        return nm::floatToHalf(value);
      if (from == EK::BF16)
        return nm::floatToBFloat16(value);
      if (isFloat8Kind(from))
        return nm::floatToFloat8(float8Format(from), value);
      return nm::bitsOf(value);
    };
    if (isFloatKind(to)) {
      auto buffer = newFloats(n);
      for (int64_t k = 0; k < n; ++k) {
        uint64_t bits = bitsOf(k);
        buffer->f[k] = to == EK::F16    ? nm::halfToFloat(bits)
                       : to == EK::BF16 ? nm::bfloat16ToFloat(bits)
                       : isFloat8Kind(to)
                           ? nm::float8ToFloat(float8Format(to),
                                               static_cast<uint8_t>(bits))
                           : nm::fromBits(bits);
      }
      setOut(instr, buffer);
    } else {
      auto buffer = newInts(n);
      for (int64_t k = 0; k < n; ++k)
        buffer->i[k] = normalizeInt(static_cast<int64_t>(bitsOf(k)), toWidth);
      setOut(instr, buffer);
    }
    return;
  }
  }
}

template <typename F>
static BufferRef mapFloat2(const Val &a, const Val &b, int64_t n, EK kind,
                           F f) {
  auto buffer = newFloats(n);
  const float *x = a.f(), *y = b.f();
  float *z = buffer->f.get();
  for (int64_t k = 0; k < n; ++k)
    z[k] = f(x[k], y[k]);
  roundFloats(kind, z, n);
  return buffer;
}

template <typename F>
static BufferRef mapFloat1(const Val &a, int64_t n, EK kind, F f) {
  auto buffer = newFloats(n);
  const float *x = a.f();
  float *z = buffer->f.get();
  for (int64_t k = 0; k < n; ++k)
    z[k] = f(x[k]);
  roundFloats(kind, z, n);
  return buffer;
}

template <typename F>
static BufferRef mapInt2(const Val &a, const Val &b, int64_t n, EK kind, F f) {
  auto buffer = newInts(n);
  const int64_t *x = a.i(), *y = b.i();
  int64_t *z = buffer->i.get();
  for (int64_t k = 0; k < n; ++k)
    z[k] = f(x[k], y[k]);
  normalizeInts(kind, z, n);
  return buffer;
}

LogicalResult Frame::execBinaryI(const Instr &instr) {
  const Val &a = in(instr, 0), &b = in(instr, 1);
  const int64_t n = instr.n;
  const EK kind = instr.kind;
  const unsigned w = widthOf(kind);
  const int64_t minValue = normalizeInt(int64_t(1) << (w - 1), w);
  auto u = [w](int64_t v) { return unsignedInt(v, w); };
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  // Division: check the divisors (and the one overflowing quotient) first.
  auto checkDivision = [&](bool isSigned) -> LogicalResult {
    for (int64_t k = 0; k < n; ++k) {
      if (b.i()[k] == 0)
        return fail(instr, "integer division by zero");
      if (isSigned && b.i()[k] == -1 && a.i()[k] == minValue)
        return fail(instr, "signed integer division overflows");
    }
    return success();
  };
  auto checkShift = [&]() -> LogicalResult {
    for (int64_t k = 0; k < n; ++k)
      if (u(b.i()[k]) >= w)
        return fail(instr, "shift amount " + std::to_string(u(b.i()[k])) +
                               " is not below the bit width " +
                               std::to_string(w));
    return success();
  };
  BufferRef result;
  switch (static_cast<BinI>(instr.sub)) {
  case BinI::Add:
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) + u(y)); });
    break;
  case BinI::Sub:
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) - u(y)); });
    break;
  case BinI::Mul:
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) * u(y)); });
    break;
  case BinI::MulHiU:
    // The upper w bits of the unsigned 2w-bit product (w = 32 or 64).
    result = mapInt2(a, b, n, kind, [&](int64_t x, int64_t y) {
      unsigned __int128 p = static_cast<unsigned __int128>(u(x)) *
                            static_cast<unsigned __int128>(u(y));
      return wrap(static_cast<uint64_t>(p >> w));
    });
    break;
  case BinI::DivS:
    if (failed(checkDivision(true)))
      return failure();
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) { return x / y; });
    break;
  case BinI::DivU:
    if (failed(checkDivision(false)))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) / u(y)); });
    break;
  case BinI::RemS:
    if (failed(checkDivision(false)))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [](int64_t x, int64_t y) { return y == -1 ? 0 : x % y; });
    break;
  case BinI::RemU:
    if (failed(checkDivision(false)))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) % u(y)); });
    break;
  case BinI::CeilDivS:
    if (failed(checkDivision(true)))
      return failure();
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) {
      int64_t q = x / y;
      if (x % y != 0 && ((x > 0) == (y > 0)))
        ++q;
      return q;
    });
    break;
  case BinI::CeilDivU:
    if (failed(checkDivision(false)))
      return failure();
    result = mapInt2(a, b, n, kind, [&](int64_t x, int64_t y) {
      return wrap(u(x) / u(y) + (u(x) % u(y) != 0));
    });
    break;
  case BinI::FloorDivS:
    if (failed(checkDivision(true)))
      return failure();
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) {
      int64_t q = x / y;
      if (x % y != 0 && ((x < 0) != (y < 0)))
        --q;
      return q;
    });
    break;
  case BinI::MaxS:
    result = mapInt2(a, b, n, kind,
                     [](int64_t x, int64_t y) { return std::max(x, y); });
    break;
  case BinI::MinS:
    result = mapInt2(a, b, n, kind,
                     [](int64_t x, int64_t y) { return std::min(x, y); });
    break;
  case BinI::MaxU:
    result = mapInt2(a, b, n, kind, [&](int64_t x, int64_t y) {
      return u(x) >= u(y) ? x : y;
    });
    break;
  case BinI::MinU:
    result = mapInt2(a, b, n, kind, [&](int64_t x, int64_t y) {
      return u(x) <= u(y) ? x : y;
    });
    break;
  case BinI::And:
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) { return x & y; });
    break;
  case BinI::Or:
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) { return x | y; });
    break;
  case BinI::Xor:
    result = mapInt2(a, b, n, kind, [](int64_t x, int64_t y) { return x ^ y; });
    break;
  case BinI::Shl:
    if (failed(checkShift()))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) << u(y)); });
    break;
  case BinI::ShrS:
    if (failed(checkShift()))
      return failure();
    result =
        mapInt2(a, b, n, kind, [&](int64_t x, int64_t y) { return x >> u(y); });
    break;
  case BinI::ShrU:
    if (failed(checkShift()))
      return failure();
    result = mapInt2(a, b, n, kind,
                     [&](int64_t x, int64_t y) { return wrap(u(x) >> u(y)); });
    break;
  }
  setOut(instr, std::move(result));
  return success();
}

LogicalResult Frame::exec(const Instr &instr) {
  const int64_t n = instr.n;
  const EK kind = instr.kind;
  switch (instr.opc) {
  case Opc::BlockId:
    setOut(instr, makeInt(normalizeInt(blockId[instr.a0], 32)));
    return success();
  case Opc::NumBlocks:
    setOut(instr, makeInt(normalizeInt(numBlocks[instr.a0], 32)));
    return success();
  case Opc::Dim:
    setOut(instr, makeInt(normalizeInt(in(instr, 0).view->sizes[instr.a0],
                                       widthOf(kind))));
    return success();
  case Opc::Const:
    setOut(instr, instr.constant);
    return success();
  case Opc::Splat: {
    const Val &value = in(instr, 0);
    if (isFloatKind(kind)) {
      auto buffer = newFloats(n);
      std::fill(buffer->f.get(), buffer->f.get() + n, value.f()[0]);
      setOut(instr, buffer);
    } else {
      auto buffer = newInts(n);
      std::fill(buffer->i.get(), buffer->i.get() + n, value.i()[0]);
      setOut(instr, buffer);
    }
    return success();
  }
  case Opc::Load:
    execLoad(instr);
    return success();
  case Opc::Store:
    execStore(instr);
    return success();
  case Opc::Mma: {
    const float *a = in(instr, 0).f(), *b = in(instr, 1).f();
    const float *acc = in(instr, 2).f();
    const int64_t m = instr.a0, k = instr.a1, cols = instr.v0[0];
    auto buffer = newFloats(n);
    float *c = buffer->f.get();
    std::copy(acc, acc + n, c);
    // c[i][j] = (((acc + a[i][0] b[0][j]) + a[i][1] b[1][j]) + ...): every
    // product of f16/bf16 values is exact in f32, every sum rounds in f32.
    for (int64_t i = 0; i < m; ++i) {
      float *cRow = c + i * cols;
      const float *aRow = a + i * k;
      for (int64_t kk = 0; kk < k; ++kk) {
        const float scale = aRow[kk];
        const float *bRow = b + kk * cols;
        for (int64_t j = 0; j < cols; ++j)
          cRow[j] += scale * bRow[j];
      }
    }
    setOut(instr, buffer);
    return success();
  }
  case Opc::Exp2: {
    bool ftz = instr.flag;
    setOut(instr, mapFloat1(in(instr, 0), n, kind,
                            [ftz](float x) { return exp2F(x, ftz); }));
    return success();
  }
  case Opc::Div: {
    bool ftz = instr.flag, approximate = instr.a0 != 0;
    setOut(instr, mapFloat2(in(instr, 0), in(instr, 1), n, kind,
                            [ftz, approximate](float x, float y) {
                              return divideF(x, y, approximate, ftz);
                            }));
    return success();
  }
  case Opc::Reduce:
    execReduce(instr);
    return success();
  case Opc::Read:
    execRead(instr);
    return success();
  case Opc::Gather:
    execGather(instr);
    return success();
  case Opc::Scatter:
    execScatter(instr);
    return success();
  case Opc::Atomic:
    execAtomic(instr);
    return success();
  case Opc::StridedCopy: {
    const Val &src = in(instr, 0);
    if (isFloatKind(kind)) {
      auto buffer = newFloats(n);
      stridedCopy(instr.v0, instr.v1, src.f(), buffer->f.get());
      setOut(instr, buffer);
    } else {
      auto buffer = newInts(n);
      stridedCopy(instr.v0, instr.v1, src.i(), buffer->i.get());
      setOut(instr, buffer);
    }
    return success();
  }
  case Opc::Alias:
    setOut(instr, in(instr, 0).buf);
    return success();
  case Opc::Select: {
    const int64_t *cond = in(instr, 0).i();
    const Val &a = in(instr, 1), &b = in(instr, 2);
    if (isFloatKind(kind)) {
      auto buffer = newFloats(n);
      for (int64_t k = 0; k < n; ++k)
        buffer->f[k] = cond[k] ? a.f()[k] : b.f()[k];
      setOut(instr, buffer);
    } else {
      auto buffer = newInts(n);
      for (int64_t k = 0; k < n; ++k)
        buffer->i[k] = cond[k] ? a.i()[k] : b.i()[k];
      setOut(instr, buffer);
    }
    return success();
  }
  case Opc::SelectWhole:
    setOut(instr, in(instr, 0).i()[0] ? in(instr, 1).buf : in(instr, 2).buf);
    return success();
  case Opc::Convert:
    execConvert(instr);
    return success();
  case Opc::BinaryF: {
    const Val &a = in(instr, 0), &b = in(instr, 1);
    BufferRef result;
    switch (static_cast<BinF>(instr.sub)) {
    case BinF::Add:
      result = mapFloat2(a, b, n, kind, [](float x, float y) { return x + y; });
      break;
    case BinF::Sub:
      result = mapFloat2(a, b, n, kind, [](float x, float y) { return x - y; });
      break;
    case BinF::Mul:
      result = mapFloat2(a, b, n, kind, [](float x, float y) { return x * y; });
      break;
    case BinF::Div:
      result = mapFloat2(a, b, n, kind, [](float x, float y) { return x / y; });
      break;
    case BinF::Rem:
      result = mapFloat2(a, b, n, kind,
                         [](float x, float y) { return std::fmod(x, y); });
      break;
    case BinF::Max:
      result = mapFloat2(a, b, n, kind, maximumF);
      break;
    case BinF::Min:
      result = mapFloat2(a, b, n, kind, minimumF);
      break;
    case BinF::MaxNum:
      result = mapFloat2(a, b, n, kind, maxNumF);
      break;
    case BinF::MinNum:
      result = mapFloat2(a, b, n, kind, minNumF);
      break;
    case BinF::CopySign:
      result = mapFloat2(a, b, n, kind,
                         [](float x, float y) { return std::copysign(x, y); });
      break;
    }
    setOut(instr, std::move(result));
    return success();
  }
  case Opc::UnaryF: {
    const Val &a = in(instr, 0);
    BufferRef result;
    switch (static_cast<UnF>(instr.sub)) {
    case UnF::Neg:
      result = mapFloat1(a, n, kind, [](float x) { return -x; });
      break;
    case UnF::Abs:
      result = mapFloat1(a, n, kind, [](float x) { return std::fabs(x); });
      break;
    case UnF::Exp2:
      result = mapFloat1(a, n, kind, [](float x) { return std::exp2(x); });
      break;
    case UnF::Exp:
      result = mapFloat1(a, n, kind, [](float x) { return std::exp(x); });
      break;
    case UnF::Log2:
      result = mapFloat1(a, n, kind, [](float x) { return std::log2(x); });
      break;
    case UnF::Log:
      result = mapFloat1(a, n, kind, [](float x) { return std::log(x); });
      break;
    case UnF::Sqrt:
      result = mapFloat1(a, n, kind, [](float x) { return std::sqrt(x); });
      break;
    case UnF::Rsqrt:
      result =
          mapFloat1(a, n, kind, [](float x) { return 1.0f / std::sqrt(x); });
      break;
    case UnF::Tanh:
      result = mapFloat1(a, n, kind, [](float x) { return std::tanh(x); });
      break;
    case UnF::Floor:
      result = mapFloat1(a, n, kind, [](float x) { return std::floor(x); });
      break;
    case UnF::Ceil:
      result = mapFloat1(a, n, kind, [](float x) { return std::ceil(x); });
      break;
    }
    setOut(instr, std::move(result));
    return success();
  }
  case Opc::FmaF: {
    const float *x = in(instr, 0).f(), *y = in(instr, 1).f(),
                *z = in(instr, 2).f();
    auto buffer = newFloats(n);
    for (int64_t k = 0; k < n; ++k)
      buffer->f[k] = std::fma(x[k], y[k], z[k]);
    roundFloats(kind, buffer->f.get(), n);
    setOut(instr, buffer);
    return success();
  }
  case Opc::CmpF: {
    auto predicate = static_cast<arith::CmpFPredicate>(instr.sub);
    const float *x = in(instr, 0).f(), *y = in(instr, 1).f();
    auto buffer = newInts(n);
    for (int64_t k = 0; k < n; ++k)
      buffer->i[k] = compareFloat(predicate, x[k], y[k]) ? -1 : 0;
    setOut(instr, buffer);
    return success();
  }
  case Opc::CmpI: {
    auto predicate = static_cast<arith::CmpIPredicate>(instr.sub);
    const int64_t *x = in(instr, 0).i(), *y = in(instr, 1).i();
    unsigned width = widthOf(instr.srcKind);
    auto buffer = newInts(n);
    for (int64_t k = 0; k < n; ++k)
      buffer->i[k] = compareInt(predicate, x[k], y[k], width) ? -1 : 0;
    setOut(instr, buffer);
    return success();
  }
  case Opc::BinaryI:
    return execBinaryI(instr);
  case Opc::UnaryI: {
    const int64_t *x = in(instr, 0).i();
    auto buffer = newInts(n);
    for (int64_t k = 0; k < n; ++k)
      buffer->i[k] = x[k] < 0
                         ? static_cast<int64_t>(0 - static_cast<uint64_t>(x[k]))
                         : x[k];
    normalizeInts(kind, buffer->i.get(), n);
    setOut(instr, buffer);
    return success();
  }
  case Opc::For:
    return execFor(instr);
  case Opc::If:
    return execIf(instr);
  case Opc::While:
    return execWhile(instr);
  }
  return fail(instr, "unknown instruction");
}

/// Moves the values of `from` slots into `to` slots (through a copy, so
/// that permuted yields work).
static void transfer(std::vector<Val> &slots, ArrayRef<unsigned> from,
                     ArrayRef<unsigned> to) {
  SmallVector<Val, 8> values;
  for (unsigned slot : from)
    values.push_back(slots[slot]);
  for (auto [slot, value] : llvm::zip(to, values))
    slots[slot] = std::move(value);
}

LogicalResult Frame::execFor(const Instr &instr) {
  const CBlock &body = instr.regions[0];
  const int64_t lower = scalarInt(instr.in[0]), upper = scalarInt(instr.in[1]),
                step = scalarInt(instr.in[2]);
  const unsigned width = widthOf(instr.srcKind);
  if (instr.flag ? unsignedInt(step, width) == 0 : step <= 0)
    return fail(instr,
                "scf.for step must be positive, got " + std::to_string(step));
  ArrayRef<unsigned> inits = ArrayRef<unsigned>(instr.in).drop_front(3);
  ArrayRef<unsigned> iterArgs = ArrayRef<unsigned>(body.args).drop_front(1);
  transfer(slots, inits, iterArgs);
  const bool isUnsigned = instr.flag;
  int64_t iv = lower;
  while (isUnsigned ? unsignedInt(iv, width) < unsignedInt(upper, width)
                    : iv < upper) {
    // An iteration costs a dispatch, so that an empty body counts.
    if ((pendingWork += kDispatchWork) >= kWorkChunk &&
        failed(flushWork(&instr)))
      return failure();
    slots[body.args[0]].buf = makeInt(iv);
    if (failed(runBlock(body)))
      return failure();
    transfer(slots, body.yields, iterArgs);
    int64_t next =
        normalizeInt(static_cast<int64_t>(static_cast<uint64_t>(iv) +
                                          static_cast<uint64_t>(step)),
                     width);
    // Stop when the induction variable would wrap around.
    if (isUnsigned ? unsignedInt(next, width) <= unsignedInt(iv, width)
                   : next <= iv)
      break;
    iv = next;
  }
  transfer(slots, iterArgs, instr.out);
  return success();
}

LogicalResult Frame::execIf(const Instr &instr) {
  const CBlock &branch =
      scalarInt(instr.in[0]) ? instr.regions[0] : instr.regions[1];
  if (failed(runBlock(branch)))
    return failure();
  if (!instr.out.empty())
    transfer(slots, branch.yields, instr.out);
  return success();
}

LogicalResult Frame::execWhile(const Instr &instr) {
  const CBlock &before = instr.regions[0], &after = instr.regions[1];
  transfer(slots, instr.in, before.args);
  while (true) {
    if ((pendingWork += kDispatchWork) >= kWorkChunk &&
        failed(flushWork(&instr)))
      return failure();
    if (failed(runBlock(before)))
      return failure();
    if (!scalarInt(before.condition)) {
      transfer(slots, before.yields, instr.out);
      return success();
    }
    transfer(slots, before.yields, after.args);
    if (failed(runBlock(after)))
      return failure();
    transfer(slots, after.yields, before.args);
  }
}

LogicalResult Frame::flushWork(const Instr *at) {
  const uint64_t done = pendingWork;
  pendingWork = 0;
  // A compare-exchange loop, not `fetch_add(done) + done` (or `+=`): GCC
  // 12.2 -O3 compiles those to a lock xadd and then adds the register, which
  // now holds the old value, to itself; the limit tripped at half the work.
  uint64_t total = done;
  if (sharedWork) {
    uint64_t old = sharedWork->load(std::memory_order_relaxed);
    while (!sharedWork->compare_exchange_weak(old, old + done))
      ;
    total = old + done;
  }
  if (maxWork == 0 || total <= maxWork)
    return success();
  error.op = at ? at->op : nullptr;
  error.message = "the run did more than " + std::to_string(maxWork) +
                  " units of work, its limit (--max-work raises it; 0 "
                  "removes it)";
  return failure();
}

LogicalResult Frame::runBlock(const CBlock &block) {
  for (const Instr &instr : block.body) {
    // Charged before it runs: a single tile.mma may be long.
    pendingWork += instr.work;
    if (pendingWork >= kWorkChunk && failed(flushWork(&instr)))
      return failure();
    if (failed(exec(instr)))
      return failure();
  }
  return success();
}
