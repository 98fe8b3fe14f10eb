// The identity of the running program as its linker recorded it (the GNU build id: a hash of the linked
// image), read from the program's own loaded headers: no file is read, so it costs nothing per command.
#pragma once

#include <string>

namespace eok {

// The build id of the running executable as lowercase hex, or "" when it was linked without one
// (callers then fall back to hashing the executable's file).
std::string program_build_id();

}  // namespace eok
