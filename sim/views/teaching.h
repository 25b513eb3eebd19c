// The teaching views of a run (README, "Teaching"): the flash timeline
// (--timeline) and the FTL step log (--trace-ftl). Both observe an Ssd and
// change nothing it does: io.csv is the same with and without them.
#pragma once

#include <cstdint>
#include <fstream>
#include <iosfwd>
#include <memory>
#include <string>

#include "sim/views/ftl_trace.h"
#include "sim/controller/ssd.h"
#include "sim/results/output.h"
#include "sim/views/timeline_trace.h"

namespace ssdlab::sim {

struct TeachingOptions {
  std::string timeline;            // --timeline FILE.json
  std::string timeline_window;     // --timeline-window START:END (simulated µs)
  std::uint64_t timeline_ios = 0;  // --timeline-ios N (0: not given)
  std::uint64_t trace_ftl = 0;     // --trace-ftl N: first N host I/Os (0: off)
  std::string trace_ftl_file;      // --trace-ftl-file FILE (default: stderr)
};

// Attaches the views `options` asks for to `ssd` (before preconditioning, so
// that the step log's shadow map sees every write) and detaches them when
// destroyed. Throws ssdlab::Error on bad option values.
class TeachingViews {
 public:
  TeachingViews(Ssd& ssd, const TeachingOptions& options);
  ~TeachingViews();
  TeachingViews(const TeachingViews&) = delete;
  TeachingViews& operator=(const TeachingViews&) = delete;

  // At the end of a successful run, before the run's outputs are committed:
  // completes the views' files. Throws ssdlab::OutputError naming a file that
  // could not be written (a full disk), so that the run fails as a whole.
  void finish();
  // Then: renames the timeline and the step log into place and says where
  // the views went. Until then both are fresh temporary files beside their
  // targets (TemporaryFile): a failed run leaves an earlier file as it was.
  void commit(std::ostream& out);

 private:
  Ssd& ssd_;
  std::unique_ptr<TimelineTrace> timeline_;
  std::unique_ptr<TemporaryFile> trace_temporary_;  // --trace-ftl-file's, until commit()
  std::ofstream trace_file_;                        // writes trace_temporary_
  std::unique_ptr<FtlTrace> ftl_trace_;
  std::string trace_ftl_file_;
  bool finished_ = false;
};

}  // namespace ssdlab::sim
