// Integer expressions over a task's size parameters ("outer*axis_len*inner", "(M+1)/2").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace eok::evaluator {

using SizeParams = std::map<std::string, int64_t>;

// Evaluates `expr` with + - * / (integer division), unary minus, parentheses, integers and names bound in
// `params`. Throws ConfigError naming the expression on syntax errors, unknown names, division by zero or
// overflow.
int64_t eval_size_expr(std::string_view expr, const SizeParams& params);

// "n=16384" or "M=64 N=48 K=72": how sizes are shown to users.
std::string format_sizes(const SizeParams& params);

}  // namespace eok::evaluator
