//===- ExprTest.cpp - grid rules and requires -----------------------------===//

#include "tile/Bundle/Expr.h"

#include <gtest/gtest.h>

using namespace tilebundle;

namespace {

BindingScope shapes() {
  BindingScope s;
  s.viewSizes["Q"] = {2, 4, 1000, 64};
  s.viewSizes["X"] = {7, 100};
  s.params["TILE_M"] = 64;
  s.params["EVEN_K"] = 0;
  return s;
}

int64_t eval(const std::string &text) {
  int64_t v = -12345;
  std::string error;
  EXPECT_TRUE(evalExpr(text, shapes(), v, error)) << text << ": " << error;
  return v;
}

std::string evalError(const std::string &text) {
  int64_t v;
  std::string error;
  EXPECT_FALSE(evalExpr(text, shapes(), v, error)) << text;
  return error;
}

TEST(Expr, Arithmetic) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("7 / 2"), 3);
  EXPECT_EQ(eval("7 % 4"), 3);
  EXPECT_EQ(eval("10 - 2 - 3"), 5);
  EXPECT_EQ(eval("cdiv(Q.2, TILE_M)"), 16);
  EXPECT_EQ(eval("cdiv(0, 5)"), 0);
  EXPECT_EQ(eval("cdiv(0 - 7, 2)"), -3);
  EXPECT_EQ(eval("Q.0 * Q.1"), 8);
  EXPECT_EQ(eval("min(X.0, 3) + max(X.1, 3)"), 103);
}

TEST(Expr, Logic) {
  EXPECT_EQ(eval("X.1 <= 128"), 1);
  EXPECT_EQ(eval("X.1 % 64 == 0 || EVEN_K == 0"), 1);
  EXPECT_EQ(eval("X.1 % 64 == 0 && EVEN_K == 0"), 0);
  EXPECT_EQ(eval("!(X.0 > 3)"), 0);
  EXPECT_EQ(eval("!!5"), 1);
  EXPECT_EQ(eval("1 != 2"), 1);
  EXPECT_EQ(eval("3 >= 3 && 2 < 3 && 4 > 3"), 1);
  // The right side of || and && is not evaluated when the left decides.
  EXPECT_EQ(eval("EVEN_K == 0 || 1 / EVEN_K > 0"), 1);
  EXPECT_EQ(eval("EVEN_K != 0 && 1 / EVEN_K > 0"), 0);
}

TEST(Expr, Errors) {
  EXPECT_EQ(evalError("cdiv(P.2, 4)"),
            "no view argument named 'P' at column 6 of 'cdiv(P.2, 4)'");
  EXPECT_EQ(evalError("Q.4"),
            "view 'Q' has rank 4, so no dimension 4 at column 1 of 'Q.4'");
  EXPECT_EQ(evalError("1 / (X.0 - 7)"),
            "division by zero at column 3 of '1 / (X.0 - 7)'");
  EXPECT_EQ(evalError("cdiv(X.0, 0)"),
            "cdiv by zero at column 11 of 'cdiv(X.0, 0)'");
  EXPECT_EQ(evalError("((((("), "unexpected end at column 6 of '((((('");
  EXPECT_EQ(evalError(""), "empty expression at column 1 of ''");
  EXPECT_EQ(evalError("1 +"), "unexpected end at column 4 of '1 +'");
  EXPECT_EQ(evalError("1 2"), "unexpected '2' at column 3 of '1 2'");
  EXPECT_EQ(evalError("FOO"), "no parameter named 'FOO' at column 1 of 'FOO'");
  EXPECT_EQ(evalError("min(1)"),
            "min takes two arguments: expected ',' at column 6 of 'min(1)'");
  EXPECT_EQ(evalError("1 = 2"), "unexpected '=' at column 3 of '1 = 2'");
}

TEST(Expr, OutOfRangeIntegers) {
  // Issue 11: an integer too large for its type was an uncaught
  // std::out_of_range.
  EXPECT_EQ(evalError("Q.99999999999999999999"),
            "dimension '99999999999999999999' is out of range (expected an "
            "integer in [0, 7]) at column 3 of 'Q.99999999999999999999'");
  EXPECT_NE(evalError("99999999999999999999").find("integer "),
            std::string::npos);
  EXPECT_NE(evalError("12abc").find("expected an integer"), std::string::npos);
}

TEST(Expr, Overflow) {
  // Issue 11: grids that overflow were reported as fitting.
  BindingScope s;
  s.viewSizes["Q"] = {1, 1, 2000000000, 1};
  int64_t v;
  std::string error;
  EXPECT_FALSE(evalExpr("Q.2 * Q.2 * Q.2", s, v, error));
  EXPECT_NE(error.find("overflows int64"), std::string::npos) << error;
  EXPECT_FALSE(evalExpr("9223372036854775807 + 1", s, v, error));
}

TEST(Expr, NestingIsBounded) {
  // Issue 11: 20,000 nested parentheses overflowed the stack.
  std::string deep(20000, '(');
  deep += "1";
  deep += std::string(20000, ')');
  std::string error = evalError(deep);
  EXPECT_NE(error.find("longer than 4096 characters"), std::string::npos);
  std::string nested(100, '(');
  nested += "1" + std::string(100, ')');
  error = evalError(nested);
  EXPECT_NE(error.find("nesting deeper than 64"), std::string::npos) << error;
  std::string nots(100, '!');
  error = evalError(nots + "1");
  EXPECT_NE(error.find("nesting deeper than 64"), std::string::npos) << error;
  std::string ok(60, '(');
  EXPECT_EQ(eval(ok + "1" + std::string(60, ')')), 1);
  // Long chains of binary operators are loops, not recursion.
  std::string chain = "1";
  for (int i = 0; i < 1000; ++i)
    chain += "+1";
  EXPECT_EQ(eval(chain), 1001);
}

TEST(Expr, Signature) {
  SignatureScope sig;
  sig.viewRanks["Q"] = 4;
  sig.params["TILE_M"] = std::nullopt;
  sig.params["HEAD_DIM"] = 128;
  sig.scalars.push_back("qk_scale");
  std::optional<int64_t> v;
  std::string error;
  EXPECT_TRUE(analyzeExpr("cdiv(Q.2, TILE_M)", sig, v, error)) << error;
  EXPECT_FALSE(v.has_value());
  EXPECT_TRUE(analyzeExpr("HEAD_DIM * 2", sig, v, error)) << error;
  EXPECT_EQ(v, 256);
  EXPECT_FALSE(analyzeExpr("Q.2 / (HEAD_DIM - 128)", sig, v, error));
  EXPECT_NE(error.find("division by zero"), std::string::npos);
  EXPECT_FALSE(analyzeExpr("qk_scale.0", sig, v, error));
  EXPECT_NE(error.find("'qk_scale' is a scalar argument, not a view"),
            std::string::npos)
      << error;
  EXPECT_FALSE(analyzeExpr("Q + 1", sig, v, error));
  EXPECT_NE(error.find("'Q' is a view: name one of its sizes, Q.0 to Q.3"),
            std::string::npos)
      << error;
  // A division by an unknown value is fine when checking.
  EXPECT_TRUE(analyzeExpr("1 / Q.2", sig, v, error)) << error;
}

TEST(Expr, Substitute) {
  std::map<std::string, int64_t> values = {
      {"TILE_M", 64}, {"Q", 5}, {"NEG", -3}, {"EVEN_K", 1}};
  EXPECT_EQ(substituteParams("cdiv(Q.2, TILE_M)", values), "cdiv(Q.2, 64)");
  EXPECT_EQ(substituteParams("Q .1 + TILE_M2 + NEG", values),
            "Q .1 + TILE_M2 + (0 - 2 - 1)");
  EXPECT_EQ(substituteParams("EVEN_K == 0 || X.1 % TILE_M == 0", values),
            "1 == 0 || X.1 % 64 == 0");
  BindingScope s;
  int64_t v;
  std::string error;
  ASSERT_TRUE(evalExpr(substituteParams("NEG", values), s, v, error)) << error;
  EXPECT_EQ(v, -3);
}

TEST(Expr, ParsedTree) {
  // One tree, what launchers evaluate and tile-persistent emits: a chain of
  // one precedence level is one node, each link with its operator's column.
  std::string error;
  std::optional<ParsedExpr> e = parseExpr("1 - Q.2 * 3 - cdiv(X.0, 2)", error);
  ASSERT_TRUE(e) << error;
  const ExprNode &root = e->root;
  ASSERT_EQ(root.kind, ExprNode::Kind::Chain);
  ASSERT_EQ(root.operands.size(), 3u);
  EXPECT_EQ(root.ops, (std::vector<ExprOp>{ExprOp::Sub, ExprOp::Sub}));
  EXPECT_EQ(root.opAt, (std::vector<size_t>{2, 12}));
  const ExprNode &product = root.operands[1];
  ASSERT_EQ(product.kind, ExprNode::Kind::Chain);
  EXPECT_EQ(product.ops, std::vector<ExprOp>{ExprOp::Mul});
  EXPECT_EQ(product.operands[0].kind, ExprNode::Kind::ViewDim);
  EXPECT_EQ(product.operands[0].name, "Q");
  EXPECT_EQ(product.operands[0].number, 2);
  EXPECT_EQ(product.operands[0].at, 4u);
  const ExprNode &call = root.operands[2];
  ASSERT_EQ(call.kind, ExprNode::Kind::Call);
  EXPECT_EQ(call.ops, std::vector<ExprOp>{ExprOp::CDiv});
  EXPECT_EQ(call.opAt, std::vector<size_t>{24});
  EXPECT_EQ(spellExprOp(ExprOp::CDiv), std::string("cdiv"));
  // Parsed once, evaluated in two scopes.
  std::optional<int64_t> v;
  ASSERT_TRUE(evaluateExpr(*e, shapes(), v, error)) << error;
  EXPECT_EQ(v, 1 - 3000 - 4);
  BindingScope other = shapes();
  other.viewSizes["Q"][2] = 10;
  ASSERT_TRUE(evaluateExpr(*e, other, v, error)) << error;
  EXPECT_EQ(v, 1 - 30 - 4);
  // A single operand is no chain; parentheses leave no node.
  e = parseExpr("((Q.1))", error);
  ASSERT_TRUE(e) << error;
  EXPECT_EQ(e->root.kind, ExprNode::Kind::ViewDim);
  // Syntax is checked before names: the unknown view is not reported.
  EXPECT_EQ(evalError("P.2 +"), "unexpected end at column 6 of 'P.2 +'");
  EXPECT_FALSE(parseExpr("P.2 +", error));
  EXPECT_EQ(locateExprError("why", 0, "x"), "why at column 1 of 'x'");
}

TEST(Expr, QuoteIsShort) {
  EXPECT_EQ(quoteExpr("abc"), "'abc'");
  std::string q = quoteExpr(std::string(200, 'x'));
  EXPECT_LT(q.size(), 120u);
  EXPECT_NE(q.find("(200 characters)"), std::string::npos);
}

} // namespace
