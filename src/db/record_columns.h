// How each record is read back from its table: the columns a SELECT lists, in order, and the function that
// turns those columns of a result row into the record. Kept in one place so that every query that returns
// a record lists the same columns in the same order as its reader expects.
#pragma once

#include <string>
#include <string_view>

#include "src/db/kernel_db.h"
#include "src/db/sqlite_connection.h"

namespace eok::db {

// "a.c1, a.c2, ..." for the record's columns, each qualified by the table alias `alias`.
std::string run_columns(std::string_view alias);
std::string kernel_columns(std::string_view alias);  // parents live in kernel_parents: read separately
std::string evaluation_columns(std::string_view alias);
std::string llm_call_columns(std::string_view alias);
std::string idea_update_columns(std::string_view alias);

// Column counts, to find where the next record starts in a joined row.
extern const int kKernelColumnCount;

// Each reads the record's columns from the current row of `st`, starting at column `first`.
RunRecord read_run(const sqlite::Statement& st, int first = 0);
KernelRecord read_kernel(const sqlite::Statement& st, int first = 0);
EvaluationRecord read_evaluation(const sqlite::Statement& st, int first = 0);
LlmCallRecord read_llm_call(const sqlite::Statement& st, int first = 0);
IdeaUpdateRecord read_idea_update(const sqlite::Statement& st, int first = 0);

}  // namespace eok::db
