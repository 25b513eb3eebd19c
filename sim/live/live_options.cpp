#include "sim/live/live_options.h"

#include <charconv>

#include "common/error.h"
#include "common/suggest.h"

namespace ssdlab::sim {

const char* const kLiveKeysHelp =
    "config=FILE.toml          the device config (required)\n"
    "set=table.key=value       overrides a config key (repeatable)\n"
    "precondition=MODE         seq, random[:N], uflip[:N] before serving\n"
    "load-state=FILE           start from a checkpoint (ssdlab sim --save-state)\n"
    "save-state=FILE           save the device state at shutdown\n"
    "io-log=DIR                write DIR/io.csv and DIR/summary.json at shutdown\n"
    "data=memory|sparse-file:PATH|none   where written data is kept (default memory)\n"
    "seed=N                    seed of preconditioning (default 1)\n"
    "late-us=US                a reply this late after its simulated completion is late "
    "(default 1000)";

namespace {

template <class T>
T number(const std::string& key, const std::string& value) {
  T parsed{};
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (error != std::errc() || end != value.data() + value.size() || value.empty())
    throw make_error("{}={}: not a number", key, value);
  return parsed;
}

}  // namespace

void set_live_key(LiveOptions& options, const std::string& key, const std::string& value) {
  SimOptions& sim = options.sim;
  if (key == "config") {
    sim.config = value;
  } else if (key == "set") {
    sim.overrides.push_back(value);
  } else if (key == "precondition") {
    sim.precondition = value;
  } else if (key == "load-state") {
    sim.load_state = value;
  } else if (key == "save-state") {
    sim.save_state = value;
  } else if (key == "io-log") {
    options.io_log = value;
  } else if (key == "data") {
    options.data = value;
  } else if (key == "seed") {
    sim.seed = number<std::uint64_t>(key, value);
  } else if (key == "late-us") {
    options.late_us = number<double>(key, value);
    if (!(options.late_us > 0)) throw make_error("{}={}: must be above 0", key, value);
  } else {
    static const std::vector<std::string> keys = {"config",     "set",    "precondition",
                                                  "load-state", "save-state", "io-log",
                                                  "data",       "seed",   "late-us"};
    throw make_error("{}={}: unknown key{} (keys: config, set, precondition, load-state, "
                     "save-state, io-log, data, seed, late-us)",
                     key, value, did_you_mean(key, keys));
  }
}

void check_live_options(const LiveOptions& options) {
  if (options.sim.config.empty()) throw make_error("config=FILE.toml: required");
  if (!options.sim.load_state.empty() && !options.sim.precondition.empty())
    throw make_error(
        "precondition={}: with load-state={} the state is the checkpoint's; give one of them",
        options.sim.precondition, options.sim.load_state);
}

}  // namespace ssdlab::sim
