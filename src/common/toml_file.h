// Reading a TOML configuration file (task.toml, board profiles) with errors that name file and line.
#pragma once

#include <toml++/toml.h>

#include <filesystem>

namespace eok {

// Throws ConfigError "FILE:LINE: what is wrong" on a syntax error.
toml::table parse_toml_file(const std::filesystem::path& file);

}  // namespace eok
