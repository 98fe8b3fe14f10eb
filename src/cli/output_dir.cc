// Where a command may write its files (--out): checked before anything is written.
#include <algorithm>
#include <array>
#include <string_view>

#include "src/cli/cli.h"
#include "src/common/error.h"

namespace eok::cli {

namespace fs = std::filesystem;

fs::path output_directory(const std::string& out, bool force) {
  if (out.empty()) throw ConfigError("--out needs a directory, e.g. --out dist");
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(fs::absolute(out), ec);
  if (ec) throw ConfigError("--out " + out + ": " + ec.message());
  if (dir == dir.root_path())
    throw ConfigError("--out " + out + " is the root directory: name a directory of its own, e.g. --out dist");
  static constexpr std::array<std::string_view, 14> kSystem = {"/bin",   "/boot",  "/dev",  "/etc", "/lib",
                                                               "/lib32", "/lib64", "/proc", "/run", "/sbin",
                                                               "/sys",   "/usr",   "/var",  "/snap"};
  for (std::string_view s : kSystem) {
    const fs::path sys(s);
    auto mismatch = std::mismatch(sys.begin(), sys.end(), dir.begin(), dir.end());
    if (mismatch.first == sys.end() && !force) {
      throw ConfigError("--out " + out + " is inside the system directory " + sys.string() +
                        ": name a directory of your own, or add --force if you really mean it");
    }
  }
  if (fs::exists(dir) && !fs::is_directory(dir)) {
    throw ConfigError("--out " + out +
                      " is an existing file, not a directory: name a directory (it is created when missing)");
  }
  fs::create_directories(dir, ec);
  if (ec) throw ConfigError("cannot create --out " + out + ": " + ec.message());
  return dir;
}

}  // namespace eok::cli
