// The options that say how to read a trace (traces::ReadOptions: --format,
// --time-unit, --trace-device, ...) on a command line, declared once for
// `ssdlab sim` and `ssdlab trace-info` from traces::read_option_keys(), so
// that a new option or format changes no command file. Values are checked
// after parsing, by apply(), as input errors (exit 1) naming the flag.
#pragma once

#include <CLI/CLI.hpp>
#include <deque>
#include <initializer_list>
#include <string>
#include <string_view>

#include "traces/read_options.h"

namespace ssdlab::cli {

class TraceReadFlags {
 public:
  // Sets the options given on the command line in `read`, in the order of
  // traces::read_option_keys(). Throws ssdlab::Error naming the flag.
  void apply(traces::ReadOptions& read) const;

 private:
  friend void add_trace_read_options(CLI::App&, TraceReadFlags&, const std::string&,
                                     std::initializer_list<std::string_view>);
  struct Flag {
    const traces::ReadOptionKey* key = nullptr;
    CLI::Option* option = nullptr;
    std::string text;
  };
  std::deque<Flag> flags_;  // a deque: CLI11 holds references to `text`
};

// Adds every option of traces::read_option_keys() to `command` (in the help
// group `group`, if not empty), except those whose flags are in `except`
// ("--skip-bad"); `flags` keeps what the command line gives.
void add_trace_read_options(CLI::App& command, TraceReadFlags& flags, const std::string& group,
                            std::initializer_list<std::string_view> except = {});

}  // namespace ssdlab::cli
