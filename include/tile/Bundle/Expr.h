//===- Expr.h - grid rules and launch preconditions -------------*- C++ -*-===//
//
// The integer expressions of a kernel's launch contract: the grid rule
// (`tile.kernel` grid, manifest `grid`) and the preconditions (`requires`,
// contract C3). Grammar, loosest binding first:
//
//   expr    := or
//   or      := and ('||' and)*
//   and     := eq ('&&' eq)*
//   eq      := rel (('==' | '!=') rel)*
//   rel     := add (('<' | '<=' | '>' | '>=') add)*
//   add     := mul (('+' | '-') mul)*
//   mul     := unary (('*' | '/' | '%') unary)*
//   unary   := '!' unary | primary
//   primary := INT | NAME '.' INT | NAME | call | '(' expr ')'
//   call    := ('cdiv' | 'min' | 'max') '(' expr ',' expr ')'
//
// Values are int64 with C semantics: comparisons and logic give 1 or 0,
// non-zero is true, `/` and `%` truncate toward zero, cdiv rounds up; `||`
// and `&&` do not evaluate their right side when the left decides. `NAME.d`
// is the size of dimension d of view argument NAME; a bare NAME is a
// parameter (substituted by specialization, booleans as 1/0). Arithmetic is
// checked: overflow and division by zero are errors, never wrapped values.
// Parsing is bounded: at most kMaxExprDepth nested parentheses, calls and
// `!`, and kMaxExprLength characters.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_BUNDLE_EXPR_H
#define TILE_BUNDLE_EXPR_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilebundle {

constexpr int kMaxExprDepth = 64;
constexpr size_t kMaxExprLength = 4096;

/// What the names of an expression mean. A value left empty is unknown (the
/// expression is being checked, not evaluated).
class ExprScope {
public:
  virtual ~ExprScope() = default;
  /// NAME.d; false with `error` when NAME is no view or d is not below its
  /// rank.
  virtual bool viewDim(const std::string &name, int64_t dim,
                       std::optional<int64_t> &value,
                       std::string &error) const = 0;
  /// A bare NAME; false with `error` when it is no parameter.
  virtual bool param(const std::string &name, std::optional<int64_t> &value,
                     std::string &error) const = 0;
};

/// A kernel signature: view arguments with their ranks and the parameters
/// (values known or not). Used to check expressions before any launch.
class SignatureScope : public ExprScope {
public:
  std::map<std::string, int> viewRanks;
  std::map<std::string, std::optional<int64_t>> params;
  /// Names of arguments that are not views (for better messages).
  std::vector<std::string> scalars;
  bool viewDim(const std::string &name, int64_t dim,
               std::optional<int64_t> &value,
               std::string &error) const override;
  bool param(const std::string &name, std::optional<int64_t> &value,
             std::string &error) const override;
};

/// Bound sizes and parameter values: evaluates expressions for one launch.
class BindingScope : public ExprScope {
public:
  std::map<std::string, std::vector<int64_t>> viewSizes;
  std::map<std::string, int64_t> params;
  bool viewDim(const std::string &name, int64_t dim,
               std::optional<int64_t> &value,
               std::string &error) const override;
  bool param(const std::string &name, std::optional<int64_t> &value,
             std::string &error) const override;
};

/// Parses and checks `text` in `scope`: syntax, names, dimensions, and the
/// arithmetic on what is known (a division by a constant zero, overflow).
/// `value` is the result when everything it depends on is known. Errors say
/// what and where: "no view argument named 'P' at column 6 of 'cdiv(P.2,
/// 4)'".
bool analyzeExpr(const std::string &text, const ExprScope &scope,
                 std::optional<int64_t> &value, std::string &error);
/// analyzeExpr that requires a known value.
bool evalExpr(const std::string &text, const ExprScope &scope, int64_t &value,
              std::string &error);

/// Replaces each parameter name in `text` that `values` binds by its value
/// (negative values in parentheses), keeping everything else as written.
/// `NAME.d` and the call names are never replaced.
std::string substituteParams(const std::string &text,
                             const std::map<std::string, int64_t> &values);

/// `text` for a message: quoted, cut to `max` characters with "...".
std::string quoteExpr(const std::string &text, size_t max = 80);

} // namespace tilebundle

#endif // TILE_BUNDLE_EXPR_H
