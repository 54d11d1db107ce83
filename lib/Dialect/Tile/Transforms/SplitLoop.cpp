//===- SplitLoop.cpp - split loops where a condition is uniform -----------===//
//
// tile-split-loop: index-set splitting of scf.for loops. A branch (scf.if) or
// a mask (tile.select) whose condition compares tiles that are affine in the
// induction variable holds on a range of iterations; the loop is split there
// so that the condition disappears from the middle loop.
//
// The affine analysis describes an integer scalar or tile `v` as
//
//   v[e] = a * j + b + d(e),   d(e) in [lo, hi] for every element e,
//
// with `a` a constant, `b` a sum of loop-invariant scalars with constant
// coefficients and `[lo, hi]` a constant range. A comparison `L >= R` holds
// for every element when min(L - R) >= 0, i.e. `a*j + b + lo >= 0`: a
// constraint on j that gives a lower bound (a > 0) or an upper bound (a < 0)
// of the iterations where the mask is all true.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <optional>

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILESPLITLOOP
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// Marks the loops that keep the condition after a split, so that the pass
/// does not split them again (their middle part would be empty).
static constexpr llvm::StringLiteral kRemainderAttrName =
    TileDialect::getSplitRemainderAttrName();

namespace {

//===----------------------------------------------------------------------===//
// Affine forms
//===----------------------------------------------------------------------===//

/// Loop-invariant scalars with their coefficients.
using Terms = SmallVector<std::pair<Value, int64_t>, 2>;

/// `coeff * j + sum(terms) + [lo, hi]`.
struct AffineForm {
  int64_t coeff = 0;
  Terms terms;
  int64_t lo = 0;
  int64_t hi = 0;

  static AffineForm constant(int64_t c) { return {0, {}, c, c}; }
};

/// `coeff * j + sum(terms) + constant >= 0`.
struct Constraint {
  int64_t coeff = 0;
  Terms terms;
  int64_t constant = 0;
};

/// A set of iterations described by constraints that all hold. `exact` says
/// that the condition holds exactly there (not only there, at least); scf.if
/// conditions must be exact, masks need not.
struct IterationSet {
  SmallVector<Constraint> constraints;
  bool exact = true;

  bool dependsOnInductionVar() const {
    return llvm::any_of(constraints,
                        [](const Constraint &c) { return c.coeff != 0; });
  }
};

std::optional<int64_t> add(int64_t a, int64_t b) {
  return llvm::checkedAdd(a, b);
}
std::optional<int64_t> mul(int64_t a, int64_t b) {
  return llvm::checkedMul(a, b);
}

/// `a + scale * b` for term lists; drops zero coefficients.
std::optional<Terms> addTerms(const Terms &a, const Terms &b, int64_t scale) {
  Terms result(a);
  for (auto [value, coeff] : b) {
    std::optional<int64_t> scaled = mul(coeff, scale);
    if (!scaled)
      return std::nullopt;
    auto *it = llvm::find_if(result, [&, value = value](auto &entry) {
      return entry.first == value;
    });
    if (it == result.end()) {
      result.push_back({value, *scaled});
      continue;
    }
    std::optional<int64_t> sum = add(it->second, *scaled);
    if (!sum)
      return std::nullopt;
    it->second = *sum;
  }
  llvm::erase_if(result, [](auto &entry) { return entry.second == 0; });
  return result;
}

/// `a + b`.
std::optional<AffineForm> addForms(const AffineForm &a, const AffineForm &b) {
  std::optional<int64_t> coeff = add(a.coeff, b.coeff);
  std::optional<int64_t> lo = add(a.lo, b.lo);
  std::optional<int64_t> hi = add(a.hi, b.hi);
  std::optional<Terms> terms = addTerms(a.terms, b.terms, 1);
  if (!coeff || !lo || !hi || !terms)
    return std::nullopt;
  return AffineForm{*coeff, std::move(*terms), *lo, *hi};
}

/// `c * a`.
std::optional<AffineForm> scaleForm(const AffineForm &a, int64_t c) {
  std::optional<int64_t> coeff = mul(a.coeff, c);
  std::optional<int64_t> lo = mul(a.lo, c);
  std::optional<int64_t> hi = mul(a.hi, c);
  std::optional<Terms> terms = addTerms({}, a.terms, c);
  if (!coeff || !lo || !hi || !terms)
    return std::nullopt;
  if (c < 0)
    std::swap(*lo, *hi);
  return AffineForm{*coeff, std::move(*terms), *lo, *hi};
}

/// True for the integer types the analysis reasons about (as mathematical
/// integers): signless integers of 2 to 64 bits and index.
bool isAnalyzableInteger(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isIndex())
    return true;
  auto integer = dyn_cast<IntegerType>(element);
  return integer && integer.getWidth() > 1 && integer.getWidth() <= 64;
}

/// The constant integer `value` folds to, if its operands do (a condition
/// computed from parameters, such as `arith.cmpi sge, %c1024, %c0`, before
/// any canonicalization).
std::optional<APInt> foldConstantInt(Value value, unsigned depth = 0) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 8 || def->getNumResults() != 1 ||
      def->getNumRegions() != 0 || !isa<arith::ArithDialect>(def->getDialect()))
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<APInt> folded = foldConstantInt(operand, depth + 1);
    if (!folded)
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *folded));
  }
  SmallVector<OpFoldResult> results;
  if (failed(def->fold(operands, results)) || results.size() != 1)
    return std::nullopt;
  if (auto forwarded = dyn_cast_if_present<Value>(results[0]))
    return forwarded == value ? std::nullopt
                              : foldConstantInt(forwarded, depth + 1);
  auto attr = dyn_cast_if_present<IntegerAttr>(
      dyn_cast_if_present<Attribute>(results[0]));
  if (!attr)
    return std::nullopt;
  return attr.getValue();
}

/// Looks through scf.if ops whose condition is (or folds to) a constant.
Value forwardStaticIf(Value value) {
  while (auto result = dyn_cast<OpResult>(value)) {
    auto ifOp = dyn_cast<scf::IfOp>(result.getOwner());
    if (!ifOp)
      break;
    std::optional<APInt> folded = foldConstantInt(ifOp.getCondition());
    if (!folded)
      break;
    APInt cond = *folded;
    Region &region =
        cond.isZero() ? ifOp.getElseRegion() : ifOp.getThenRegion();
    if (region.empty())
      break;
    value = cast<scf::YieldOp>(region.front().getTerminator())
                .getOperand(result.getResultNumber());
  }
  return value;
}

/// The affine analysis of the values of one loop.
class LoopAnalysis {
public:
  explicit LoopAnalysis(scf::ForOp loop) : loop(loop) {}

  /// The affine form of an integer scalar or tile, if it has one.
  std::optional<AffineForm> getForm(Value value, unsigned depth = 0);

  /// Iterations where the i1 scalar or tile `cond` is true in every element.
  std::optional<IterationSet> getIterations(Value cond, unsigned depth = 0);

private:
  static constexpr unsigned kMaxDepth = 32;
  scf::ForOp loop;
  DenseMap<Value, std::optional<AffineForm>> forms;

  std::optional<AffineForm> computeForm(Value value, unsigned depth);
  std::optional<IterationSet> compare(arith::CmpIOp cmp, unsigned depth);
};

std::optional<AffineForm> LoopAnalysis::getForm(Value value, unsigned depth) {
  auto it = forms.find(value);
  if (it != forms.end())
    return it->second;
  std::optional<AffineForm> form = computeForm(value, depth);
  forms[value] = form;
  return form;
}

std::optional<AffineForm> LoopAnalysis::computeForm(Value value,
                                                    unsigned depth) {
  if (depth > kMaxDepth || !isAnalyzableInteger(value.getType()))
    return std::nullopt;
  value = forwardStaticIf(value);
  if (value == loop.getInductionVar())
    return AffineForm{1, {}, 0, 0};
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return AffineForm::constant(constant.getSExtValue());

  // A scalar computed outside the loop is a loop-invariant term, as a whole
  // (the split points are then computed from the kernel's own values).
  if (!isa<ShapedType>(value.getType()) && loop.isDefinedOutsideOfLoop(value))
    return AffineForm{0, {{value, 1}}, 0, 0};

  Operation *def = value.getDefiningOp();
  auto recurse = [&](Value v) { return getForm(v, depth + 1); };
  if (def) {
    if (auto full = dyn_cast<FullOp>(def)) {
      if (auto intAttr = dyn_cast<IntegerAttr>(full.getValue()))
        return AffineForm::constant(intAttr.getInt());
      return std::nullopt;
    }
    if (auto iota = dyn_cast<IotaOp>(def)) {
      int64_t size = iota.getType().getDimSize(iota.getDimension());
      if (ShapedType::isDynamic(size))
        return std::nullopt;
      return AffineForm{0, {}, 0, size - 1};
    }
    if (isa<SplatOp, BroadcastOp, ReshapeOp, PermuteOp, arith::ExtSIOp,
            arith::IndexCastOp>(def))
      return recurse(def->getOperand(0));
    if (isa<arith::AddIOp, arith::SubIOp>(def)) {
      std::optional<AffineForm> lhs = recurse(def->getOperand(0));
      std::optional<AffineForm> rhs = recurse(def->getOperand(1));
      if (!lhs || !rhs)
        return std::nullopt;
      if (isa<arith::SubIOp>(def)) {
        rhs = scaleForm(*rhs, -1);
        if (!rhs)
          return std::nullopt;
      }
      return addForms(*lhs, *rhs);
    }
    if (isa<arith::MulIOp>(def)) {
      std::optional<AffineForm> lhs = recurse(def->getOperand(0));
      std::optional<AffineForm> rhs = recurse(def->getOperand(1));
      if (!lhs || !rhs)
        return std::nullopt;
      auto isConstant = [](const AffineForm &f) {
        return f.coeff == 0 && f.terms.empty() && f.lo == f.hi;
      };
      if (isConstant(*rhs))
        return scaleForm(*lhs, rhs->lo);
      if (isConstant(*lhs))
        return scaleForm(*rhs, lhs->lo);
    }
  }
  return std::nullopt;
}

std::optional<IterationSet> LoopAnalysis::compare(arith::CmpIOp cmp,
                                                  unsigned depth) {
  std::optional<AffineForm> lhs = getForm(cmp.getLhs(), depth + 1);
  std::optional<AffineForm> rhs = getForm(cmp.getRhs(), depth + 1);
  if (!lhs || !rhs)
    return std::nullopt;
  std::optional<AffineForm> negRhs = scaleForm(*rhs, -1);
  if (!negRhs)
    return std::nullopt;
  std::optional<AffineForm> diff = addForms(*lhs, *negRhs);
  if (!diff)
    return std::nullopt;
  // Every element satisfies `diff >= k` iff `min(diff) = coeff*j + b + lo`
  // does, and `diff <= k` iff `max(diff) = coeff*j + b + hi` does.
  Constraint c;
  std::optional<int64_t> constant;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::sge: // diff >= 0
    c.coeff = diff->coeff;
    c.terms = diff->terms;
    constant = diff->lo;
    break;
  case arith::CmpIPredicate::sgt: // diff >= 1
    c.coeff = diff->coeff;
    c.terms = diff->terms;
    constant = add(diff->lo, -1);
    break;
  case arith::CmpIPredicate::sle: // -diff >= 0
  case arith::CmpIPredicate::slt: // -diff >= 1
  {
    std::optional<AffineForm> neg = scaleForm(*diff, -1);
    if (!neg)
      return std::nullopt;
    c.coeff = neg->coeff;
    c.terms = neg->terms;
    constant = cmp.getPredicate() == arith::CmpIPredicate::sle
                   ? std::optional<int64_t>(neg->lo)
                   : add(neg->lo, -1);
    break;
  }
  default:
    return std::nullopt;
  }
  if (!constant)
    return std::nullopt;
  c.constant = *constant;
  IterationSet set;
  set.constraints.push_back(std::move(c));
  // With one value for every element, "for all elements" is "for each".
  set.exact = diff->lo == diff->hi;
  return set;
}

std::optional<IterationSet> LoopAnalysis::getIterations(Value cond,
                                                        unsigned depth) {
  if (depth > kMaxDepth || !getElementTypeOrSelf(cond.getType()).isInteger(1))
    return std::nullopt;
  cond = forwardStaticIf(cond);
  if (matchPattern(cond, m_One()))
    return IterationSet{};
  IterationSet never;
  never.constraints.push_back(Constraint{0, {}, -1});
  if (matchPattern(cond, m_Zero()))
    return never;
  Operation *def = cond.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto full = dyn_cast<FullOp>(def)) {
    auto value = dyn_cast<BoolAttr>(full.getValue());
    if (!value)
      return std::nullopt;
    return value.getValue() ? IterationSet{} : never;
  }
  if (isa<SplatOp, BroadcastOp, ReshapeOp, PermuteOp>(def))
    return getIterations(def->getOperand(0), depth + 1);
  if (auto andOp = dyn_cast<arith::AndIOp>(def)) {
    std::optional<IterationSet> lhs = getIterations(andOp.getLhs(), depth + 1);
    std::optional<IterationSet> rhs = getIterations(andOp.getRhs(), depth + 1);
    if (!lhs || !rhs)
      return std::nullopt;
    lhs->constraints.append(rhs->constraints.begin(), rhs->constraints.end());
    lhs->exact = lhs->exact && rhs->exact;
    return lhs;
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(def))
    return compare(cmp, depth);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Split points
//===----------------------------------------------------------------------===//

/// Bounds under which the i64 arithmetic of a split point cannot overflow:
/// terms are at most 32-bit values (|v| <= 2^31), so with at most 8 terms,
/// coefficients up to 2^20 and constants up to 2^40 every intermediate value
/// stays below 2^55.
constexpr int64_t kMaxCoefficient = int64_t(1) << 20;
constexpr int64_t kMaxConstant = int64_t(1) << 40;
constexpr size_t kMaxTerms = 8;

bool fitsSplitArithmetic(const Constraint &c) {
  auto small = [](int64_t v, int64_t bound) {
    return v >= -bound && v <= bound;
  };
  return c.terms.size() <= kMaxTerms && small(c.coeff, kMaxCoefficient) &&
         small(c.constant, kMaxConstant) &&
         llvm::all_of(c.terms, [&](const auto &term) {
           auto type = dyn_cast<IntegerType>(term.first.getType());
           return small(term.second, kMaxCoefficient) && type &&
                  type.getWidth() <= 32;
         });
}

/// Emits the i64 arithmetic of the split points before the loop.
class SplitPointBuilder {
public:
  SplitPointBuilder(RewriterBase &rewriter, Location loc)
      : rewriter(rewriter), loc(loc), i64(rewriter.getI64Type()) {}

  Value toI64(Value value) {
    Type type = value.getType();
    if (type.isIndex())
      return arith::IndexCastOp::create(rewriter, loc, i64, value);
    if (type.getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(rewriter, loc, i64, value);
    return value;
  }

  Value fromI64(Value value, Type type) {
    if (type.isIndex())
      return arith::IndexCastOp::create(rewriter, loc, type, value);
    if (type.getIntOrFloatBitWidth() < 64)
      return arith::TruncIOp::create(rewriter, loc, type, value);
    return value;
  }

  Value constant(int64_t value) {
    return arith::ConstantIntOp::create(rewriter, loc, i64, value);
  }

  /// `sum(scale * terms) + constant`.
  Value sum(const Terms &terms, int64_t scale, int64_t constant) {
    Value result;
    for (auto [value, coeff] : terms) {
      int64_t c = coeff * scale;
      Value term = toI64(value);
      if (c != 1 && c != -1)
        term = arith::MulIOp::create(rewriter, loc, term, this->constant(c));
      if (!result) {
        result = c == -1 ? arith::SubIOp::create(rewriter, loc,
                                                 this->constant(0), term)
                               .getResult()
                         : term;
        continue;
      }
      result =
          c == -1
              ? arith::SubIOp::create(rewriter, loc, result, term).getResult()
              : arith::AddIOp::create(rewriter, loc, result, term).getResult();
    }
    if (!result)
      return this->constant(constant);
    if (constant != 0)
      result = arith::AddIOp::create(rewriter, loc, result,
                                     this->constant(constant));
    return result;
  }

  Value max(Value a, Value b) {
    return arith::MaxSIOp::create(rewriter, loc, a, b);
  }
  Value min(Value a, Value b) {
    return arith::MinSIOp::create(rewriter, loc, a, b);
  }

  /// The first iteration `lb + k * step` at or after `x` (x >= lb).
  Value alignUp(Value x, Value lb, int64_t step) {
    if (step == 1)
      return x;
    Value c = constant(step);
    Value offset = arith::SubIOp::create(rewriter, loc, x, lb);
    Value count = arith::CeilDivSIOp::create(rewriter, loc, offset, c);
    Value scaled = arith::MulIOp::create(rewriter, loc, count, c);
    return arith::AddIOp::create(rewriter, loc, lb, scaled);
  }

private:
  RewriterBase &rewriter;
  Location loc;
  Type i64;
};

/// Replaces an scf.if by the contents of one of its regions.
void inlineBranch(RewriterBase &rewriter, scf::IfOp ifOp, bool takeThen) {
  Region &region = takeThen ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty()) {
    rewriter.eraseOp(ifOp);
    return;
  }
  Block *block = &region.front();
  auto yield = cast<scf::YieldOp>(block->getTerminator());
  SmallVector<Value> results(yield.getOperands());
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(block, ifOp);
  rewriter.replaceOp(ifOp, results);
}

//===----------------------------------------------------------------------===//
// The pattern
//===----------------------------------------------------------------------===//

/// Splits an scf.for where a branch or a mask is uniform on a range of
/// iterations (see the pass description).
struct SplitLoopAtUniformCondition : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp forOp,
                                PatternRewriter &rewriter) const override {
    if (forOp->hasAttr(kRemainderAttrName))
      return rewriter.notifyMatchFailure(forOp, "already split");
    if (forOp.getUnsignedCmp())
      return rewriter.notifyMatchFailure(forOp, "unsigned loop bounds");
    Type ivType = forOp.getInductionVar().getType();
    if (!isAnalyzableInteger(ivType))
      return rewriter.notifyMatchFailure(forOp, "unsupported induction type");
    APInt stepValue;
    if (!matchPattern(forOp.getStep(), m_ConstantInt(&stepValue)) ||
        !stepValue.isStrictlyPositive() || stepValue.getActiveBits() > 31)
      return rewriter.notifyMatchFailure(forOp, "step is not a positive "
                                                "constant");
    int64_t step = stepValue.getSExtValue();

    // The first branch or mask, in program order, that is uniform on a
    // range of iterations that depends on the induction variable.
    LoopAnalysis analysis(forOp);
    // A set the split can use: it depends on j, may hold somewhere, and its
    // split points are exact in i64.
    auto usable = [](const std::optional<IterationSet> &set) {
      return set && set->dependsOnInductionVar() &&
             llvm::all_of(set->constraints, [](const Constraint &c) {
               return fitsSplitArithmetic(c) &&
                      !(c.coeff == 0 && c.terms.empty() && c.constant < 0);
             });
    };
    scf::IfOp branch;
    Value mask;
    IterationSet iterations;
    forOp.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        std::optional<IterationSet> set =
            analysis.getIterations(ifOp.getCondition());
        if (usable(set) && set->exact) {
          branch = ifOp;
          iterations = std::move(*set);
          return WalkResult::interrupt();
        }
      }
      if (auto select = dyn_cast<SelectOp>(op)) {
        auto type = cast<RankedTensorType>(select.getCondition().getType());
        std::optional<IterationSet> set =
            analysis.getIterations(select.getCondition());
        if (usable(set) && type.hasStaticShape()) {
          mask = select.getCondition();
          iterations = std::move(*set);
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (!branch && !mask)
      return rewriter.notifyMatchFailure(
          forOp, "no branch or mask is uniform on a range of iterations "
                 "(with split points exact in i64)");

    // Split points s and e, lb <= s <= e <= ub, on the iteration lattice.
    rewriter.setInsertionPoint(forOp);
    Location loc = forOp.getLoc();
    SplitPointBuilder b(rewriter, loc);
    Value lb = b.toI64(forOp.getLowerBound());
    Value ub = b.toI64(forOp.getUpperBound());
    Value s = lb, e = ub;
    bool hasLower = false, hasUpper = false;
    for (const Constraint &c : iterations.constraints) {
      if (c.coeff > 0) {
        // a*j + B >= 0  <=>  j >= ceil(-B / a).
        Value bound = b.sum(c.terms, -1, -c.constant);
        if (c.coeff != 1)
          bound = arith::CeilDivSIOp::create(rewriter, loc, bound,
                                             b.constant(c.coeff));
        s = b.max(s, bound);
        hasLower = true;
        continue;
      }
      if (c.coeff < 0) {
        // a*j + B >= 0  <=>  j <= floor(B / |a|)  <=>  j < floor((B+|a|)/|a|).
        int64_t a = -c.coeff;
        Value bound = b.sum(c.terms, 1, *add(c.constant, a));
        if (a != 1)
          bound =
              arith::FloorDivSIOp::create(rewriter, loc, bound, b.constant(a));
        e = b.min(e, bound);
        hasUpper = true;
        continue;
      }
      // A loop-invariant condition: all iterations or none.
      if (c.terms.empty())
        continue;
      Value holds =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                b.sum(c.terms, 1, c.constant), b.constant(0));
      e = b.min(e, arith::SelectOp::create(rewriter, loc, holds, ub, lb));
      hasUpper = true;
    }
    // Clamp: lb <= s <= ub, s <= e <= ub; then round both up to the next
    // iteration (or ub).
    if (hasLower) {
      s = b.min(s, ub);
      if (step != 1)
        s = b.min(b.alignUp(s, lb, step), ub);
    }
    if (hasUpper) {
      e = b.max(e, s);
      if (step != 1)
        e = b.min(b.alignUp(e, lb, step), ub);
    }

    // The pieces, each a clone of the loop.
    struct Piece {
      Value lb, ub;
      bool uniform;
    };
    SmallVector<Piece, 3> pieces;
    Value sIv = hasLower ? b.fromI64(s, ivType) : forOp.getLowerBound();
    Value eIv = hasUpper ? b.fromI64(e, ivType) : forOp.getUpperBound();
    if (hasLower)
      pieces.push_back({forOp.getLowerBound(), sIv, false});
    pieces.push_back({sIv, eIv, true});
    if (hasUpper)
      pieces.push_back({eIv, forOp.getUpperBound(), false});

    Value allTrue;
    if (mask) {
      auto type = cast<RankedTensorType>(mask.getType());
      allTrue = FullOp::create(
          rewriter, loc, type, rewriter.getBoolAttr(true),
          buildShapeSpec(rewriter.getContext(), type.getShape()));
    }
    SmallVector<Value> inits(forOp.getInitArgs());
    for (const Piece &piece : pieces) {
      IRMapping mapping;
      auto clone = cast<scf::ForOp>(rewriter.clone(*forOp, mapping));
      rewriter.modifyOpInPlace(clone, [&] {
        clone.setLowerBound(piece.lb);
        clone.setUpperBound(piece.ub);
        clone.getInitArgsMutable().assign(inits);
      });
      if (branch) {
        auto ifClone = cast<scf::IfOp>(mapping.lookup(branch.getOperation()));
        inlineBranch(rewriter, ifClone, piece.uniform);
      } else if (piece.uniform) {
        rewriter.replaceAllUsesWith(mapping.lookup(mask), allTrue);
      } else {
        rewriter.modifyOpInPlace(clone, [&] {
          clone->setAttr(kRemainderAttrName, rewriter.getUnitAttr());
        });
      }
      inits.assign(clone.getResults().begin(), clone.getResults().end());
    }
    rewriter.replaceOp(forOp, inits);
    return success();
  }
};

struct TileSplitLoopPass
    : public tile::impl::TileSplitLoopBase<TileSplitLoopPass> {
  using TileSplitLoopBase::TileSplitLoopBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTileSplitLoopPatterns(patterns);
    // Post-order, once per loop: inner loops are split first, and the loops
    // a split creates are not visited again.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void mlir::tile::populateTileSplitLoopPatterns(RewritePatternSet &patterns) {
  patterns.add<SplitLoopAtUniformCondition>(patterns.getContext());
}
