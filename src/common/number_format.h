// Numbers as eok shows them to people.
#pragma once

#include <string>

namespace eok {

// Rounded to the nearest integer with thousands separators: "123,456", "-1,024".
std::string with_commas(double v);

}  // namespace eok
