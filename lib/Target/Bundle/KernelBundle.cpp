//===- KernelBundle.cpp - a kernel's part of its bundle manifest ----------===//

#include "tile/Target/Bundle/KernelBundle.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;
namespace bundle = ::tilebundle;

static std::string typeName(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// Whether `op` sits in the branch of an `scf.if` on a constant that never
/// runs: a specialized kernel not yet canonicalized keeps, e.g., the store
/// of a WITH_LSE = false variant under `scf.if %false` (matched by name,
/// without a dependency on the SCF dialect).
static bool isDeadBranch(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (parent->getName().getStringRef() != "scf.if" ||
        parent->getNumOperands() < 1)
      continue;
    Attribute value;
    if (!matchPattern(parent->getOperand(0), m_Constant(&value)))
      continue;
    auto flag = dyn_cast<IntegerAttr>(value);
    if (!flag)
      continue;
    unsigned region = 0;
    for (Region &r : parent->getRegions()) {
      if (r.isAncestor(op->getParentRegion()))
        break;
      ++region;
    }
    if ((flag.getValue().getBoolValue() ? 1u : 0u) != (region == 0 ? 1u : 0u))
      return true;
  }
  return false;
}

LogicalResult mlir::tile::describeKernelForBundle(func::FuncOp kernel,
                                                  bundle::Manifest &m,
                                                  int64_t defaultAlign) {
  m.kernel = m.entry = kernel.getName().str();

  // What the kernel does with each view argument.
  llvm::DenseMap<Value, bundle::Access> access;
  auto mark = [&](Value view, bool write) {
    bundle::Access &a =
        access.try_emplace(view, bundle::Access::None).first->second;
    bool read = a == bundle::Access::Read || a == bundle::Access::ReadWrite;
    bool written = bundle::isWritten(a);
    read |= !write;
    written |= write;
    a = read && written ? bundle::Access::ReadWrite
        : written       ? bundle::Access::Write
                        : bundle::Access::Read;
  };
  kernel.walk([&](LoadOp op) {
    if (!isDeadBranch(op))
      mark(op.getView(), false);
  });
  kernel.walk([&](StoreOp op) {
    if (!isDeadBranch(op))
      mark(op.getView(), true);
  });
  // The data-addressed forms: gathers and scalar reads read, scatters
  // write, atomics read and write (a view only atomics touch, such as the
  // attention backward's dQ accumulator, was "none", and launchers skip
  // such views in their overlap checks).
  kernel.walk([&](Operation *op) {
    if (isDeadBranch(op))
      return;
    if (auto gather = dyn_cast<GatherOp>(op)) {
      mark(gather.getView(), false);
    } else if (auto read = dyn_cast<ReadOp>(op)) {
      mark(read.getView(), false);
    } else if (auto scatter = dyn_cast<ScatterOp>(op)) {
      mark(scatter.getView(), true);
    } else if (auto atomic = dyn_cast<AtomicOp>(op)) {
      mark(atomic.getView(), false);
      mark(atomic.getView(), true);
    }
  });

  for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
    auto name = kernel.getArgAttrOfType<StringAttr>(
        i, TileDialect::getArgNameAttrName());
    bundle::AbiEntry e;
    e.name = name ? name.str() : "arg" + std::to_string(i);
    Type type = kernel.getArgumentTypes()[i];
    Type element = type;
    if (auto view = dyn_cast<ViewType>(type)) {
      e.kind = bundle::AbiEntry::Kind::View;
      e.rank = static_cast<int>(view.getRank());
      element = view.getElementType();
      auto align = kernel.getArgAttrOfType<IntegerAttr>(i, kAlignArgAttrName);
      e.align = static_cast<int>(align ? align.getInt() : defaultAlign);
      e.access = access.lookup(kernel.getArgument(i));
    } else {
      e.kind = bundle::AbiEntry::Kind::Scalar;
    }
    if (!bundle::parseDType(typeName(element), e.dtype))
      return kernel.emitError()
             << "argument " << i << " ('" << e.name << "') has element type "
             << element
             << ", which the bundle ABI does not carry (f16, bf16, f32, i32)";
    m.abi.push_back(e);
  }

  if (auto params = kernel->getAttrOfType<DictionaryAttr>(
          TileDialect::getParamsAttrName()))
    for (NamedAttribute entry : params) {
      Attribute v = entry.getValue();
      bundle::ParamValue value;
      if (auto b = dyn_cast<BoolAttr>(v))
        value = bundle::ParamValue::ofBool(b.getValue());
      else if (auto i = dyn_cast<IntegerAttr>(v))
        value = i.getType().isInteger(1)
                    ? bundle::ParamValue::ofBool(i.getValue().getBoolValue())
                    : bundle::ParamValue::ofInt(i.getInt());
      else if (auto t = dyn_cast<TypeAttr>(v))
        value = bundle::ParamValue::ofString(typeName(t.getValue()));
      else
        continue;
      m.params.emplace_back(entry.getName().str(), value);
    }

  m.grid = {"1", "1", "1"};
  auto hints =
      kernel->getAttrOfType<DictionaryAttr>(TileDialect::getKernelAttrName());
  if (auto grid =
          dyn_cast_or_null<ArrayAttr>(hints ? hints.get("grid") : Attribute()))
    for (auto [i, expr] : llvm::enumerate(grid))
      if (i < 3)
        m.grid[i] = cast<StringAttr>(expr).str();
  if (auto req = dyn_cast_or_null<ArrayAttr>(hints ? hints.get("requires")
                                                   : Attribute()))
    for (Attribute expr : req)
      m.preconditions.push_back(cast<StringAttr>(expr).str());
  return success();
}
