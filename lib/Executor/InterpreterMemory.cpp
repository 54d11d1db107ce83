//===- InterpreterMemory.cpp - the executor's view accesses -----------===//
//
// The instructions of the interpreter (Interpreter.h) that touch kernel
// arguments: tile loads and stores through strided views, and the
// element-addressed ops (tile.read, gather, scatter, atomics). The rest of
// the interpretation is in Interpreter.cpp.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::exec;

/// The 65536 f16 values, for loads.
static const float *halfTable() {
  static const std::vector<float> table = [] {
    std::vector<float> values(65536);
    for (uint32_t bits = 0; bits < 65536; ++bits)
      values[bits] = nm::halfToFloat(static_cast<uint16_t>(bits));
    return values;
  }();
  return table.data();
}

/// Visits the rows of a tile read from or written to a view: for each
/// row (all tile dimensions but the last), `row(at, offset, lo, hi, valid,
/// stride)` with `at` the index of the row's first tile element, `offset`
/// the view offset of the row's column 0 (meaningful only when `valid`, and
/// possibly outside the view), [lo, hi) the in-bounds columns and `stride`
/// the view stride between columns. Tile dimension i walks view dimension
/// order[i] from indices[i] * shape[i], or from indices[i] with
/// `elementOffsets`.
template <typename RowFn>
static void forEachViewRow(const ViewArg &view, ArrayRef<int64_t> shape,
                           ArrayRef<int64_t> order, ArrayRef<int64_t> indices,
                           bool elementOffsets, RowFn row) {
  const int rank = shape.size();
  SmallVector<int64_t, 8> base(rank), size(rank), stride(rank), e(rank, 0);
  for (int d = 0; d < rank; ++d) {
    base[d] = elementOffsets ? indices[d] : indices[d] * shape[d];
    size[d] = view.sizes[order[d]];
    stride[d] = view.strides[order[d]];
  }
  const int last = rank - 1;
  const int64_t cols = shape[last];
  const int64_t lo = std::clamp<int64_t>(-base[last], 0, cols);
  const int64_t hi = std::clamp<int64_t>(size[last] - base[last], 0, cols);
  int64_t rows = 1;
  for (int d = 0; d < last; ++d)
    rows *= shape[d];
  for (int64_t r = 0; r < rows; ++r) {
    bool valid = true;
    int64_t offset = (base[last]) * stride[last];
    for (int d = 0; d < last; ++d) {
      int64_t c = base[d] + e[d];
      valid &= c >= 0 && c < size[d];
      offset += c * stride[d];
    }
    row(r * cols, offset, lo, hi, valid, stride[last]);
    for (int d = last - 1; d >= 0; --d) {
      if (++e[d] < shape[d])
        break;
      e[d] = 0;
    }
  }
}

void Frame::execLoad(const Instr &instr) {
  const ViewArg &view = *in(instr, 0).view;
  SmallVector<int64_t, 8> indices;
  for (size_t k = 1; k < instr.in.size(); ++k)
    indices.push_back(scalarInt(instr.in[k]));
  const EK kind = instr.kind;
  if (isFloatKind(kind)) {
    float pad = 0;
    switch (static_cast<Padding>(instr.a0)) {
    case Padding::zero:
      pad = 0;
      break;
    case Padding::neg_inf:
      pad = -INFINITY;
      break;
    case Padding::pos_inf:
      pad = INFINITY;
      break;
    case Padding::nan:
      pad = std::numeric_limits<float>::quiet_NaN();
      break;
    }
    auto buffer = newFloats(instr.n);
    float *dst = buffer->f.get();
    auto load = [&](auto convert, const auto *mem) {
      forEachViewRow(view, instr.v0, instr.v1, indices, instr.flag,
                     [&](int64_t at, int64_t offset, int64_t lo, int64_t hi,
                         bool valid, int64_t stride) {
                       int64_t cols = instr.v0.back();
                       float *out = dst + at;
                       if (!valid) {
                         std::fill(out, out + cols, pad);
                         return;
                       }
                       std::fill(out, out + lo, pad);
                       for (int64_t c = lo; c < hi; ++c)
                         out[c] = convert(mem[offset + c * stride]);
                       std::fill(out + hi, out + cols, pad);
                     });
    };
    if (kind == EK::F16) {
      const float *table = halfTable();
      load([table](uint16_t bits) { return table[bits]; },
           static_cast<const uint16_t *>(view.data));
    } else if (kind == EK::BF16) {
      load([](uint16_t bits) { return nm::bfloat16ToFloat(bits); },
           static_cast<const uint16_t *>(view.data));
    } else if (isFloat8Kind(kind)) {
      load([format = float8Format(kind)](
               uint8_t bits) { return nm::float8ToFloat(format, bits); },
           static_cast<const uint8_t *>(view.data));
    } else {
      load([](float value) { return value; },
           static_cast<const float *>(view.data));
    }
    setOut(instr, buffer);
    return;
  }
  auto buffer = newInts(instr.n);
  int64_t *dst = buffer->i.get();
  auto load = [&](auto convert, const auto *mem) {
    forEachViewRow(view, instr.v0, instr.v1, indices, instr.flag,
                   [&](int64_t at, int64_t offset, int64_t lo, int64_t hi,
                       bool valid, int64_t stride) {
                     int64_t cols = instr.v0.back();
                     int64_t *out = dst + at;
                     if (!valid) {
                       std::fill(out, out + cols, 0);
                       return;
                     }
                     std::fill(out, out + lo, 0);
                     for (int64_t c = lo; c < hi; ++c)
                       out[c] = convert(mem[offset + c * stride]);
                     std::fill(out + hi, out + cols, 0);
                   });
  };
  auto identity = [](auto value) { return static_cast<int64_t>(value); };
  switch (kind) {
  case EK::I1:
    load([](uint8_t value) { return value ? int64_t(-1) : int64_t(0); },
         static_cast<const uint8_t *>(view.data));
    break;
  case EK::I8:
    load(identity, static_cast<const int8_t *>(view.data));
    break;
  case EK::I16:
    load(identity, static_cast<const int16_t *>(view.data));
    break;
  case EK::I32:
    load(identity, static_cast<const int32_t *>(view.data));
    break;
  default:
    load(identity, static_cast<const int64_t *>(view.data));
    break;
  }
  setOut(instr, buffer);
}

void Frame::execStore(const Instr &instr) {
  const Val &value = in(instr, 0);
  const ViewArg &view = *in(instr, 1).view;
  SmallVector<int64_t, 8> indices, order;
  for (size_t k = 2; k < instr.in.size(); ++k)
    indices.push_back(scalarInt(instr.in[k]));
  for (int64_t d = 0; d < static_cast<int64_t>(instr.v0.size()); ++d)
    order.push_back(d);
  auto store = [&](const auto *src, auto convert, auto *mem) {
    forEachViewRow(view, instr.v0, order, indices, instr.flag,
                   [&](int64_t at, int64_t offset, int64_t lo, int64_t hi,
                       bool valid, int64_t stride) {
                     if (!valid)
                       return;
                     for (int64_t c = lo; c < hi; ++c)
                       mem[offset + c * stride] = convert(src[at + c]);
                   });
  };
  switch (instr.kind) {
  case EK::F16:
    store(
        value.f(), [](float v) { return nm::floatToHalf(v); },
        static_cast<uint16_t *>(view.data));
    break;
  case EK::BF16:
    store(
        value.f(), [](float v) { return nm::floatToBFloat16(v); },
        static_cast<uint16_t *>(view.data));
    break;
  case EK::F32:
    store(
        value.f(), [](float v) { return v; }, static_cast<float *>(view.data));
    break;
  case EK::F8E4M3FN:
  case EK::F8E5M2:
    store(
        value.f(),
        [format = float8Format(instr.kind)](float v) {
          return nm::floatToFloat8(format, v);
        },
        static_cast<uint8_t *>(view.data));
    break;
  case EK::I1:
    store(
        value.i(), [](int64_t v) { return static_cast<uint8_t>(v & 1); },
        static_cast<uint8_t *>(view.data));
    break;
  case EK::I8:
    store(
        value.i(), [](int64_t v) { return static_cast<int8_t>(v); },
        static_cast<int8_t *>(view.data));
    break;
  case EK::I16:
    store(
        value.i(), [](int64_t v) { return static_cast<int16_t>(v); },
        static_cast<int16_t *>(view.data));
    break;
  case EK::I32:
    store(
        value.i(), [](int64_t v) { return static_cast<int32_t>(v); },
        static_cast<int32_t *>(view.data));
    break;
  case EK::I64:
    store(
        value.i(), [](int64_t v) { return v; },
        static_cast<int64_t *>(view.data));
    break;
  }
}

//===----------------------------------------------------------------------===//
// Element access: read, gather, scatter, atomics
//===----------------------------------------------------------------------===//

/// The flat offset (in elements) of view element `coords`, or -1 outside.
static int64_t viewOffset(const ViewArg &view, ArrayRef<int64_t> coords) {
  int64_t offset = 0;
  for (auto [d, c] : llvm::enumerate(coords)) {
    if (c < 0 || c >= view.sizes[d])
      return -1;
    offset += c * view.strides[d];
  }
  return offset;
}

static float readFloatAt(const ViewArg &view, EK kind, int64_t offset) {
  switch (kind) {
  case EK::F16:
    return halfTable()[static_cast<const uint16_t *>(view.data)[offset]];
  case EK::BF16:
    return nm::bfloat16ToFloat(
        static_cast<const uint16_t *>(view.data)[offset]);
  case EK::F8E4M3FN:
  case EK::F8E5M2:
    return nm::float8ToFloat(float8Format(kind),
                             static_cast<const uint8_t *>(view.data)[offset]);
  default:
    return static_cast<const float *>(view.data)[offset];
  }
}

static void writeFloatAt(const ViewArg &view, EK kind, int64_t offset,
                         float value) {
  switch (kind) {
  case EK::F16:
    static_cast<uint16_t *>(view.data)[offset] = nm::floatToHalf(value);
    return;
  case EK::BF16:
    static_cast<uint16_t *>(view.data)[offset] = nm::floatToBFloat16(value);
    return;
  case EK::F8E4M3FN:
  case EK::F8E5M2:
    static_cast<uint8_t *>(view.data)[offset] =
        nm::floatToFloat8(float8Format(kind), value);
    return;
  default:
    static_cast<float *>(view.data)[offset] = value;
    return;
  }
}

static int64_t readIntAt(const ViewArg &view, EK kind, int64_t offset) {
  switch (kind) {
  case EK::I1:
    return static_cast<const uint8_t *>(view.data)[offset] ? -1 : 0;
  case EK::I8:
    return static_cast<const int8_t *>(view.data)[offset];
  case EK::I16:
    return static_cast<const int16_t *>(view.data)[offset];
  case EK::I32:
    return static_cast<const int32_t *>(view.data)[offset];
  default:
    return static_cast<const int64_t *>(view.data)[offset];
  }
}

static void writeIntAt(const ViewArg &view, EK kind, int64_t offset,
                       int64_t value) {
  switch (kind) {
  case EK::I1:
    static_cast<uint8_t *>(view.data)[offset] = value & 1;
    return;
  case EK::I8:
    static_cast<int8_t *>(view.data)[offset] = static_cast<int8_t>(value);
    return;
  case EK::I16:
    static_cast<int16_t *>(view.data)[offset] = static_cast<int16_t>(value);
    return;
  case EK::I32:
    static_cast<int32_t *>(view.data)[offset] = static_cast<int32_t>(value);
    return;
  default:
    static_cast<int64_t *>(view.data)[offset] = value;
    return;
  }
}

/// The padding value of a load or gather, as a float.
static float paddingValue(int64_t padding) {
  switch (static_cast<Padding>(padding)) {
  case Padding::zero:
    return 0;
  case Padding::neg_inf:
    return -INFINITY;
  case Padding::pos_inf:
    return INFINITY;
  case Padding::nan:
    return std::numeric_limits<float>::quiet_NaN();
  }
  return 0;
}

void Frame::execRead(const Instr &instr) {
  const ViewArg &view = *in(instr, 0).view;
  SmallVector<int64_t, 8> coords;
  for (size_t k = 1; k < instr.in.size(); ++k)
    coords.push_back(scalarInt(instr.in[k]));
  int64_t offset = viewOffset(view, coords);
  if (isFloatKind(instr.kind)) {
    auto buffer = newFloats(1);
    buffer->f[0] = offset < 0 ? 0.0f : readFloatAt(view, instr.kind, offset);
    setOut(instr, buffer);
    return;
  }
  setOut(instr, makeInt(offset < 0 ? 0 : readIntAt(view, instr.kind, offset)));
}

/// The view offset of element `e` of a gather or scatter whose index tiles
/// are operands [first, first + rank), or -1 (outside, or masked off by the
/// operand at `mask` when it is not -1).
int64_t Frame::indexedOffset(const Instr &instr, const ViewArg &view,
                             unsigned first, int mask, int64_t e) const {
  if (mask >= 0 && !in(instr, mask).i()[e])
    return -1;
  SmallVector<int64_t, 8> coords;
  for (unsigned d = 0; d < view.sizes.size(); ++d)
    coords.push_back(in(instr, first + d).i()[e]);
  return viewOffset(view, coords);
}

void Frame::execGather(const Instr &instr) {
  const ViewArg &view = *in(instr, 0).view;
  int mask = instr.flag ? static_cast<int>(1 + instr.a1) : -1;
  if (isFloatKind(instr.kind)) {
    float pad = paddingValue(instr.a0);
    auto buffer = newFloats(instr.n);
    for (int64_t e = 0; e < instr.n; ++e) {
      int64_t offset = indexedOffset(instr, view, 1, mask, e);
      buffer->f[e] = offset < 0 ? pad : readFloatAt(view, instr.kind, offset);
    }
    setOut(instr, buffer);
    return;
  }
  auto buffer = newInts(instr.n);
  for (int64_t e = 0; e < instr.n; ++e) {
    int64_t offset = indexedOffset(instr, view, 1, mask, e);
    buffer->i[e] = offset < 0 ? 0 : readIntAt(view, instr.kind, offset);
  }
  setOut(instr, buffer);
}

void Frame::execScatter(const Instr &instr) {
  const Val &value = in(instr, 0);
  const ViewArg &view = *in(instr, 1).view;
  int mask = instr.flag ? static_cast<int>(2 + instr.a1) : -1;
  for (int64_t e = 0; e < instr.n; ++e) {
    int64_t offset = indexedOffset(instr, view, 2, mask, e);
    if (offset < 0)
      continue;
    if (isFloatKind(instr.kind))
      writeFloatAt(view, instr.kind, offset, value.f()[e]);
    else
      writeIntAt(view, instr.kind, offset, value.i()[e]);
  }
}

/// Element by element in row-major order of the value (blocks run one after
/// another: Executable::Impl::sequential).
void Frame::execAtomic(const Instr &instr) {
  const Val &value = in(instr, 0);
  const ViewArg &view = *in(instr, 1).view;
  const unsigned rank = static_cast<unsigned>(instr.a0);
  const bool hasCompare = instr.a1 & 1, hasMask = instr.a1 & 2;
  unsigned next = 2 + rank;
  const Val *compare = hasCompare ? &in(instr, next++) : nullptr;
  const Val *mask = hasMask ? &in(instr, next++) : nullptr;
  auto kind = static_cast<AtomicKind>(instr.sub);
  const EK ek = instr.kind;
  const bool isFloat = isFloatKind(ek);
  const unsigned width = isFloat ? 32 : widthOf(ek);
  SmallVector<int64_t, 8> base;
  for (unsigned d = 0; d < rank; ++d)
    base.push_back(scalarInt(instr.in[2 + d]));
  // A tile addresses like tile.store; a scalar (no shape) the element at
  // the indices.
  ArrayRef<int64_t> shape = instr.v0;
  if (!shape.empty() && !instr.flag)
    for (unsigned d = 0; d < rank; ++d)
      base[d] *= shape[d];
  std::shared_ptr<Buffer> old = isFloat ? newFloats(instr.n) : newInts(instr.n);
  SmallVector<int64_t, 8> coords(rank);
  for (int64_t e = 0; e < instr.n; ++e) {
    int64_t rest = e;
    for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
      int64_t size = shape.empty() ? 1 : shape[d];
      coords[d] = base[d] + rest % size;
      rest /= size;
    }
    int64_t offset = viewOffset(view, coords);
    if (offset < 0 || (mask && !mask->i()[e])) {
      if (isFloat)
        old->f[e] = 0;
      else
        old->i[e] = 0;
      continue;
    }
    if (isFloat) {
      float was = readFloatAt(view, ek, offset), v = value.f()[e];
      old->f[e] = was;
      float now = was;
      switch (kind) {
      case AtomicKind::add:
        now = was + v;
        break;
      case AtomicKind::max: // the GPU's atomic max: NaN-ignoring
        now = maxNumF(was, v);
        break;
      case AtomicKind::min:
        now = minNumF(was, v);
        break;
      case AtomicKind::xchg:
        now = v;
        break;
      case AtomicKind::cas:
        now = was == compare->f()[e] ? v : was;
        break;
      }
      writeFloatAt(view, ek, offset, now);
      continue;
    }
    int64_t was = readIntAt(view, ek, offset), v = value.i()[e];
    old->i[e] = was;
    int64_t now = was;
    switch (kind) {
    case AtomicKind::add:
      now = normalizeInt(static_cast<int64_t>(static_cast<uint64_t>(was) +
                                              static_cast<uint64_t>(v)),
                         width);
      break;
    case AtomicKind::max:
      now = std::max(was, v);
      break;
    case AtomicKind::min:
      now = std::min(was, v);
      break;
    case AtomicKind::xchg:
      now = v;
      break;
    case AtomicKind::cas:
      now = was == compare->i()[e] ? v : was;
      break;
    }
    writeIntAt(view, ek, offset, now);
  }
  if (!instr.out.empty())
    setOut(instr, old);
}
