#include "src/db/kernel_db.h"

#include <exception>

#include "src/common/error.h"
#include "src/common/log.h"
#include "src/db/migrations.h"
#include "src/db/sqlite_kernel_db.h"

namespace eok::db {

std::unique_ptr<KernelDb> KernelDb::open(const std::filesystem::path& file) {
  return std::make_unique<SqliteKernelDb>(file);
}

std::unique_ptr<KernelDb> KernelDb::open_read_only(const std::filesystem::path& file) {
  return std::make_unique<SqliteKernelDb>(file, SqliteKernelDb::ReadOnly{});
}

std::unique_ptr<KernelDb> KernelDb::open_for_reading(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return open(file);
  try {
    return open(file);
  } catch (const CorruptDataError&) {
    throw;  // damaged or foreign: reading it as it is would not help
  } catch (const ConfigError&) {
    throw;  // written by a newer eok
  } catch (const Error& cannot_write) {
    const std::exception_ptr first = std::current_exception();
    try {
      auto db = open_read_only(file);
      log::debug("{} cannot be opened for writing ({}): reading it as it is", file.string(), cannot_write.what());
      return db;
    } catch (const Error&) {
      std::rethrow_exception(first);  // what stopped the writable open is what the user must fix
    }
  }
}

int KernelDb::schema_version() {
  return latest_schema_version();
}

}  // namespace eok::db
