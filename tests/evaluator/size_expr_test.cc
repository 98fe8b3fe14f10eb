#include <gtest/gtest.h>

#include "evaluator/size_expr.h"
#include "src/common/error.h"

namespace eok {
namespace {

using evaluator::eval_size_expr;

TEST(SizeExpr, EvaluatesArithmeticOverParameters) {
  evaluator::SizeParams p{{"M", 64}, {"N", 48}, {"K", 3}};
  EXPECT_EQ(eval_size_expr("M*K", p), 192);
  EXPECT_EQ(eval_size_expr("(M + N) / 2 - -1", p), 57);
  EXPECT_EQ(eval_size_expr(" 7 ", p), 7);
}

TEST(SizeExpr, RejectsBadExpressionsWithTheExpressionInTheMessage) {
  evaluator::SizeParams p{{"n", 4}};
  for (const char* bad : {"n*", "m", "n/0", "(n", "n$", "99999999999*99999999999"}) {
    try {
      eval_size_expr(bad, p);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace eok
