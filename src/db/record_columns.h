// How each record is read back from its table: the columns a SELECT lists, in order, and the function that
// turns those columns of a result row into the record. Kept in one place so that every query that returns
// a record lists the same columns in the same order as its reader expects.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/common/enum_names.h"
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

// The enumerator that the name in `column` spells. A name none of its enumerators spells is a damaged record:
// throws CorruptDataError naming the file, `what` ("runs.state of run r1") and the text, and listing the names
// this eok knows.
[[noreturn]] void throw_unknown_name(const sqlite::Statement& st, std::string_view what, const std::string& text,
                                     const std::string& known);
template <NamedEnum Enum>
Enum column_enum(const sqlite::Statement& st, int column, std::string_view what) {
  const std::string text = st.column_text(column);
  if (const std::optional<Enum> value = parse_name<Enum>(text)) return *value;
  std::string known;
  for (const char* name : EnumNames<Enum>::names) known += (known.empty() ? "" : ", ") + std::string(name);
  throw_unknown_name(st, what, text, known);
}

// Each reads the record's columns from the current row of `st`, starting at column `first`.
RunRecord read_run(const sqlite::Statement& st, int first = 0);
KernelRecord read_kernel(const sqlite::Statement& st, int first = 0);
EvaluationRecord read_evaluation(const sqlite::Statement& st, int first = 0);
LlmCallRecord read_llm_call(const sqlite::Statement& st, int first = 0);
IdeaUpdateRecord read_idea_update(const sqlite::Statement& st, int first = 0);

}  // namespace eok::db
