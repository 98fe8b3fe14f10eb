// EvalStatus names: the text the kernel database stores and JSON carries, read back to the same status,
// and any other text refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "src/common/eval_status.h"

namespace eok {
namespace {

TEST(EvalStatusNames, EveryStatusReadsBackFromItsName) {
  for (EvalStatus status : enum_values<EvalStatus>()) {
    EXPECT_EQ(parse_name<EvalStatus>(status_name(status)), status) << status_name(status);
    EXPECT_EQ(nlohmann::json(status), status_name(status)) << "JSON carries the name, not a number";
  }
}

TEST(EvalStatusNames, TheStoredTextIsTheOneEarlierDatabasesHold) {
  EXPECT_STREQ(status_name(EvalStatus::ok), "ok");
  EXPECT_STREQ(status_name(EvalStatus::compile_error), "compile_error");
  EXPECT_STREQ(status_name(EvalStatus::rejected), "rejected");
  EXPECT_STREQ(status_name(EvalStatus::runtime_error), "runtime_error");
  EXPECT_STREQ(status_name(EvalStatus::wrong_answer), "wrong_answer");
  EXPECT_STREQ(status_name(EvalStatus::timeout), "timeout");
  EXPECT_STREQ(status_name(EvalStatus::infra_error), "infra_error");
}

TEST(EvalStatusNames, AnyOtherTextIsNoStatus) {
  for (const char* text : {"", "OK", "ok ", "infra", "some_future_status", "not evaluated"}) {
    EXPECT_EQ(parse_name<EvalStatus>(text), std::nullopt) << "'" << text << "'";
  }
}

}  // namespace
}  // namespace eok
