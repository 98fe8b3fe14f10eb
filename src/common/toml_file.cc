#include "src/common/toml_file.h"

#include <sstream>

#include "src/common/error.h"
#include "src/common/fs_util.h"

namespace eok {

toml::table parse_toml_file(const std::filesystem::path& file, std::string_view what) {
  // Read through the bounded reader, not toml::parse_file: a FIFO or /dev/zero named as a configuration
  // must be refused, not read until memory runs out.
  const std::string text = read_regular_file(file, kSettingsFileMaxBytes, what);
  try {
    return toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << file.string() << ":" << e.source().begin.line << ": " << e.description();
    throw ConfigError(msg.str());
  }
}

}  // namespace eok
