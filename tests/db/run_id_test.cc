#include "src/common/error.h"
#include "src/db/run_id.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

namespace eok::db {
namespace {

using std::chrono::system_clock;

system_clock::time_point at(int64_t unix_seconds, int64_t nanoseconds = 0) {
  return system_clock::time_point(std::chrono::duration_cast<system_clock::duration>(
      std::chrono::seconds(unix_seconds) + std::chrono::nanoseconds(nanoseconds)));
}

TEST(RunId, IsShortAndNamesTheUtcStartTime) {
  const std::string id = new_run_id(0x1234, at(1795357805));  // 2026-11-22 14:30:05 UTC
  EXPECT_TRUE(std::regex_match(id, std::regex("r20261122-143005-[0-9a-f]{4}"))) << id;
  EXPECT_TRUE(std::regex_match(new_run_id(1), std::regex("r[0-9]{8}-[0-9]{6}-[0-9a-f]{4}")));
}

TEST(RunId, SortsByStartTime) {
  EXPECT_LT(new_run_id(99, at(1795357805)), new_run_id(1, at(1795357806)));
  EXPECT_LT(new_run_id(99, at(1795357805)), new_run_id(1, at(1800000000)));
}

TEST(RunId, IsDeterministicButDiffersWithinOneSecond) {
  EXPECT_EQ(new_run_id(7, at(1795357805, 123)), new_run_id(7, at(1795357805, 123)));
  std::set<std::string> ids;
  for (int i = 0; i < 50; ++i) ids.insert(new_run_id(7, at(1795357805, i * 1000)));  // same seed, same second
  EXPECT_GE(ids.size(), 49u);
  std::set<std::string> by_seed;
  for (uint64_t seed = 0; seed < 50; ++seed) by_seed.insert(new_run_id(seed, at(1795357805)));
  EXPECT_GE(by_seed.size(), 49u);
}

TEST(RunId, OnlyNamesThatStayInsideTheWorkspaceAreRunIds) {
  for (const char* good : {"r20261122-143005-7f3a", "my.run_1", "A", "bench-relu-2"})
    EXPECT_NO_THROW(check_run_id(good)) << good;
  for (const char* bad : {"", "../../x", "/tmp/x", "a/b", ".hidden", "-rf", "run id", "r\n1", "..", "x\\y"}) {
    EXPECT_THROW(check_run_id(bad), ConfigError) << bad;
  }
  EXPECT_THROW(check_run_id(std::string(65, 'r')), ConfigError);
  EXPECT_NO_THROW(check_run_id(std::string(64, 'r')));
  EXPECT_NO_THROW(check_run_id(new_run_id(7)));
}

}  // namespace
}  // namespace eok::db
