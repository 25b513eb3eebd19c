// Mount after a power cut: the scan of every page's out-of-band area that
// rebuilds an FTL's map (Agrawal et al. §3.4 "Persistence": the OOB holds the
// logical page; superseded pages appear several times during a scan, so
// recovery must find the most recent instance).
//
// The most recent instance of a logical page is the one with the highest
// write sequence number (NandArray::record_sequence_numbers): one device-wide
// counter stamped into the OOB at every program. Block order alone cannot
// tell: a page moved by cleaning into a cleaning block opened after the host
// block that later receives a newer version sits in the "newer" block but is
// the older version. A logical page spanning several flash pages counts only
// if all of them are intact (none torn), so that a torn multi-page write
// resolves to the old version, never to a mix.
#pragma once

#include <cstdint>
#include <vector>

#include "flash/nand_array.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {

struct OobScan {
  // Per logical page: the first flash page of its latest instance, or kNoPage
  // (never written, trimmed, or every instance torn).
  std::vector<flash::Ppn> latest;
  std::uint64_t pages_read = 0;  // OOB reads the scan took
};

// Scans every block of `nand` up to its write pointer (plus the first erased
// page, which tells the scan the block ends there). `pages_per_lpn`: flash
// pages per logical page; instances start at multiples of it in a block.
// Trim records newer than an instance unmap it.
//
// `summary_pages` (ftl.summary_page; Agrawal et al. §3.4, after Birrell et
// al.): a closed block's last page summarises its data pages' OOB (logical
// page and sequence number of each), so the scan reads that one page instead
// of the block's every page; an open block, or one whose summary page the
// cut tore, is scanned page by page. The summary holds exactly what the data
// pages' OOB holds: a block's pages are programmed in order, so a summary
// page that completed comes after every data page of its block (none torn).
// Only the pages read differ.
OobScan scan_oob(const flash::NandArray& nand, std::uint64_t logical_pages,
                 std::uint32_t pages_per_lpn, RecoveryPolicy policy, bool summary_pages = false);
// The pages the scan reads of `block`: 1 for a closed block with an intact
// summary page (summary_pages), else its written pages plus its first
// erased one (if any).
std::uint32_t scan_pages_of_block(const flash::NandArray& nand, flash::BlockId block,
                                  bool summary_pages);
// True if `block` is read by its summary page alone.
bool read_by_summary(const flash::NandArray& nand, flash::BlockId block, bool summary_pages);

}  // namespace ssdlab::ftl
