// Which tasks a bench covers: a suite of the catalog (DESIGN.md section 6) or an explicit list.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace eok::bench {

// "general" (the 14 general-purpose tasks), "nn" (the 66 neural-network tasks) or "all".
bool is_suite(const std::string& suite);

// The task ids of `suite` under kernels_dir, sorted; with `only` non-empty, those tasks (ids or operation
// names, resolved as eok search resolves them), which must belong to the suite. Throws ConfigError for an
// unknown suite, NotFoundError for an unknown task, ConfigError for a task of another suite.
std::vector<std::string> suite_tasks(const std::filesystem::path& kernels_dir, const std::string& suite,
                                     const std::vector<std::string>& only = {});

// The suite of one task: its task.toml group ("general" or "nn").
std::string task_suite(const std::filesystem::path& kernels_dir, const std::string& task_id);

}  // namespace eok::bench
