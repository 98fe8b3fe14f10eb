#include "src/db/kernel_db.h"

#include "src/db/migrations.h"
#include "src/db/sqlite_kernel_db.h"

namespace eok::db {

std::unique_ptr<KernelDb> KernelDb::open(const std::filesystem::path& file) {
  return std::make_unique<SqliteKernelDb>(file);
}

int KernelDb::schema_version() { return latest_schema_version(); }

}  // namespace eok::db
