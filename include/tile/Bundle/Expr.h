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

/// The operators of the grammar (C semantics, above).
enum class ExprOp {
  Or,
  And,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  CDiv,
  Min,
  Max
};

/// How `op` is written (`cdiv`, `min`, `max` for the calls).
const char *spellExprOp(ExprOp op);

/// One node of a parsed expression. A chain of operators of one precedence
/// level is one node (so that evaluating, emitting or destroying a tree
/// recurses no deeper than the nesting kMaxExprDepth bounds). Columns are
/// 0-based offsets into the text, for messages.
struct ExprNode {
  enum class Kind { Integer, ViewDim, Param, Not, Call, Chain };
  Kind kind = Kind::Integer;
  /// Where the node starts (a name's first character for ViewDim, Param).
  size_t at = 0;
  /// Integer: its value; ViewDim: the dimension.
  int64_t number = 0;
  /// ViewDim, Param: the name.
  std::string name;
  /// Not: the operand; Call: the two arguments; Chain: the first operand,
  /// then the right operand of each link.
  std::vector<ExprNode> operands;
  /// Call: its operator (CDiv, Min, Max); Chain: each link's operator.
  std::vector<ExprOp> ops;
  /// Where errors of each operator point: a Chain link's operator, a
  /// Call's second argument (a division by zero is about it).
  std::vector<size_t> opAt;
};

/// A parsed expression and its text (for messages).
struct ParsedExpr {
  std::string text;
  ExprNode root;
};

/// Parses `text` (syntax, integer ranges, nesting and length bounds; names
/// are not looked up). Errors say what and where: "unexpected end at column
/// 4 of '1 +'".
std::optional<ParsedExpr> parseExpr(const std::string &text,
                                    std::string &error);
/// Evaluates `expr` in `scope`: names, dimensions, and the arithmetic on
/// what is known (a division by a constant zero, overflow). `value` is the
/// result when everything it depends on is known. `||` and `&&` report no
/// arithmetic error of the side they do not evaluate.
bool evaluateExpr(const ParsedExpr &expr, const ExprScope &scope,
                  std::optional<int64_t> &value, std::string &error);
/// "WHY at column N of 'TEXT'" for the 0-based column `at`.
std::string locateExprError(const std::string &why, size_t at,
                            const std::string &text);

/// Parses and checks `text` in `scope` (parseExpr, then evaluateExpr):
/// "no view argument named 'P' at column 6 of 'cdiv(P.2, 4)'".
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
