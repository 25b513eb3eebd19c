#include "ftl/oob_scan.h"

#include <stdexcept>

namespace ssdlab::ftl {

using flash::kNoPage;
using flash::Ppn;

bool read_by_summary(const flash::NandArray& nand, flash::BlockId block, bool summary_pages) {
  if (!summary_pages || !nand.is_full(block)) return false;
  const flash::Ppn summary =
      nand.geometry().first_page(block) + nand.geometry().pages_per_block - 1;
  return !nand.is_torn(summary);
}

std::uint32_t scan_pages_of_block(const flash::NandArray& nand, flash::BlockId block,
                                  bool summary_pages) {
  if (read_by_summary(nand, block, summary_pages)) return 1;
  const std::uint32_t written = nand.write_pointer(block);
  return written + (written < nand.geometry().pages_per_block ? 1 : 0);
}

OobScan scan_oob(const flash::NandArray& nand, std::uint64_t logical_pages,
                 std::uint32_t pages_per_lpn, RecoveryPolicy policy, bool summary_pages) {
  if (!nand.records_sequence_numbers())
    throw std::logic_error("an OOB scan needs the sequence numbers of a power-cut run");
  const flash::Geometry& g = nand.geometry();
  OobScan scan;
  scan.latest.assign(logical_pages, kNoPage);
  std::vector<std::uint64_t> best(logical_pages, 0);
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint32_t written = nand.write_pointer(block);
    scan.pages_read += scan_pages_of_block(nand, block, summary_pages);
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
