// Reading a TOML configuration file (task.toml, board profiles) with errors that name file and line.
#pragma once

#include <toml++/toml.h>

#include <filesystem>
#include <string_view>

namespace eok {

// Reads `file` as read_regular_file does (a regular file of at most kSettingsFileMaxBytes; `what` names
// its purpose in messages) and parses it. Throws ConfigError "FILE:LINE: what is wrong" on a syntax error,
// and the errors of read_regular_file.
toml::table parse_toml_file(const std::filesystem::path& file, std::string_view what = "TOML file");

}  // namespace eok
