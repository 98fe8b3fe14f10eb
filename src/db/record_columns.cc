#include "src/db/record_columns.h"

#include <array>

#include "src/common/error.h"

namespace eok::db {

namespace {

// The orders below are the orders the readers consume.
constexpr std::array kRunColumns = {"id",          "task",         "board",        "state", "method",
                                    "config_json", "seed",         "toolchain",    "model", "started_at",
                                    "updated_at",  "summary_json", "progress_json"};
constexpr std::array kKernelColumns = {"id",        "run_id",      "task",       "board",     "hash",
                                       "source",    "description", "op",         "idea_id",   "thought_id",
                                       "iteration", "search",      "generation", "created_at"};
constexpr std::array kEvaluationColumns = {"kernel_id", "status",          "message",   "evidence_json",
                                           "cycles",    "baseline_cycles", "speedup",   "seed",
                                           "seconds",   "setup",           "created_at"};
constexpr std::array kLlmCallColumns = {"id",
                                        "run_id",
                                        "kernel_id",
                                        "op",
                                        "request_hash",
                                        "model",
                                        "ok",
                                        "error",
                                        "prompt_tokens",
                                        "completion_tokens",
                                        "latency_seconds",
                                        "cost",
                                        "cache_hit",
                                        "attempts",
                                        "retrieved_context",
                                        "created_at",
                                        "messages_json",
                                        "reply"};
constexpr std::array kIdeaUpdateColumns = {
    "run_id", "iteration", "idea_id", "effectiveness_before", "effectiveness_after", "samples", "created_at"};

template <size_t N>
std::string qualified(const std::array<const char*, N>& columns, std::string_view alias) {
  std::string out;
  for (const char* column : columns) {
    if (!out.empty()) out += ", ";
    out.append(alias).append(".").append(column);
  }
  return out;
}

}  // namespace

void throw_unknown_name(const sqlite::Statement& st, std::string_view what, const std::string& text,
                        const std::string& known) {
  throw CorruptDataError(st.database_file().string() + ": " + std::string(what) + " is '" + text +
                         "', which this eok does not know (it knows " + known +
                         "): the row was changed by hand or by another program; correct it with the sqlite3 "
                         "shell, or move the file aside to start a new kernel database");
}

const int kKernelColumnCount = static_cast<int>(kKernelColumns.size());

std::string run_columns(std::string_view alias) {
  return qualified(kRunColumns, alias);
}
std::string kernel_columns(std::string_view alias) {
  return qualified(kKernelColumns, alias);
}
std::string evaluation_columns(std::string_view alias) {
  return qualified(kEvaluationColumns, alias);
}
std::string llm_call_columns(std::string_view alias) {
  return qualified(kLlmCallColumns, alias);
}
std::string idea_update_columns(std::string_view alias) {
  return qualified(kIdeaUpdateColumns, alias);
}

RunRecord read_run(const sqlite::Statement& st, int first) {
  int c = first;
  RunRecord r;
  r.id = st.column_text(c++);
  r.task = st.column_text(c++);
  r.board = st.column_text(c++);
  r.state = column_enum<RunState>(st, c++, "runs.state of run " + r.id);
  r.method = column_enum<SearchMethod>(st, c++, "runs.method of run " + r.id);
  r.config_json = st.column_text(c++);
  r.seed = st.column_uint64(c++);
  r.toolchain = st.column_text(c++);
  r.model = st.column_text(c++);
  r.started_at = st.column_double(c++);
  r.updated_at = st.column_double(c++);
  r.summary_json = st.column_text(c++);
  r.progress_json = st.column_text(c++);
  return r;
}

KernelRecord read_kernel(const sqlite::Statement& st, int first) {
  int c = first;
  KernelRecord k;
  k.id = st.column_int64(c++);
  k.run_id = st.column_text(c++);  // NULL (ker0) reads as ""
  k.task = st.column_text(c++);
  k.board = st.column_text(c++);
  k.hash = st.column_text(c++);
  k.source = st.column_text(c++);
  k.description = st.column_text(c++);
  k.op = st.column_text(c++);
  k.idea_id = st.column_text(c++);
  k.thought_id = st.column_text(c++);
  k.iteration = st.column_int(c++);
  k.search = st.column_int(c++);
  k.generation = st.column_int(c++);
  k.created_at = st.column_double(c++);
  return k;
}

EvaluationRecord read_evaluation(const sqlite::Statement& st, int first) {
  int c = first;
  EvaluationRecord e;
  e.kernel_id = st.column_int64(c++);
  e.status = column_enum<EvalStatus>(st, c++, "evaluations.status of kernel " + std::to_string(e.kernel_id));
  e.message = st.column_text(c++);
  e.evidence_json = st.column_text(c++);
  e.cycles = st.column_optional_double(c++);
  e.baseline_cycles = st.column_optional_double(c++);
  e.speedup = st.column_optional_double(c++);
  e.seed = st.column_uint64(c++);
  e.seconds = st.column_double(c++);
  e.setup = st.column_text(c++);
  e.created_at = st.column_double(c++);
  return e;
}

LlmCallRecord read_llm_call(const sqlite::Statement& st, int first) {
  int c = first;
  LlmCallRecord r;
  r.id = st.column_int64(c++);
  r.run_id = st.column_text(c++);
  r.kernel_id = st.column_optional_int64(c++);
  r.op = st.column_text(c++);
  r.request_hash = st.column_text(c++);
  r.model = st.column_text(c++);
  r.ok = st.column_bool(c++);
  r.error = st.column_text(c++);
  r.prompt_tokens = st.column_int64(c++);
  r.completion_tokens = st.column_int64(c++);
  r.latency_seconds = st.column_double(c++);
  r.cost = st.column_double(c++);
  r.cache_hit = st.column_bool(c++);
  r.attempts = st.column_int(c++);
  r.retrieved_context = st.column_text(c++);
  r.created_at = st.column_double(c++);
  r.messages_json = st.column_text(c++);
  r.reply = st.column_text(c++);
  return r;
}

IdeaUpdateRecord read_idea_update(const sqlite::Statement& st, int first) {
  int c = first;
  IdeaUpdateRecord u;
  u.run_id = st.column_text(c++);
  u.iteration = st.column_int(c++);
  u.idea_id = st.column_text(c++);
  u.before = st.column_double(c++);
  u.after = st.column_double(c++);
  u.samples = st.column_int(c++);
  u.created_at = st.column_double(c++);
  return u;
}

}  // namespace eok::db
