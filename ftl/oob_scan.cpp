#include "ftl/oob_scan.h"

#include <stdexcept>

namespace ssdlab::ftl {

using flash::kNoPage;
using flash::Ppn;

OobScan scan_oob(const flash::NandArray& nand, std::uint64_t logical_pages,
                 std::uint32_t pages_per_lpn, RecoveryPolicy policy) {
  if (!nand.records_sequence_numbers())
    throw std::logic_error("an OOB scan needs the sequence numbers of a power-cut run");
  const flash::Geometry& g = nand.geometry();
  OobScan scan;
  scan.latest.assign(logical_pages, kNoPage);
  std::vector<std::uint64_t> best(logical_pages, 0);
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint32_t written = nand.write_pointer(block);
    scan.pages_read += written + (written < g.pages_per_block ? 1 : 0);
    const Ppn first = g.first_page(block);
    for (std::uint32_t page = 0; page + pages_per_lpn <= written; page += pages_per_lpn) {
      const Lpn lpn = nand.lpn_at(first + page);
      if (lpn == flash::kNoLpn || lpn >= logical_pages) continue;  // padding or torn
      bool intact = true;
      for (std::uint32_t i = 1; i < pages_per_lpn; ++i)
        intact = intact && nand.lpn_at(first + page + i) == lpn;
      if (!intact) continue;
      const std::uint64_t sequence = nand.sequence_at(first + page + pages_per_lpn - 1);
      // The deliberately wrong policy keeps whatever instance it meets last
      // in block order (for the test that shows why sequence numbers matter).
      const bool newer = policy == RecoveryPolicy::kLastInBlockOrder || sequence > best[lpn];
      if (!newer) continue;
      best[lpn] = sequence;
      scan.latest[lpn] = first + page;
    }
  }
  if (policy == RecoveryPolicy::kLastInBlockOrder) return scan;
  for (const flash::NandArray::TrimRecord& trim : nand.trims())
    for (Lpn lpn = trim.first; lpn < trim.end && lpn < logical_pages; ++lpn)
      if (scan.latest[lpn] != kNoPage && best[lpn] < trim.sequence) scan.latest[lpn] = kNoPage;
  return scan;
}

}  // namespace ssdlab::ftl
