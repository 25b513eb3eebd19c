#include "sim/ssd.h"

#include <algorithm>

namespace ssdlab::sim {

Ssd::Ssd(const DeviceConfig& config, bool verify)
    : config_(config),
      ftl_(ftl::make_ftl({config.geometry, config.ftl, 0})),
      timeline_(config.geometry, config.timing),
      logical_bytes_(ftl_->logical_pages() * ftl_->logical_page_size()) {
  if (verify) verifier_.emplace(config.geometry, ftl_->logical_pages(), config.ftl.copy_back);
  commands_.reserve(1024);
}

ftl::PageRange Ssd::to_range(std::uint64_t offset, std::uint64_t size) const {
  const std::uint64_t page = ftl_->logical_page_size();
  const std::uint64_t end = offset + size;
  ftl::PageRange range;
  range.first = static_cast<ftl::Lpn>(offset / page);
  range.count = static_cast<std::uint32_t>((end + page - 1) / page - offset / page);
  range.partial_first = offset % page != 0 || (range.count == 1 && end % page != 0);
  range.partial_last = end % page != 0;
  return range;
}

TimeNs Ssd::schedule(TimeNs now) {
  TimeNs completion = now;
  TimeNs stage_start = now;
  std::uint8_t stage = 0;
  for (const flash::Command& command : commands_) {
    if (command.stage != stage) {
      stage = command.stage;
      stage_start = completion;  // every earlier stage has completed by then
    }
    completion = std::max(completion, timeline_.schedule(command, stage_start));
  }
  return completion;
}

TimeNs Ssd::submit(const HostRequest& request, TimeNs now) {
  const ftl::PageRange range = to_range(request.offset, request.size);
  commands_.clear();
  if (request.write) {
    ftl_->write(range, commands_);
    if (verifier_) verifier_->host_write(range, commands_);
  } else {
    ftl_->read(range, commands_);
    if (verifier_) verifier_->host_read(range, commands_);
  }
  return schedule(now);
}

std::uint64_t Ssd::prefill(std::uint64_t offset, std::uint64_t size) {
  const ftl::PageRange whole = to_range(offset, size);
  std::uint64_t written = 0;
  for (ftl::Lpn lpn = whole.first; lpn < whole.first + whole.count; ++lpn) {
    if (ftl_->is_mapped(lpn)) continue;
    const ftl::PageRange one{lpn, 1, false, false};
    commands_.clear();
    ftl_->write(one, commands_);
    if (verifier_) verifier_->host_write(one, commands_);
    ++written;
  }
  return written;
}

}  // namespace ssdlab::sim
