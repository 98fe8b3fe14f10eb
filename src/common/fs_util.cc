#include "src/common/fs_util.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "src/common/error.h"

namespace eok {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw NotFoundError("no such file: " + path.string());
    throw Error("cannot read " + path.string() + ": " + std::strerror(errno));
  }
  if (fs::is_directory(path)) throw Error(path.string() + " is a directory, expected a file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file_atomic(const fs::path& path, std::string_view data) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write " + tmp.string() + ": " + std::strerror(errno));
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) throw Error("cannot write " + tmp.string() + " (disk full?)");
  }
  fs::rename(tmp, path);
}

TempDir::TempDir(const fs::path& parent, std::string_view prefix) {
  fs::create_directories(parent);
  std::string templ = (parent / (std::string(prefix) + "XXXXXX")).string();
  if (::mkdtemp(templ.data()) == nullptr) {
    throw Error("cannot create a temporary directory under " + parent.string() + ": " + std::strerror(errno));
  }
  path_ = templ;
}

TempDir::~TempDir() {
  if (keep_) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace eok
