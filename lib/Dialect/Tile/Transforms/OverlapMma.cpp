//===- OverlapMma.cpp - rotate a loop so that its two mmas overlap --------===//
//
// tile-overlap-mma: software-pipelines an scf.for whose body has two
// tile.mma ops, the second fed by the first (attention: S = Q K^T, softmax,
// O += P V), by one stage. The second mma of iteration i - 1 moves into
// iteration i, right after the first mma:
//
//   prologue (if lb < ub): stage 0 of iteration lb (S, softmax, P, rescale)
//   for i in lb + 1 .. ub:
//     S_i = mma(Q, K_i)                  stage 0 of i, up to its mma
//     O   = mma(P_{i-1}, V_{i-1}, Os)    stage 1 of i - 1
//     ... softmax of S_i; Os = O * alpha_i; P_i ...
//   epilogue (if lb < ub): O = mma(P_last, V_last, Os)
//
// Stage 1 is the second mma and the ops that only feed it: by default those
// computed from the induction variable and loop invariants (the load of V
// and its index arithmetic), so that P (f16) and the rescaled O cross from
// stage 0 as loop-carried values. With `late-softmax-ops`, stage 1 also
// takes the ops only it reads that depend on stage 0 (the f32 -> f16
// conversion of P, the rescale of O by the softmax correction), whose
// inputs then cross instead (the f32 P, the correction), and O is the
// loop's accumulator: FlashAttention-3's order, where nothing touches the
// registers of the asynchronous P V between its issue and its wait. It
// carries 32 more registers per thread (f32 P) for 128x64 tiles.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEOVERLAPMMA
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// What rotating `loop` needs, or a reason why it cannot be rotated.
struct Plan {
  MmaOp first, second;
  unsigned accIndex = 0;             // yield position of the second mma
  llvm::SetVector<Operation *> late; // stage 1, in program order
  SmallVector<Value> carried;        // stage-0 values stage 1 reads
  // Stage-0 scalar ops stage 1 recomputes for its own iteration instead of
  // carrying their values (an offset computed from the induction variable:
  // carried, it would hide from the pipeliner that the copy's offset
  // depends on the induction variable only). Program order.
  SmallVector<Operation *> recomputed;
  bool accInLate = false; // stage 1 reads the accumulator (else stage 0)
  std::string whyNot;
};

/// True when `op` of the loop body is a pure scalar op computed from the
/// induction variable and values defined outside the loop only (through
/// other such ops); adds it and the body ops it needs to `ops`.
bool recomputable(Operation *op, scf::ForOp loop,
                  llvm::SetVector<Operation *> &ops) {
  if (ops.contains(op))
    return true;
  if (op->getBlock() != loop.getBody() || !isPure(op) ||
      op->getNumRegions() != 0 || op->getNumResults() != 1 ||
      !op->getResult(0).getType().isIntOrIndexOrFloat())
    return false;
  for (Value v : op->getOperands()) {
    if (v == loop.getInductionVar())
      continue;
    if (isa<BlockArgument>(v)) {
      if (loop->isAncestor(cast<BlockArgument>(v).getOwner()->getParentOp()))
        return false;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (loop->isProperAncestor(def) && !recomputable(def, loop, ops))
      return false;
  }
  ops.insert(op);
  return true;
}

Plan analyze(scf::ForOp loop, bool lateSoftmaxOps) {
  Plan plan;
  llvm::SetVector<Operation *> recomputed;
  auto fail = [&](StringRef why) {
    plan.whyNot = why.str();
    return plan;
  };
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step != 1)
    return fail("the step is not 1");
  Block *body = loop.getBody();
  SmallVector<MmaOp> mmas;
  body->walk([&](MmaOp mma) { mmas.push_back(mma); });
  if (mmas.size() != 2 || mmas[0]->getBlock() != body ||
      mmas[1]->getBlock() != body)
    return fail("the body does not have exactly two tile.mma ops");
  plan.first = mmas[0];
  plan.second = mmas[1];

  // The second mma's result is the loop-carried accumulator only.
  Value result = plan.second.getResult();
  if (!result.hasOneUse() ||
      !isa<scf::YieldOp>(result.getUses().begin()->getOwner()))
    return fail("the second mma's result is not only yielded");
  plan.accIndex = result.getUses().begin()->getOperandNumber();
  BlockArgument accArg = loop.getRegionIterArgs()[plan.accIndex];

  // Stage 1: the second mma, then, to a fixpoint, every pure op or load of
  // the body whose results only stage 1 reads (by default only those
  // computed from the induction variable, invariants and stage 1).
  DenseSet<Operation *> late = {plan.second};
  // Ops computed from the induction variable and invariants only.
  DenseSet<Operation *> fromOutside;
  for (Operation &op : body->without_terminator())
    if (llvm::all_of(op.getOperands(), [&](Value v) {
          if (v == loop.getInductionVar())
            return true;
          if (auto arg = dyn_cast<BlockArgument>(v))
            return arg.getOwner() != body;
          return v.getDefiningOp()->getBlock() != body ||
                 fromOutside.contains(v.getDefiningOp());
        }))
      fromOutside.insert(&op);
  // Loop state other than the accumulator stays in stage 0.
  auto readsState = [&](Operation &op) {
    return llvm::any_of(op.getOperands(), [&](Value v) {
      auto arg = dyn_cast<BlockArgument>(v);
      return arg && arg.getOwner() == body && arg != loop.getInductionVar() &&
             arg != accArg;
    });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation &op : llvm::reverse(body->without_terminator())) {
      if (late.contains(&op) || op.getNumResults() == 0 || readsState(op) ||
          op.getNumRegions() != 0 || (!isPure(&op) && !isa<LoadOp>(op)) ||
          (!lateSoftmaxOps && !fromOutside.contains(&op)))
        continue;
      if (llvm::all_of(op.getUsers(),
                       [&](Operation *user) { return late.contains(user); })) {
        late.insert(&op);
        changed = true;
      }
    }
  }
  for (Operation &op : *body)
    if (late.contains(&op))
      plan.late.insert(&op);

  // What stage 1 reads from the loop: the induction variable, the
  // accumulator, and stage-0 values (carried).
  for (Operation *op : plan.late)
    for (Value operand : op->getOperands()) {
      if (auto arg = dyn_cast<BlockArgument>(operand)) {
        if (arg.getOwner() == body && arg != loop.getInductionVar() &&
            arg != accArg)
          return fail("stage 1 reads loop state other than the accumulator");
        continue;
      }
      Operation *def = operand.getDefiningOp();
      if (def->getBlock() == body && !plan.late.contains(def) &&
          !llvm::is_contained(plan.carried, operand) &&
          !recomputable(def, loop, recomputed))
        plan.carried.push_back(operand);
    }
  plan.recomputed.assign(recomputed.begin(), recomputed.end());
  llvm::sort(plan.recomputed,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  // The accumulator is read by one stage only; by stage 0 only after the
  // first mma (it is then the second mma's result, issued right after).
  for (Operation *user : accArg.getUsers()) {
    Operation *inBody = body->findAncestorOpInBlock(*user);
    if (!inBody)
      return fail("the accumulator is read in a nested region");
    plan.accInLate |= plan.late.contains(inBody);
  }
  for (Operation *user : accArg.getUsers()) {
    Operation *inBody = body->findAncestorOpInBlock(*user);
    if (plan.late.contains(inBody) != plan.accInLate)
      return fail("both stages read the accumulator");
    if (!plan.accInLate && !plan.first->isBeforeInBlock(inBody))
      return fail("the accumulator is read before the first mma");
  }
  // The second mma depends on the first (else there is nothing to overlap).
  bool dependsOnFirst = false;
  SmallVector<Value> pending(plan.carried);
  DenseSet<Operation *> seen;
  while (!pending.empty() && !dependsOnFirst) {
    Operation *def = pending.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !seen.insert(def).second)
      continue;
    dependsOnFirst = def == plan.first.getOperation();
    llvm::append_range(pending, def->getOperands());
  }
  if (!dependsOnFirst)
    return fail("the second mma does not depend on the first");
  return plan;
}

/// Clones stage 1 at the builder's point for iteration `iv`, with the
/// accumulator `acc` and the carried values; returns the new accumulator.
Value cloneLate(OpBuilder &b, Plan &plan, scf::ForOp loop, Value iv, Value acc,
                ValueRange carried) {
  IRMapping map;
  map.map(loop.getInductionVar(), iv);
  if (acc)
    map.map(loop.getRegionIterArgs()[plan.accIndex], acc);
  map.map(plan.carried, carried);
  for (Operation *op : plan.recomputed)
    b.clone(*op, map);
  for (Operation *op : plan.late)
    b.clone(*op, map);
  return map.lookup(plan.second.getResult());
}

void rotate(scf::ForOp loop, Plan &plan) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  Value one =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(lb.getType(), 1));
  Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
  unsigned n = loop.getNumRegionIterArgs(), accIndex = plan.accIndex;
  BlockArgument accArg = loop.getRegionIterArgs()[accIndex];
  // The state: the loop's, without the accumulator unless stage 1 reads it
  // (stage 0 then reads the second mma's result of the same iteration),
  // then the carried values.
  SmallVector<unsigned> kept;
  for (unsigned i = 0; i < n; ++i)
    if (i != accIndex || plan.accInLate)
      kept.push_back(i);
  auto slot = [&](unsigned i) {
    return static_cast<unsigned>(llvm::find(kept, i) - kept.begin());
  };
  SmallVector<Type> stateTypes;
  for (unsigned i : kept)
    stateTypes.push_back(loop.getRegionIterArgs()[i].getType());
  for (Value v : plan.carried)
    stateTypes.push_back(v.getType());
  unsigned m = kept.size();

  // Stage 0 of `iv` from the state `args`; `afterFirst` clones stage 1 of
  // the previous iteration and returns the accumulator it produced.
  auto cloneEarly = [&](OpBuilder &b, IRMapping &map, Value iv, ValueRange args,
                        function_ref<Value()> afterFirst) {
    map.map(loop.getInductionVar(), iv);
    for (unsigned i : kept)
      if (i != accIndex)
        map.map(loop.getRegionIterArgs()[i], args[slot(i)]);
    Value acc = plan.accInLate ? args[slot(accIndex)] : Value();
    for (Operation &op : body->without_terminator()) {
      if (plan.late.contains(&op))
        continue;
      b.clone(op, map);
      if (&op == plan.first.getOperation()) {
        acc = afterFirst();
        map.map(accArg, acc);
      }
    }
    SmallVector<Value> next;
    for (unsigned i : kept)
      next.push_back(i == accIndex ? acc
                                   : map.lookupOrDefault(yield.getOperand(i)));
    for (Value v : plan.carried)
      next.push_back(map.lookupOrDefault(v));
    return next;
  };

  // Prologue: stage 0 of lb, from the initial state.
  ValueRange inits = loop.getInitArgs();
  // The carried stage-0 value that is the second mma's accumulator (fmha's
  // rescaled O; its type is the accumulator's), if any.
  const Value *lateAccIt = llvm::find(plan.carried, plan.second.getAcc());
  Value lateAcc =
      plan.accInLate || lateAccIt == plan.carried.end() ? Value() : *lateAccIt;
  auto prologue = scf::IfOp::create(b, loc, stateTypes, any,
                                    /*withElseRegion=*/true);
  {
    OpBuilder tb = OpBuilder::atBlockBegin(prologue.thenBlock());
    IRMapping map;
    SmallVector<Value> initState;
    for (unsigned i : kept)
      initState.push_back(inits[i]);
    SmallVector<Value> next =
        cloneEarly(tb, map, lb, initState, [&] { return inits[accIndex]; });
    scf::YieldOp::create(tb, loc, next);
    // No iteration: the state stays; the carried values are never read,
    // except the one that feeds the second mma's accumulator: it takes the
    // accumulator's initial value, which the epilogue's no-iteration branch
    // then yields (the same value either way, so that the mma's result and
    // that branch's can share registers, with no copies at the join).
    OpBuilder eb = OpBuilder::atBlockBegin(prologue.elseBlock());
    SmallVector<Value> same(initState);
    for (Value v : plan.carried) {
      if (v == lateAcc) {
        same.push_back(inits[accIndex]);
        continue;
      }
      // A carried scalar (an offset stage 1 shares with stage 0, such as a
      // varlen kernel's key row) is a zero constant; a tile a zero tile.
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type) {
        same.push_back(arith::ConstantOp::create(
            eb, loc, cast<TypedAttr>(eb.getZeroAttr(v.getType()))));
        continue;
      }
      same.push_back(
          FullOp::create(eb, loc, type, eb.getZeroAttr(type.getElementType()),
                         buildShapeSpec(eb.getContext(), type.getShape())));
    }
    scf::YieldOp::create(eb, loc, same);
  }

  // The rotated loop over lb + 1 .. ub.
  Value start = arith::AddIOp::create(b, loc, lb, one);
  auto rotated = scf::ForOp::create(b, loc, start, ub, loop.getStep(),
                                    prologue.getResults());
  rotated->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  {
    Block *newBody = rotated.getBody();
    // The builder may have added an empty yield; the body is built anew.
    if (!newBody->empty())
      newBody->getTerminator()->erase();
    OpBuilder lb2 = OpBuilder::atBlockEnd(newBody);
    ValueRange args = rotated.getRegionIterArgs();
    Value iv = rotated.getInductionVar();
    IRMapping map;
    SmallVector<Value> next = cloneEarly(lb2, map, iv, args, [&] {
      Value prev = arith::SubIOp::create(lb2, loc, iv, one);
      Value acc = plan.accInLate ? args[slot(accIndex)] : Value();
      return cloneLate(lb2, plan, loop, prev, acc, args.drop_front(m));
    });
    scf::YieldOp::create(lb2, loc, next);
  }

  // Epilogue: stage 1 of the last iteration; the loop's accumulator if
  // there was none.
  b.setInsertionPointAfter(rotated);
  ValueRange state = rotated.getResults();
  Value accBefore = plan.accInLate ? state[slot(accIndex)] : inits[accIndex];
  if (lateAcc)
    accBefore = state[m + (lateAccIt - plan.carried.begin())];
  auto epilogue = scf::IfOp::create(b, loc, TypeRange{accArg.getType()}, any,
                                    /*withElseRegion=*/true);
  {
    OpBuilder tb = OpBuilder::atBlockBegin(epilogue.thenBlock());
    Value last = arith::SubIOp::create(tb, loc, ub, one);
    Value acc = plan.accInLate ? state[slot(accIndex)] : Value();
    Value o = cloneLate(tb, plan, loop, last, acc, state.drop_front(m));
    scf::YieldOp::create(tb, loc, o);
    OpBuilder eb = OpBuilder::atBlockBegin(epilogue.elseBlock());
    scf::YieldOp::create(eb, loc, accBefore);
  }

  for (unsigned i = 0; i < n; ++i)
    loop.getResult(i).replaceAllUsesWith(i == accIndex ? epilogue.getResult(0)
                                                       : state[slot(i)]);
  loop.erase();
}

struct TileOverlapMmaPass
    : public tile::impl::TileOverlapMmaBase<TileOverlapMmaPass> {
  using TileOverlapMmaBase::TileOverlapMmaBase;
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      Plan plan = analyze(loop, lateSoftmaxOps);
      if (!plan.whyNot.empty()) {
        if (loop.getBody()->getOps<MmaOp>().empty())
          continue;
        loop.emitRemark() << "tile-overlap-mma: loop left alone: "
                          << plan.whyNot;
        continue;
      }
      rotate(loop, plan);
    }
  }
};

} // namespace
