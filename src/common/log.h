// Logging for the whole program: spdlog to stderr, so stdout stays clean for results and --json.
#pragma once

#include <spdlog/spdlog.h>

namespace eok::log {

// Sets the level from a name (trace, debug, info, warn, error, off). Unknown names throw ConfigError.
void set_level(const std::string& level);

// The live status line of a terminal (a search's progress): kept on the last line of stderr, cleared
// before each log line and drawn again after it, so that the two never mix. "" removes it. The caller
// fits it to the terminal's width.
void set_status_line(const std::string& text);

using spdlog::debug;
using spdlog::error;
using spdlog::info;
using spdlog::warn;

}  // namespace eok::log
