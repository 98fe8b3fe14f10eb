// Unified diff of two texts, line by line (what `eok show` prints between a kernel and its parent).
#pragma once

#include <string>

namespace eok {

// "--- a\n+++ b\n@@ -1,3 +1,4 @@\n ..." with `context` unchanged lines around each change; "" when the
// texts are equal. Texts over 4000 lines are not diffed (a one-line note says so).
std::string unified_diff(const std::string& a, const std::string& b, const std::string& a_name,
                         const std::string& b_name, size_t context = 3);

}  // namespace eok
