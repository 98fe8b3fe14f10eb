// Logging for the whole program: spdlog to stderr, so stdout stays clean for results and --json.
#pragma once

#include <spdlog/spdlog.h>

namespace eok::log {

// Sets the level from a name (trace, debug, info, warn, error, off). Unknown names throw ConfigError.
void set_level(const std::string& level);

using spdlog::debug;
using spdlog::error;
using spdlog::info;
using spdlog::warn;

}  // namespace eok::log
