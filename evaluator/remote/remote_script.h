// The shell script that runs a program on a real board: it waits until the board is cool enough, reports
// the CPU governor and temperature, runs the program through the profile's exec_prefix in a process group
// of its own, and kills that group as soon as eok's end of its stdin closes (eok finished, was killed, or
// lost the connection), then removes its run directory. POSIX sh only: a board has nothing more.
#pragma once

#include <string>
#include <vector>

#include "evaluator/board.h"

namespace eok::evaluator::remote {

// `program` (already in `run_dir`) runs there with `args` and `input` as its stdin; its stdout and stderr
// are the script's. Lines the script itself writes go to stderr and start with "eok-board: ".
std::string board_script(const BoardProfile& board, const std::string& run_dir, const std::string& program,
                         const std::vector<std::string>& args, const std::string& input);

// The script's own facts from a run's stderr ("eok-board: governor=performance" -> {governor, performance}),
// and the rest of stderr (the program's).
struct ScriptReport {
  std::vector<std::pair<std::string, std::string>> facts;
  std::string program_stderr;
  std::string fact(const std::string& key) const;
};
ScriptReport parse_script_report(const std::string& err);

// The first line of what a board printed, as plain text of at most 200 characters (a board that ran an
// ELF file as a script prints its bytes; messages and JSON carry text only).
std::string printable_line(const std::string& s);

// A word quoted for sh.
std::string sh_quote(const std::string& word);

}  // namespace eok::evaluator::remote
