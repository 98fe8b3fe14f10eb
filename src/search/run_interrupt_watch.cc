#include "src/search/run_interrupt_watch.h"

#include <chrono>
#include <utility>

#include <nlohmann/json.hpp>

#include "src/common/log.h"

namespace eok::search {

RunInterruptWatch::RunInterruptWatch(db::KernelDb& db, std::string run_id, const InterruptGuard& interrupts)
    : db_(db), run_id_(std::move(run_id)), interrupts_(interrupts), thread_([this] { watch(); }) {}

void RunInterruptWatch::end() {
  over_ = true;
  if (thread_.joinable()) thread_.join();
}

void RunInterruptWatch::watch() {
  // The signal is looked at before the end of the search: a Ctrl-C that ended it quickly is still answered
  // (and said) before the final summary is written.
  for (;;) {
    if (interrupts_.interrupted()) {
      log::warn(
          "Ctrl-C: finishing the evaluations in flight and cancelling LLM requests; the run is marked stopped "
          "(continue it with eok search --resume {}); Ctrl-C again stops at once",
          run_id_);
      try {
        db_.update_run(run_id_, db::RunState::stopped,
                       nlohmann::json{{"stop_reason", "interrupted"}}.dump(-1, ' ', false,
                                                                           nlohmann::json::error_handler_t::replace));
      } catch (const std::exception& e) {
        log::warn("could not mark run {} stopped: {}", run_id_, e.what());
      }
      return;
    }
    if (over_) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace eok::search
