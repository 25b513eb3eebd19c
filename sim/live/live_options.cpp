#include "sim/live/live_options.h"

#include <charconv>
#include <filesystem>

#include "common/error.h"
#include "common/suggest.h"
#include "sim/results/output.h"

namespace ssdlab::sim {

const char* const kLiveKeysHelp =
    "config=FILE.toml          the device config (required)\n"
    "set=table.key=value       overrides a config key (repeatable)\n"
    "precondition=MODE         seq, random[:N], uflip[:N] before serving\n"
    "load-state=FILE           start from a checkpoint (ssdlab sim --save-state)\n"
    "save-state=FILE           save the device state at shutdown\n"
    "io-log=DIR                write DIR/io.csv and DIR/summary.json at shutdown\n"
    "data=memory|sparse-file:PATH|none   where written data is kept (default memory)\n"
    "allow-destroy=true        resize a sparse file of another size (its data past the end is "
    "lost)\n"
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
  } else if (key == "allow-destroy") {
    if (value != "true" && value != "false")
      throw make_error("{}={}: expected true or false", key, value);
    options.allow_destroy = value == "true";
  } else if (key == "seed") {
    sim.seed = number<std::uint64_t>(key, value);
  } else if (key == "late-us") {
    options.late_us = number<double>(key, value);
    if (!(options.late_us > 0)) throw make_error("{}={}: must be above 0", key, value);
  } else {
    static const std::vector<std::string> keys = {
        "config", "set",  "precondition",  "load-state", "save-state",
        "io-log", "data", "allow-destroy", "seed",       "late-us"};
    throw make_error("{}={}: unknown key{} (keys: config, set, precondition, load-state, "
                     "save-state, io-log, data, allow-destroy, seed, late-us)",
                     key, value, did_you_mean(key, keys));
  }
}

void check_live_options(const LiveOptions& options) {
  const SimOptions& sim = options.sim;
  if (sim.config.empty()) throw make_error("config=FILE.toml: required");
  if (!sim.load_state.empty() && !sim.precondition.empty())
    throw make_error(
        "precondition={}: with load-state={} the state is the checkpoint's; give one of them",
        sim.precondition, sim.load_state);
  // The data file holds the client's data: it may be no other file of the
  // server's, which would overwrite it or be overwritten (as `sim` refuses
  // an output onto its own inputs and outputs).
  constexpr std::string_view kFile = "sparse-file:";
  if (!options.data.starts_with(kFile) || options.data.size() == kFile.size()) return;
  const std::string data = options.data.substr(kFile.size());
  std::vector<NamedPath> others = {command_input("config=", sim.config)};
  if (!sim.load_state.empty()) others.push_back(command_input("load-state=", sim.load_state));
  if (!sim.save_state.empty())
    others.push_back({"the server's save-state=", sim.save_state});
  if (!options.io_log.empty()) {
    others.push_back({"the io-log= folder", options.io_log});
    const std::filesystem::path folder(options.io_log);
    for (const char* name : {"io.csv", "summary.json", "refused.csv", ".ssdlab.lock"})
      others.push_back({fmt::format("the server's own {} (io-log={})", name, options.io_log),
                        folder / name});
  }
  for (const NamedPath& other : others)
    if (same_file(data, other.path))
      throw make_error("data={}: is {}; give the data another file", options.data, other.what);
  // An output's temporaries (io.csv.XXXXXX.partial) are cleared at start.
  if (!options.io_log.empty() &&
      same_file(std::filesystem::absolute(data).parent_path(),
                std::filesystem::absolute(options.io_log)) &&
      is_output_temporary(std::filesystem::path(data).filename().string()))
    throw make_error("data={}: is a name of the io-log= folder's own outputs; give the data "
                     "another file",
                     options.data);
}

}  // namespace ssdlab::sim
