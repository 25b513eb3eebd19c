// The zoned FTL (ftl.type = "zoned"; docs/zns.md): a ZNS SSD's controller.
// It keeps no page map and never cleans: each zone is a fixed set of erase
// blocks, `zone_width` dies wide (ConfZNS's parameter, Song et al., "ConfZNS:
// A Novel Emulation Framework for Zoned Namespace SSDs", 2023, §3), and a
// logical page's place in its zone names its physical page. The host writes
// a zone sequentially at its write pointer (or appends to it) and resets it
// whole; a reset erases the zone's blocks. The zone states, the open and
// active limits and the refusals follow the NVMe Zoned Namespace Command Set
// 1.1 (ZNS), as its ZonedDevice interface (zones.h) says.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "ftl/ftl.h"
#include "ftl/zones.h"

namespace ssdlab::ftl {

// The zoned FTL's own [ftl] keys (zoned_keys.cpp; docs/reference/config.md).
enum class ZoneFinish : std::uint8_t { kMark, kPad };
struct ZonedKeys {
  std::uint32_t zone_width = 0;        // dies a zone stripes over; 0: every die
  std::uint64_t zone_size = 0;         // bytes; 0: one block per plane of its dies
  std::uint64_t zone_capacity = 0;     // writable bytes of a zone; 0: the zone size
  std::uint32_t max_open_zones = 0;    // 0: no limit
  std::uint32_t max_active_zones = 0;  // 0: no limit
  ZoneFinish finish = ZoneFinish::kMark;
  // The controller's time for a zone command that touches no flash (an open,
  // a close, a finish that only marks, a refusal); no datasheet gives it.
  double command_us = 1.0;
  // The zone random write area (NVMe TP 4076; zoned_zrwa.cpp): its bytes (0:
  // none), its flush granularity (0: a page), and ZRWAs at once (0: any).
  std::uint64_t zrwa_size = 0, zrwa_flush_granularity = 0;
  std::uint32_t max_zrwa_zones = 0;
};

class ZonedFtl final : public Ftl, public ZonedDevice {
 public:
  explicit ZonedFtl(const FtlContext& context);

  // --- Ftl ---
  std::string_view name() const override { return "zoned"; }
  std::uint64_t logical_pages() const override { return zones_ * zone_pages_; }
  void write(const PageRange& range, CommandList& out) override;
  void read(const PageRange& range, CommandList& out) override;
  void trim(const PageRange& range, CommandList& out) override;
  bool is_mapped(Lpn lpn) const override { return nand_.is_valid(page_of(lpn)); }
  void check_invariants() const override;
  const FtlStats& stats() const override { return stats_; }
  const FtlConfig& config() const override { return config_; }
  const flash::NandArray& nand() const override { return nand_; }
  flash::NandArray* flash_for_power_cut() override { return &nand_; }
  flash::Ppn locate(Lpn lpn) const override { return is_mapped(lpn) ? page_of(lpn) : flash::kNoPage; }
  void recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report) override;
  void save_state(StateWriter& out) const override;
  void load_state(StateReader& in) override;
  ZonedDevice* zoned() override { return this; }
  // A write buffer packs each zone's pages apart, in stripes over its planes.
  std::uint32_t pool_of_page(Lpn lpn) const override {
    return static_cast<std::uint32_t>(lpn / zone_pages_);
  }

  // --- ZonedDevice ---
  std::uint64_t zones() const override { return zones_; }
  std::uint64_t zone_pages() const override { return zone_pages_; }
  std::uint64_t capacity_pages() const override { return capacity_pages_; }
  ZoneReport zone(std::uint64_t index) const override {
    return {zones_state_[index].state, zones_state_[index].write_pointer};
  }
  const records::ZoneCounters& zone_counters() const override { return counters_; }
  ZoneStatus admit_write(Lpn first, std::uint32_t count) override;
  ZoneStatus admit_append(std::uint64_t index, std::uint32_t count, Lpn& first) override;
  ZoneStatus check_read(Lpn first, std::uint32_t count) const override;
  double command_us() const override { return keys_.command_us; }
  ZoneStatus reset(std::uint64_t index, CommandList& out) override;
  ZoneStatus finish(std::uint64_t index, CommandList& out) override;
  ZoneStatus open(std::uint64_t index) override;
  ZoneStatus close(std::uint64_t index) override;
  void count_refusal(ZoneStatus status) override;
  bool has_zrwa(std::uint64_t index) const override { return zrwa_.count(index) != 0; }
  ZoneStatus write_zrwa(Lpn first, std::uint32_t count, Commit& commit) override;
  ZoneStatus flush_zrwa(Lpn last, Commit& commit) override;
  Commit commit_zrwa(std::uint64_t index) override;

 private:
  struct Zone {
    ZoneState state = ZoneState::kEmpty;
    // Finished by a finish command: device metadata, kept over a power cut
    // (as the offline state is).
    bool finished = false;
    std::uint32_t write_pointer = 0;  // pages from the zone's start
  };

  // The physical page of logical page `lpn` (zoned_layout in zoned.cpp).
  flash::Ppn page_of(Lpn lpn) const;
  flash::BlockId& block(std::uint64_t zone, std::uint32_t unit, std::uint32_t row_block) {
    return blocks_[(zone * units_ + unit) * blocks_per_unit_ + row_block];
  }
  flash::BlockId block(std::uint64_t zone, std::uint32_t unit, std::uint32_t row_block) const {
    return blocks_[(zone * units_ + unit) * blocks_per_unit_ + row_block];
  }
  ZoneStatus writable(const Zone& zone) const;
  // Takes the open and active resources a zone in `from` needs to be open;
  // closes an implicitly open zone for it if the open limit is reached.
  ZoneStatus take_resources(std::uint64_t index, ZoneState to);
  // A write to zone `index` opens it, implicitly unless it is open explicitly.
  ZoneStatus open_for_write(std::uint64_t index);
  void set_state(std::uint64_t index, ZoneState to);
  ZoneStatus refuse(ZoneStatus status);
  // A reset's erases, with worn blocks replaced from the plane's spare.
  void erase_zone(std::uint64_t index, CommandList& out);
  void pad_zone(std::uint64_t index, CommandList& out);
  // The state a zone's write pointer and marks give after a mount or load.
  ZoneState state_from(const Zone& zone) const;
  void recover_zone(std::uint64_t zone, std::uint64_t reset_at, CommandList& out,
                    RecoveryReport& report);
  void recount();
  // ZRWAs (zoned_zrwa.cpp): whether zone `index` may get the ZRWA an explicit
  // open asks for (success, or the status that refuses the open; open()
  // allocates it); `advance` pages of its ZRWA committed.
  ZoneStatus zrwa_allowed(std::uint64_t index) const;
  Commit commit(std::uint64_t index, std::uint32_t advance);
  void check_zrwa(std::uint64_t zone) const;

  flash::FastGeometry geometry_;
  FtlConfig config_;
  ZonedKeys keys_;
  flash::NandArray nand_;
  std::uint32_t units_ = 0;            // planes a zone stripes over (its dies' planes)
  std::uint32_t blocks_per_unit_ = 0;  // blocks of a zone in each of its planes
  std::uint32_t groups_ = 0;           // zone_width-die groups of the device
  std::uint64_t zones_ = 0, zone_pages_ = 0, capacity_pages_ = 0;
  std::vector<flash::BlockId> blocks_;                 // zone x unit x row block
  std::vector<std::vector<flash::BlockId>> spare_;     // per plane: blocks no zone holds
  std::vector<Zone> zones_state_;
  std::vector<std::uint64_t> implicitly_open_;  // in the order they opened
  // Per zone with a ZRWA, which pages above its write pointer the host wrote
  // there (twice the ZRWA's pages: the ZRWA and its implicit flush range).
  std::map<std::uint64_t, std::vector<bool>> zrwa_;
  std::uint32_t zrwa_pages_ = 0, zrwa_granule_ = 1;  // pages
  std::uint32_t open_ = 0, active_ = 0;
  records::ZoneCounters counters_ = new_zone_counters();
  FtlStats stats_;
};

}  // namespace ssdlab::ftl
