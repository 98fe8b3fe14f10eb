// The boards of one profile as a pool: every timing run takes a free board, one run at a time per board
// across every eok process on this machine (a lock file per board), and a board that stops answering is
// set aside, with a message, for the rest of this process: its work goes to the others.
#pragma once

#include <filesystem>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "evaluator/remote/transport.h"

namespace eok::evaluator::remote {

class BoardPool {
 public:
  // lock_dir: shared by every eok process of this user (created when missing); profile: the board
  // profile's file, for the doctor command in messages.
  BoardPool(std::string board_name, std::vector<std::string> hosts, std::filesystem::path lock_dir,
            std::filesystem::path profile = {});

  // Runs `job` on a free board; when the board turns out unreachable it is set aside and the job goes to
  // another. Returns the outcome and the host that ran it; when no board is left, an outcome with
  // unreachable set and a problem naming every board and why. Blocks while every usable board is busy.
  std::pair<RemoteOutcome, std::string> run(const std::function<RemoteOutcome(const std::string& host)>& job);

  std::vector<std::string> usable() const;

 private:
  std::string name_;
  std::vector<std::string> hosts_;
  std::filesystem::path lock_dir_;
  std::filesystem::path profile_;
  mutable std::mutex mu_;
  std::set<std::string> aside_;
  std::vector<std::string> why_aside_;
};

// The directory of board lock files for this user: one timing run per board on this machine.
std::filesystem::path default_lock_dir();

}  // namespace eok::evaluator::remote
