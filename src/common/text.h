// Small text and number helpers shared across eok (one definition each).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace eok {

// `s` with ASCII letters in lower case (other bytes unchanged).
std::string ascii_lower(std::string s);

// `v` as C writes a hex literal: "0x1fff000000".
std::string hex_address(uint64_t v);

// The median of `values` (the mean of the two middle ones for an even count). `values` must not be empty.
double median(std::vector<double> values);

}  // namespace eok
