#include "support/shared_data.h"

#include <cstdlib>
#include <string>

namespace eok::testing {

std::filesystem::path shared_data_dir() {
  if (const char* env = std::getenv("EOK_SHARED_DATA"); env && *env) return env;
  return std::filesystem::path(EOK_SOURCE_DIR).parent_path() / "shared" / "data";
}

std::filesystem::path shared_data(std::string_view relative) {
  return shared_data_dir() / std::string(relative);
}

}  // namespace eok::testing
