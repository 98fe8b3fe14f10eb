// Backoff waits and Retry-After parsing.
#include "src/llm/backoff.h"

#include <gtest/gtest.h>

#include <ctime>

namespace eok::llm {
namespace {

TEST(Backoff, FullJitterStaysUnderTheExponentialCeilingAndTheCap) {
  Backoff backoff(1.0, 10.0, /*seed=*/3);
  for (int retry = 0; retry < 8; ++retry) {
    const double ceiling = std::min(10.0, 1.0 * (1 << retry));
    for (int i = 0; i < 50; ++i) {
      const double d = backoff.delay_seconds(retry);
      EXPECT_GE(d, 0.0);
      EXPECT_LE(d, ceiling);
    }
  }
}

TEST(Backoff, SameSeedSameWaits) {
  Backoff a(1.0, 60.0, 42), b(1.0, 60.0, 42), c(1.0, 60.0, 43);
  bool any_difference = false;
  for (int retry = 0; retry < 5; ++retry) {
    const double da = a.delay_seconds(retry);
    EXPECT_EQ(da, b.delay_seconds(retry));
    any_difference |= da != c.delay_seconds(retry);
  }
  EXPECT_TRUE(any_difference);
}

TEST(Backoff, ServerRequestedDelayWinsButIsCapped) {
  Backoff backoff(1.0, 30.0, 1);
  EXPECT_EQ(backoff.delay_seconds(0, 7.0), 7.0);
  EXPECT_EQ(backoff.delay_seconds(0, 3600.0), 30.0);
  EXPECT_EQ(backoff.delay_seconds(0, -5.0), 0.0);
}

TEST(RetryAfter, SecondsAndHttpDates) {
  const std::time_t now = 1445412480;  // Wed, 21 Oct 2015 07:28:00 GMT
  EXPECT_EQ(parse_retry_after("120", now), 120.0);
  EXPECT_EQ(parse_retry_after("0", now), 0.0);
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", now), 30.0);
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now), 0.0);  // in the past
  EXPECT_FALSE(parse_retry_after("", now).has_value());
  EXPECT_FALSE(parse_retry_after("soon", now).has_value());
  EXPECT_FALSE(parse_retry_after("-3", now).has_value());
}

}  // namespace
}  // namespace eok::llm
