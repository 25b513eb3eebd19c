#include "sim/run/state_info.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/results/summary.h"
#include "sim/state/checkpoint.h"

namespace ssdlab::sim {

void run_state_info(const std::string& path, std::ostream& out) {
  const CheckpointFile checkpoint = checkpoint_info(path);
  const CheckpointInfo& info = checkpoint.info;
  // A correct checksum is not a correct state (whoever altered the file may
  // have recomputed it): load it into a fresh device of the saved config,
  // with every check a run's load makes.
  {
    const DeviceConfig config = config_from_json(info.config, path + ": the saved config");
    Ssd ssd(config);
    RunPosition position;
    load_checkpoint(path, ssd, position);
  }
  fmt::print(out,
             "{}: ssdlab checkpoint, format {}, saved by ssdlab {}, {} bytes, checksum correct, "
             "state consistent (loaded into a fresh device)\n",
             path, info.format, info.ssdlab_version, checkpoint.bytes);
  fmt::print(out,
             "  saved after {} ({} us simulated); it loads into a device with these geometry "
             "and ftl keys:\n",
             info.provenance.saved_after, info.provenance.simulated_us);
  fmt::print(out, "{}\n", nlohmann::json(checkpoint).dump(2));
}

}  // namespace ssdlab::sim
