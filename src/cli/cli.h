// Shared pieces of the eok command line: global options and the helpers every subcommand uses.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace eok::cli {

struct GlobalOptions {
  std::optional<std::filesystem::path> root;  // --root
  std::string log_level = "info";
};

// Each subcommand registers itself on the app; the callback runs the command and sets the exit code.
void add_eval_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_doctor_command(CLI::App& app, const GlobalOptions& global, int& exit_code);
void add_tasks_command(CLI::App& app, const GlobalOptions& global, int& exit_code);

// True when stdout is a terminal (colour and human layout).
bool stdout_is_terminal();

// "123,456"
std::string with_commas(double v);

}  // namespace eok::cli
