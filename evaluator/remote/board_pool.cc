#include "evaluator/remote/board_pool.h"

#include <unistd.h>

#include <chrono>
#include <thread>

#include "src/common/error.h"
#include "src/common/file_lock.h"
#include "src/common/hash.h"
#include "src/common/log.h"

namespace eok::evaluator::remote {

namespace fs = std::filesystem;

fs::path default_lock_dir() {
  return fs::temp_directory_path() / ("eok-board-locks-" + std::to_string(getuid()));
}

BoardPool::BoardPool(std::string board_name, std::vector<std::string> hosts, fs::path lock_dir, fs::path profile)
    : name_(std::move(board_name)),
      hosts_(std::move(hosts)),
      lock_dir_(std::move(lock_dir)),
      profile_(std::move(profile)) {
  std::error_code ec;
  fs::create_directories(lock_dir_, ec);
  if (ec) throw Error("cannot create the board lock directory " + lock_dir_.string() + ": " + ec.message());
}

std::vector<std::string> BoardPool::usable() const {
  std::lock_guard<std::mutex> g(mu_);
  std::vector<std::string> out;
  for (const auto& h : hosts_) {
    if (!aside_.count(h)) out.push_back(h);
  }
  return out;
}

std::pair<RemoteOutcome, std::string> BoardPool::run(const std::function<RemoteOutcome(const std::string& host)>& job) {
  for (;;) {
    const auto hosts = usable();
    if (hosts.empty()) {
      RemoteOutcome none;
      none.unreachable = true;
      std::lock_guard<std::mutex> g(mu_);
      none.problem = "no board of " + name_ + " answers:";
      for (const auto& w : why_aside_) none.problem += " " + w + ";";
      none.problem += " check them with `eok doctor --board " + (profile_.empty() ? name_ : profile_.string()) + "`";
      return {none, ""};
    }
    for (const auto& host : hosts) {
      FileLock lock(lock_dir_ / (content_hash(host).substr(0, 16) + ".lock"));
      if (!lock.held()) continue;
      RemoteOutcome out = job(host);
      if (!out.unreachable) return {out, host};
      log::warn("board {} of {} set aside: {}", host, name_, out.problem);
      std::lock_guard<std::mutex> g(mu_);
      aside_.insert(host);
      why_aside_.push_back(host + ": " + out.problem);
      break;  // re-read the usable boards
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace eok::evaluator::remote
