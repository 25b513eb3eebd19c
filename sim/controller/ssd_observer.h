// What an Ssd reports to observers: the command lists its FTL emits and the
// host requests it completes. The verifier (verifier_check.h) and the
// teaching views (--timeline, --trace-ftl) are observers; an Ssd without
// observers pays one emptiness check per request. An observer may also ask
// for the candidates of each victim (Ssd::explain_victims,
// ftl/victim_explanation.h).
#pragma once

#include <cstdint>

#include "common/host_io.h"
#include "common/units.h"
#include "flash/command.h"
#include "ftl/ftl.h"
#include "ftl/victim_explanation.h"

namespace ssdlab::sim {

// Where a command list came from.
enum class CommandSource : std::uint8_t {
  kHostWrite,   // a host write (foreground cleaning included)
  kHostRead,    // a host read
  kHostTrim,    // a host trim
  kBackground,  // background cleaning while the host is idle
  kFunctional,  // preconditioning and prefill: no simulated time
};

class SsdObserver {
 public:
  virtual ~SsdObserver() = default;
  // The FTL's commands, before they are scheduled; `ranges`: the host's
  // range, several for a write of runs (a write buffer's flush packing
  // them), none for background work. An observer may throw to stop the run
  // (the verifier's ftl::VerificationError).
  virtual void commands(CommandSource /*source*/, ftl::PageRuns /*ranges*/,
                        const flash::CommandList& /*commands*/) {}
  // A host request was scheduled at `submitted` and completes at `done`.
  virtual void request_done(const HostIo& /*request*/, TimeNs /*submitted*/, TimeNs /*done*/) {}
};

}  // namespace ssdlab::sim
