#include "evaluator/remote/transport.h"

#include <unistd.h>

#include <atomic>
#include <random>

#include "src/common/error.h"

namespace eok::evaluator::remote {

std::unique_ptr<Transport> make_ssh_transport(const BoardProfile& board);     // ssh_transport.cc
std::unique_ptr<Transport> make_direct_transport(const BoardProfile& board);  // direct_transport.cc

std::string fresh_run_name() {
  static std::atomic<unsigned> counter{0};
  static const unsigned long salt = std::random_device{}();
  return "run-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + "-" + std::to_string(salt % 1000000);
}

std::unique_ptr<Transport> make_transport(const BoardProfile& board) {
  if (board.runner == "ssh") return make_ssh_transport(board);
  if (board.runner == "slurm" || board.runner == "local") return make_direct_transport(board);
  throw ConfigError("board " + board.name + " is virtual (runner " + board.runner + "): it has no transport");
}

}  // namespace eok::evaluator::remote
