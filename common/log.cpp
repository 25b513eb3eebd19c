#include "common/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <mutex>

namespace ssdlab {

std::shared_ptr<spdlog::logger> logger(const std::string& module) {
  // Jobs of a sweep run on several threads: look up and create in one step.
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  if (auto existing = spdlog::get(module)) return existing;
  auto created = spdlog::stderr_color_mt(module);
  created->set_pattern("[%n] %^%l%$: %v");
  created->set_level(spdlog::get_level());
  return created;
}

bool set_log_level(const std::string& level) {
  const auto parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off") return false;
  spdlog::set_level(parsed);  // all existing loggers and the default for new ones
  return true;
}

}  // namespace ssdlab
