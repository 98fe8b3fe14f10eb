#include "src/common/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include "src/common/error.h"

namespace eok::log {

void set_level(const std::string& level) {
  static const bool installed = [] {
    auto logger = spdlog::stderr_color_mt("eok");
    logger->set_pattern("%^[%l]%$ %v");
    spdlog::set_default_logger(logger);
    return true;
  }();
  (void)installed;
  auto parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off") {
    throw ConfigError("unknown log level '" + level + "': use trace, debug, info, warn, error or off");
  }
  spdlog::set_level(parsed);
}

}  // namespace eok::log
