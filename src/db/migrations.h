// The kernel database's schema history: an ordered list of migrations, each taking the file from version
// N-1 to N. The version lives in PRAGMA user_version, and PRAGMA application_id marks the file as eok's.
//
// To change the schema, append a migration; never edit one that has shipped (files in users' workspaces
// went through it already). A migration runs in one transaction together with its version bump, so a kill
// leaves the file at the old version or the new one, never between.
#pragma once

#include <string_view>
#include <vector>

#include "src/db/sqlite_connection.h"

namespace eok::db {

struct Migration {
  int version;  // user_version once applied
  std::string_view name;
  std::string_view sql;  // statements run in order
};

// Every migration, in order: versions 1, 2, ... without gaps.
const std::vector<Migration>& migrations();

// The version this eok writes: the last migration's.
int latest_schema_version();

// "EOKD": the application_id of every eok kernel database.
inline constexpr int kApplicationId = 0x454F4B44;

// Reads the file's version without changing anything. Throws CorruptDataError when the file is not a SQLite
// database or belongs to another program, and ConfigError when a newer eok wrote it. Returns the version.
int check_schema_compatible(sqlite::Connection& conn);

// Applies every migration past the file's version, each in its own write transaction. Safe when several
// processes open a new file at once: each re-reads the version under the write lock.
void apply_migrations(sqlite::Connection& conn);

}  // namespace eok::db
