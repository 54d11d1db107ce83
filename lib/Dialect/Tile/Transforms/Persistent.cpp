//===- Persistent.cpp - one block walks many tiles ------------------------===//
//
// tile-persistent: a kernel of one tile a block becomes a loop over the
// tiles of its grid, run by at most N blocks. The grid rule's expressions
// are evaluated in the kernel (from the views' sizes) so that the body can
// recover each tile's block coordinates.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "tile/Bundle/Expr.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPERSISTENT
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Emits a parsed grid expression (tile/Bundle/Expr.h) as i64 arith ops,
/// as launchers evaluate the same tree (with checked int64 arithmetic: an
/// overflow there is an error, never a launch). Only its arithmetic part
/// has code here: integers, NAME.d, + - * / %, cdiv, min, max
/// (specialization writes a negative parameter as (0 - n - 1)). The value
/// is truncated to i32: the precondition this pass adds keeps the product
/// of the grid, so each size, within it.
class GridExprEmitter {
public:
  GridExprEmitter(OpBuilder &b, func::FuncOp func)
      : b(b), func(func), loc(func.getLoc()) {}

  /// The value of `expr` as an i32, or null with `error` set.
  Value emit(const tilebundle::ParsedExpr &expr) {
    Value v = emitNode(expr.root);
    if (!v)
      return Value();
    return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
  }
  const std::string &getError() const { return error; }

private:
  using Node = tilebundle::ExprNode;
  using Op = tilebundle::ExprOp;
  OpBuilder &b;
  func::FuncOp func;
  Location loc;
  std::string error;

  Value fail(const Twine &why, size_t at) {
    if (error.empty())
      error = (why + " at column " + Twine(at + 1)).str();
    return Value();
  }

  Value emitNode(const Node &node) {
    switch (node.kind) {
    case Node::Kind::Integer:
      return arith::ConstantIntOp::create(b, loc, node.number, 64);
    case Node::Kind::ViewDim:
      return emitViewDim(node);
    case Node::Kind::Param: {
      auto params =
          func->getAttrOfType<DictionaryAttr>(TileDialect::getParamsAttrName());
      if (params && params.get(node.name))
        return fail("'" + node.name +
                        "' is a parameter: specialize the kernel first "
                        "(tile-specialize)",
                    node.at);
      return fail("'" + node.name + "' is not a view size (NAME.d)", node.at);
    }
    case Node::Kind::Not:
      return fail("'!' is not arithmetic", node.at);
    case Node::Kind::Call:
    case Node::Kind::Chain:
      break;
    }
    Value lhs = emitNode(node.operands[0]);
    for (size_t i = 0; lhs && i < node.ops.size(); ++i) {
      Value rhs = emitNode(node.operands[i + 1]);
      if (!rhs)
        return Value();
      lhs = combine(node.ops[i], lhs, rhs,
                    node.kind == Node::Kind::Chain ? node.opAt[i] : node.at);
    }
    return lhs;
  }

  Value combine(Op op, Value lhs, Value rhs, size_t at) {
    switch (op) {
    case Op::Add:
      return arith::AddIOp::create(b, loc, lhs, rhs);
    case Op::Sub:
      return arith::SubIOp::create(b, loc, lhs, rhs);
    case Op::Mul:
      return arith::MulIOp::create(b, loc, lhs, rhs);
    case Op::Div:
      return arith::DivSIOp::create(b, loc, lhs, rhs);
    case Op::Rem:
      return arith::RemSIOp::create(b, loc, lhs, rhs);
    case Op::CDiv:
      return arith::CeilDivSIOp::create(b, loc, lhs, rhs);
    case Op::Min:
      return arith::MinSIOp::create(b, loc, lhs, rhs);
    case Op::Max:
      return arith::MaxSIOp::create(b, loc, lhs, rhs);
    default:
      return fail(
          "'" + Twine(tilebundle::spellExprOp(op)) + "' is not arithmetic", at);
    }
  }

  Value emitViewDim(const Node &node) {
    for (BlockArgument arg : func.getArguments()) {
      auto argName = func.getArgAttrOfType<StringAttr>(
          arg.getArgNumber(), TileDialect::getArgNameAttrName());
      auto view = dyn_cast<ViewType>(arg.getType());
      if (!argName || argName.getValue() != node.name || !view)
        continue;
      if (node.number >= view.getRank())
        return fail("view '" + node.name + "' has no dimension " +
                        Twine(node.number),
                    node.at);
      return arith::ExtSIOp::create(b, loc, b.getI64Type(),
                                    DimOp::create(b, loc, arg, node.number));
    }
    return fail("no view argument named '" + node.name + "'", node.at);
  }
};

struct TilePersistentPass
    : public tile::impl::TilePersistentBase<TilePersistentPass> {
  using TilePersistentBase::TilePersistentBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto kernel =
        func->getAttrOfType<DictionaryAttr>(TileDialect::getKernelAttrName());
    if (maxBlocks == 0 || !kernel)
      return;
    if (maxBlocks < 0) {
      func.emitError() << "tile-persistent: max-blocks must be positive, got "
                       << static_cast<int64_t>(maxBlocks);
      return signalPassFailure();
    }
    if (order != "grid" && order != "paired") {
      func.emitError() << "tile-persistent: order must be grid or paired, got '"
                       << order << "'";
      return signalPassFailure();
    }
    bool paired = order == "paired";
    auto grid = dyn_cast_or_null<ArrayAttr>(kernel.get("grid"));
    if (!grid || grid.size() != 3 ||
        !llvm::all_of(grid, [](Attribute a) { return isa<StringAttr>(a); })) {
      func.emitError() << "tile-persistent: the kernel has no grid rule of "
                          "three expressions";
      return signalPassFailure();
    }
    if (!func.getBody().hasOneBlock()) {
      func.emitError() << "tile-persistent: the kernel body must be one block";
      return signalPassFailure();
    }
    Block &entry = func.getBody().front();
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&entry);
    Location loc = func.getLoc();

    // The grid's sizes, evaluated in the kernel.
    SmallVector<Value, 3> sizes;
    SmallVector<std::string, 3> texts;
    for (Attribute a : grid) {
      std::string text = cast<StringAttr>(a).getValue().str();
      std::string why;
      std::optional<tilebundle::ParsedExpr> expr =
          tilebundle::parseExpr(text, why);
      GridExprEmitter emitter(b, func);
      Value size = expr ? emitter.emit(*expr) : Value();
      if (!size) {
        func.emitError() << "tile-persistent: cannot evaluate the grid rule '"
                         << text << "' in the kernel: "
                         << (expr ? emitter.getError() : why)
                         << " (integers, view sizes, + - * / %, cdiv, min and "
                            "max only)";
        return signalPassFailure();
      }
      sizes.push_back(size);
      texts.push_back(text);
    }
    Value first = BlockIdOp::create(b, loc, b.getI32Type(), GridDim::x);
    Value blocks = NumBlocksOp::create(b, loc, b.getI32Type(), GridDim::x);
    // grid: tiles first, first + blocks, ... (t is the tile index).
    // paired: this block's pairs first, first + blocks, ..., two rounds
    // each (t is the round).
    Value pairsX, one, two, lower = first, upper, step = blocks;
    if (paired) {
      Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
      one = arith::ConstantIntOp::create(b, loc, 1, 32);
      two = arith::ConstantIntOp::create(b, loc, 2, 32);
      pairsX = arith::CeilDivSIOp::create(b, loc, sizes[0], two);
      Value pairPlane = arith::MulIOp::create(b, loc, pairsX, sizes[1]);
      Value pairs = arith::MulIOp::create(b, loc, pairPlane, sizes[2]);
      Value left = arith::SubIOp::create(b, loc, pairs, first);
      Value mine = arith::MaxSIOp::create(
          b, loc, arith::CeilDivSIOp::create(b, loc, left, blocks), zero);
      lower = zero;
      upper = arith::MulIOp::create(b, loc, mine, two);
      step = one;
    } else {
      Value plane = arith::MulIOp::create(b, loc, sizes[0], sizes[1]);
      upper = arith::MulIOp::create(b, loc, plane, sizes[2]);
    }
    auto loop = scf::ForOp::create(b, loc, lower, upper, step);
    Operation *loopOp = loop.getOperation();

    // The body moves into the loop (everything after the loop up to the
    // terminator), ahead of the loop's yield.
    Block *body = loop.getBody();
    body->getOperations().splice(
        body->getTerminator()->getIterator(), entry.getOperations(),
        std::next(loopOp->getIterator()), entry.getTerminator()->getIterator());

    // The tile's coordinates: x fastest, as the hardware numbers blocks.
    b.setInsertionPointToStart(body);
    Value t = loop.getInductionVar();
    Value x, rest;
    if (paired) {
      // Round t: member t % 2 of pair (t / 2) * blocks + first, whose query
      // tiles along x are gx - 1 - i, then i. The middle pair of an odd gx
      // computes its tile twice: the same work as any other pair (gx + 1
      // key tiles of causal attention), the same values stored twice.
      Value member = arith::RemSIOp::create(b, loc, t, two);
      Value pair = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, arith::DivSIOp::create(b, loc, t, two),
                                blocks),
          first);
      Value i = arith::RemSIOp::create(b, loc, pair, pairsX);
      rest = arith::DivSIOp::create(b, loc, pair, pairsX);
      Value last = arith::SubIOp::create(b, loc, sizes[0], one);
      Value mirror = arith::SubIOp::create(b, loc, last, i);
      Value second =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, member, one);
      x = arith::SelectOp::create(b, loc, second, i, mirror);
    } else {
      x = arith::RemSIOp::create(b, loc, t, sizes[0]);
      rest = arith::DivSIOp::create(b, loc, t, sizes[0]);
    }
    Value y = arith::RemSIOp::create(b, loc, rest, sizes[1]);
    Value z = arith::DivSIOp::create(b, loc, rest, sizes[1]);
    Value coords[3] = {x, y, z};
    SmallVector<Operation *> replaced;
    loop.getBody()->walk([&](Operation *op) {
      if (auto id = dyn_cast<BlockIdOp>(op)) {
        id.replaceAllUsesWith(coords[static_cast<int>(id.getDim())]);
        replaced.push_back(op);
      } else if (auto n = dyn_cast<NumBlocksOp>(op)) {
        n.replaceAllUsesWith(sizes[static_cast<int>(n.getDim())]);
        replaced.push_back(op);
      }
    });
    for (Operation *op : replaced)
      op->erase();

    // The launch contract: the new grid, and the tile count within i32.
    std::string product =
        "(" + texts[0] + ") * (" + texts[1] + ") * (" + texts[2] + ")";
    NamedAttrList attrs(kernel);
    attrs.set("grid",
              b.getStrArrayAttr(
                  {"min(" + product + ", " +
                       std::to_string(static_cast<int64_t>(maxBlocks)) + ")",
                   "1", "1"}));
    SmallVector<Attribute> preconditions;
    if (auto old = dyn_cast_or_null<ArrayAttr>(kernel.get("requires")))
      preconditions.assign(old.begin(), old.end());
    preconditions.push_back(b.getStringAttr(product + " <= 2147483647"));
    attrs.set("requires", b.getArrayAttr(preconditions));
    func->setAttr(TileDialect::getKernelAttrName(),
                  attrs.getDictionary(func.getContext()));
  }
};

} // namespace
