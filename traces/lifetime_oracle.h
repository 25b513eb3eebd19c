// The placement oracle (docs/fdp.md, "A placement oracle"): tags each write
// of a trace with a placement identifier from the lifetime of its data, as
// a host that knew the future would (issue 57 item 8). A write's data dies
// when a later write or trim of the trace covers it; its lifetime is the
// host pages written between its write and its death, the measure
// write-amplification studies place by (a page that lives N host pages is
// superseded after N more pages reach the drive). Writes are grouped into
// `classes` by lifetime, shortest first (class 0): the clusters of their
// log lifetimes (1-D k-means; data never superseded in the trace counts as
// living longer than the trace), so that two classes split hot data from
// cold where the lifetimes fall apart. A multi-page write's lifetime is
// that of its median page. With one class every write takes 0.
//
// It is an oracle, not a bound proved: the best a host can do with this
// many placement handles if it knows each write's future, through the
// drive's own FTL and cleaning; the gap to conventional placement is what
// lifetime hints can win on the trace at most with that many handles.
//
// The oracle needs the whole future: it reads the trace (after selection and
// address mapping) into memory at the first record (about 40 bytes a request
// and 16 a distinct page), then hands the records out in order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "traces/trace.h"

namespace ssdlab::traces {

struct OracleCounts {
  std::uint64_t writes = 0;            // write requests tagged
  std::uint64_t never_superseded = 0;  // of which never superseded in the trace
  // Per class: the writes and the longest finite lifetime (host pages) in it.
  std::vector<std::uint64_t> class_writes, class_max_lifetime;
};

class LifetimeOracle final : public TraceReader {
 public:
  // `page_bytes`: the unit of lifetime and of superseding (the FTL's logical
  // page); `classes`: 1 to 256.
  LifetimeOracle(TraceReader& source, std::uint32_t classes, std::uint32_t page_bytes);

  std::optional<TraceRecord> next() override;
  const OracleCounts& counts() const { return counts_; }

 private:
  void load();

  TraceReader& source_;
  std::uint32_t classes_, page_bytes_;
  bool loaded_ = false;
  std::vector<TraceRecord> records_;
  std::size_t next_ = 0;
  OracleCounts counts_;
};

}  // namespace ssdlab::traces
