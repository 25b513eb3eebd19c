// --verify as an observer of the controller (ssd_observer.h): every command
// list the FTL emits goes through ftl::Verifier, which throws
// ftl::VerificationError on the first read that misses the latest write.
#pragma once

#include <cstdint>

#include "ftl/verifier.h"
#include "sim/controller/ssd_observer.h"

namespace ssdlab::sim {

class VerifierCheck final : public SsdObserver {
 public:
  VerifierCheck(const flash::Geometry& geometry, std::uint64_t logical_pages,
                bool copy_back_allowed)
      : verifier_(geometry, logical_pages, copy_back_allowed) {}

  void commands(CommandSource source, ftl::PageRuns ranges,
                const flash::CommandList& commands) override {
    switch (source) {
      case CommandSource::kHostWrite:
      case CommandSource::kFunctional:
        return verifier_.host_write(ranges, commands);
      case CommandSource::kHostRead:
        return verifier_.host_read(ranges.front(), commands);
      case CommandSource::kHostTrim:
        return verifier_.host_trim(ranges.front(), commands);
      case CommandSource::kBackground:
        return verifier_.background(commands);
    }
  }
  std::uint64_t pages_checked() const { return verifier_.pages_checked(); }
  // After a checkpoint is loaded: the loaded data counts as written.
  void adopt(const flash::NandArray& nand) { verifier_.adopt(nand); }

 private:
  ftl::Verifier verifier_;
};

}  // namespace ssdlab::sim
