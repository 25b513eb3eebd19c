// Named spdlog loggers per module, all on stderr; --log-level sets them all.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace ssdlab {

// The logger of `module` ("sim", "ftl", ...), created on first use.
std::shared_ptr<spdlog::logger> logger(const std::string& module);
// Sets the level of every logger, existing and future; false if `level` is
// not one of trace, debug, info, warn, error, off.
bool set_log_level(const std::string& level);

}  // namespace ssdlab
