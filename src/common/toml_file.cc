#include "src/common/toml_file.h"

#include <sstream>

#include "src/common/error.h"

namespace eok {

toml::table parse_toml_file(const std::filesystem::path& file) {
  try {
    return toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << file.string() << ":" << e.source().begin.line << ": " << e.description();
    throw ConfigError(msg.str());
  }
}

}  // namespace eok
