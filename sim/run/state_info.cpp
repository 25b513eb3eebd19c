#include "sim/run/state_info.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/state/checkpoint.h"

namespace ssdlab::sim {

void run_state_info(const std::string& path, std::ostream& out) {
  const nlohmann::json info = checkpoint_info(path);
  // A correct checksum is not a correct state (whoever altered the file may
  // have recomputed it): load it into a fresh device of the saved config,
  // with every check a run's load makes.
  {
    const DeviceConfig config = config_from_json(info["config"], path + ": the saved config");
    Ssd ssd(config);
    RunPosition position;
    load_checkpoint(path, ssd, position);
  }
  const nlohmann::json& made = info["provenance"];
  fmt::print(out,
             "{}: ssdlab checkpoint, format {}, saved by ssdlab {}, {} bytes, checksum correct, "
             "state consistent (loaded into a fresh device)\n",
             path, info.value("format", 0), info.value("ssdlab_version", std::string("?")),
             info["bytes"].get<std::uint64_t>());
  fmt::print(out,
             "  saved after {} ({} us simulated); it loads into a device with these geometry "
             "and ftl keys:\n",
             made.value("saved_after", std::string("?")), made.value("simulated_us", 0.0));
  fmt::print(out, "{}\n", info.dump(2));
}

}  // namespace ssdlab::sim
