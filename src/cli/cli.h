// Shared pieces of the eok command line: global options and the helpers every subcommand uses.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "src/common/number_format.h"
#include "src/common/paths.h"
#include "src/db/kernel_db.h"

namespace eok::cli {

struct GlobalOptions {
  std::optional<std::filesystem::path> root;  // --root
  std::string log_level = "info";
};

// Each subcommand registers itself on the app; the callback runs the command and sets the exit code.
void add_eval_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_measure_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_doctor_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_tasks_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_task_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_search_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_runs_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_leaderboard_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_kernels_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_show_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_export_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_ideas_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_mine_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_rag_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_bench_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_report_command(CLI::App& app, const GlobalOptions& global, int& exit_code);

// The kernel database of the workspace.
std::unique_ptr<db::KernelDb> open_kernel_db(const Workspace& ws);
// For commands that only read the database: a read-only workspace is browsed as it is
// (db::KernelDb::open_for_reading).
std::unique_ptr<db::KernelDb> open_kernel_db_for_reading(const Workspace& ws);

// The directory a command writes into (--out), created when missing: never the root directory, never an
// existing file, and never inside a system directory (/usr, /etc, /var, ...) unless `force`. Throws
// ConfigError saying what to give instead.
std::filesystem::path output_directory(const std::string& out, bool force);

// True when stdout is a terminal (colour and human layout).
bool stdout_is_terminal();

// "123,456" (src/common/number_format.h)
using ::eok::with_commas;

}  // namespace eok::cli
