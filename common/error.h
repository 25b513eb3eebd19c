// Error type for bad input (config, plan, trace, command line).
//
// Errors are values thrown up to the command line, never exit() deep inside
// (STYLE.md). The message is complete on its own: "file:line: what is wrong".
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace ssdlab {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Builds an Error whose message is formatted with fmt.
template <typename... Args>
Error make_error(fmt::format_string<Args...> format, Args&&... args) {
  return Error(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace ssdlab
