#include "src/common/log.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdio>

#include "src/common/error.h"

namespace eok::log {

namespace {

// stderr with colours, and the live status line kept below the log: cleared before every log line and
// drawn again after it (both under the sink's lock, so lines from other threads never cut into it).
class StatusLineSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  StatusLineSink() : inner_(std::make_shared<spdlog::sinks::stderr_color_sink_st>()) {}

  void set_status(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!status_.empty() || !text.empty()) std::fputs("\r\033[K", stderr);
    status_ = text;
    std::fputs(status_.c_str(), stderr);
    std::fflush(stderr);
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    if (!status_.empty()) std::fputs("\r\033[K", stderr);
    inner_->log(msg);
    if (!status_.empty()) std::fputs(status_.c_str(), stderr);
    std::fflush(stderr);
  }
  void flush_() override { inner_->flush(); }
  void set_pattern_(const std::string& pattern) override { inner_->set_pattern(pattern); }
  void set_formatter_(std::unique_ptr<spdlog::formatter> f) override { inner_->set_formatter(std::move(f)); }

 private:
  std::shared_ptr<spdlog::sinks::stderr_color_sink_st> inner_;
  std::string status_;
};

StatusLineSink& sink() {
  static const std::shared_ptr<StatusLineSink> s = [] {
    auto created = std::make_shared<StatusLineSink>();
    auto logger = std::make_shared<spdlog::logger>("eok", created);
    logger->set_pattern("%^[%l]%$ %v");
    logger->set_level(spdlog::default_logger()->level());
    spdlog::set_default_logger(logger);
    return created;
  }();
  return *s;
}

}  // namespace

void set_level(const std::string& level) {
  sink();
  auto parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off") {
    throw ConfigError("unknown log level '" + level + "': use trace, debug, info, warn, error or off");
  }
  spdlog::set_level(parsed);
}

void set_status_line(const std::string& text) {
  sink().set_status(text);
}

}  // namespace eok::log
