// Power cuts of the controller (power_cut.h): turning power-safe scheduling
// on, and a cut followed by the mount. The recording and the power-safe
// reservation are PowerSafeScheduling's (power_safe.h).
#include <fmt/format.h>

#include <stdexcept>

#include "common/error.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/zoned.h"
#include "sim/controller/ssd.h"
#include "sim/controller/ssd_core.h"

namespace ssdlab::sim {

void Ssd::enable_power_cuts() {
  const DeviceConfig& config = core_.config();
  PowerSafeScheduling::recoverable_flash(core_.ftl());
  if (core_.observers().verifier())
    throw make_error(
        "power cuts and --verify cannot be combined: after a cut the verifier's view of flash "
        "is wrong; every cut checks each acknowledged write itself");
  if (zoned_ && zoned_->log())
    throw make_error(
        "power cuts and [host.log] cannot be combined: the host log keeps its map in host "
        "memory and has no recovery of its own (docs/zns.md)");
  if (zoned_ && config.ftl.keys.get<ftl::ZonedKeys>().zrwa_size)
    throw make_error(
        "power cuts and ftl.zrwa_size cannot be combined: what a zone random write area holds "
        "waits in the controller's memory, whose fate at a cut TP 4076 leaves to the drive and "
        "the model does not follow (docs/zns.md)");
  if (core_.requests() != 0) throw std::logic_error("enable_power_cuts() after the first request");
  // A wordline's earlier pages are lost with a torn later program: on cells
  // programmed in several passes, their data; on one-shot cells, the pages
  // staged for the wordline's one program, where the FTL makes the wordline
  // the unit (FtlConfig::wordline_pages: the zoned and block FTLs take a
  // page as on flash when its transfer ends, docs/model.md).
  const bool multi_pass = config.geometry.cell_type != flash::CellType::kSlc &&
                          config.timing.cell.program == flash::ProgramScheme::kMultiPass;
  core_.enable_power_cuts({multi_pass ? config.geometry.bits_per_cell() : config.ftl.wordline_pages,
                           core_.map_units_per_page()});
  list_parts();
}

void SsdCore::enable_power_cuts(const PairedPages& paired) {
  // (With map units the recorder follows the FTL's units, a logical page each.)
  power_ = std::make_unique<PowerSafeScheduling>(
      map_units_.on() ? flash::Geometry{ftl_->nand().geometry()} : config_.geometry,
      map_units_.on() ? 1 : config_.ftl.logical_page_size / config_.geometry.page_size, *ftl_,
      timeline_, paired);
}

TimeNs Ssd::hold_up(TimeNs at) {
  if (!buffer_ || !buffer_->power_protected()) return at;
  buffer_->flush_all(at);
  return core_.timeline().all_done_at(at);
}

PowerCutReport Ssd::power_cut(TimeNs at, ftl::RecoveryPolicy policy) {
  if (!core_.power_cuts_enabled())
    throw std::logic_error("power_cut() without enable_power_cuts()");
  PowerCutReport report;
  report.at = at;
  const TimeNs off = hold_up(at);
  report.hold_up_ns = off - at;
  // Controller RAM: what the parts hold (pending cleaning rounds, whose
  // unreserved commands are undone below as in flight; the cores' and the
  // data path's reservations) and the buffer's contents.
  core_.each_part(&SsdPart::power_lost);
  core_.power_cut(off, buffer_ ? buffer_->discard() : std::vector<ftl::Lpn>{}, policy, report);
  return report;
}

void SsdCore::power_cut(TimeNs off, std::vector<ftl::Lpn> buffered, ftl::RecoveryPolicy policy,
                        PowerCutReport& report) {
  flash::NandArray& nand = *ftl_->flash_for_power_cut();
  power_->recorder().cut(off, nand, report, std::move(buffered));
  const ScanCost scan =
      scan_cost(nand, config_.timing,
                config_.ftl.keys.get<ftl::PageMappedKeys>().summary_page
                    ? ftl::summary_page_bytes(config_.geometry, config_.sector_size)
                    : 0,
                map_units_.units_per_page());
  report.pages_scanned = scan.pages_read;
  report.scan_ns = scan.scan_ns;
  commands_.clear();
  ftl::RecoveryReport recovery;
  ftl_->recover(policy, commands_, recovery);
  if (recovery.pages_read != scan.pages_read)
    throw std::logic_error(fmt::format("the FTL's scan read {} pages, the scan model counts {}",
                                       recovery.pages_read, scan.pages_read));
  report.mount_commands = commands_.size();
  power_->record({}, commands_);
  const TimeNs scanned = off + scan.scan_ns;
  timeline_.restart_at(scanned);
  power_->restart(scanned);
  schedule(scanned, {});  // (power-cut runs reserve in list order: power_safe.h)
  const TimeNs done = timeline_.all_done_at(scanned);
  report.merge_ns = done - scanned;
  report.mount_done = done;
  power_->settle(done);
  power_->recorder().check(*ftl_, report);
  ftl_->check_invariants();
}

}  // namespace ssdlab::sim
