// Background cleaning (ftl.clean_high_water; Agrawal et al. §3.3, and the
// idle folding of an SLC cache, slc_cache.idle_fold;
// "Background cleaning": cleaning "performed continuously in the background
// on otherwise idle components"): the controller part that offers idle pools
// to the FTL after each request and while the host is idle.
//
// By default a round (one victim's moves and erase) is scheduled whole as
// soon as its pool is idle. With controller.background_cleaning_preempt it
// yields to the host instead: a round is taken from the FTL when its pool is
// idle, so the maps change at once, but its commands are reserved on the
// timelines lazily: each time a host request arrives, only those that would
// have started before it are reserved; the request goes next, and the rest of
// the round resumes when the dies are free again. A host request therefore
// waits for at most the one cleaning command in progress on its die (a page
// move, or an erase).
//
// Approximation: a host read of a page the round moved but has not yet
// reserved reads the destination page before its copy is scheduled; on a
// device it would read the still-valid source page, which costs the same for a
// copy-back (same plane, same die). A host program or erase on a block the
// round still works on waits for the rest of the round (before_host_commands()), so no
// page is programmed before its block is erased.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/state_io.h"
#include "common/units.h"
#include "flash/command.h"
#include "flash/timeline.h"
#include "ftl/ftl.h"
#include "sim/config/config.h"
#include "sim/controller/cleaning_clock.h"
#include "sim/controller/power_safe.h"
#include "sim/controller/ssd_observer.h"
#include "sim/controller/ssd_part.h"

namespace ssdlab::sim {

class BackgroundCleaner final : public SsdPart {
 public:
  // What the cleaner asks of the controller's core.
  class Core {
   public:
    // Cleans `pool` now as one batch: the FTL's commands through the
    // observers, the recorder and the scheduler.
    virtual void clean_pool(std::uint32_t pool, TimeNs now, Reserve reserve) = 0;
    // A round's commands, to the observers (a preemptible round's are
    // recorded, turned into the flash's commands and reserved here).
    virtual void announce(const flash::CommandList& commands) = 0;
    // Turns the FTL's commands into the flash's (map units: each unit
    // command's carrier into `carriers`, if given; sim/controller/
    // map_units.h); without map units, changes nothing and leaves `carriers`
    // empty.
    virtual void to_flash(flash::CommandList& commands, std::vector<std::uint32_t>* carriers) = 0;
    virtual PowerSafeScheduling* power_safe() = 0;
    virtual CleaningClock& cleaning() = 0;

   protected:
    ~Core() = default;
  };

  // Null if `config` cleans no pool in the background.
  static std::unique_ptr<BackgroundCleaner> make(const DeviceConfig& config, ftl::Ftl& ftl,
                                                 flash::FlashTimeline& timeline, Core& core);
  BackgroundCleaner(const DeviceConfig& config, ftl::Ftl& ftl, flash::FlashTimeline& timeline,
                    Core& core);

  // Rounds yield to host requests (their completion times must be known at
  // once, which queued dispatch cannot give).
  bool preemptible() const { return !rounds_.empty(); }
  std::size_t preemptible_pools() const { return rounds_.size(); }
  // A host request arrives at `now`: the background work that would have
  // started before it.
  void before_request(TimeNs now) override {
    if (preemptible()) advance_rounds(now);
  }
  // The host's commands of a request are about to be scheduled: a host
  // program or erase on a block a pending round works on waits for it.
  void before_host_commands(const flash::CommandList& host_commands) override {
    if (preemptible()) finish_conflicting_rounds(host_commands);
  }
  // A request was served at `now`: pools it left idle may clean (after its
  // own commands, so that it never waits for this cleaning).
  void after_request(TimeNs now, Reserve reserve) override;
  // The host sends nothing from `from` until `until`: idle pools clean,
  // round after round, as long as they want to.
  void idle(TimeNs from, TimeNs until) override;
  // Power loss: rounds not yet reserved are controller RAM (their commands
  // are undone with everything in flight).
  void power_lost() override;

  // Its checkpoint section (BGCL), where rounds are preemptible: the
  // rounds still under way, after their number (a state saved with other
  // pools is refused); not optional (the blocks half cleaned).
  std::optional<PartCheckpoint> checkpoint() const override {
    if (!preemptible()) return std::nullopt;
    return PartCheckpoint{"BGCL",
                          "preemptible background cleaning "
                          "(controller.background_cleaning_preempt, ftl.clean_high_water)",
                          false};
  }
  void save_state(StateWriter& out) const override;
  void load_state(StateReader& in) override;

 private:
  struct PendingRound {
    flash::CommandList commands;  // in stage order
    std::size_t next = 0;         // first command not yet reserved
    std::uint8_t stage = 0;       // stage of the last command reserved
    TimeNs started = 0, stage_ready = 0, stage_done = 0;
    std::vector<flash::BlockId> blocks;  // blocks it programs, erases or reads
    // Power-cut runs: the recorder ids each command completes (with map
    // units a page's units), commands[k]'s from ids[id_start[k]] on.
    std::vector<std::uint64_t> ids;
    std::vector<std::uint32_t> id_start;
    bool pending() const { return next < commands.size(); }
  };
  bool pool_idle(std::uint32_t pool, TimeNs now) const;
  // The next moment after `now` a pool is idle again (preemptible: a pool
  // that wants cleaning and has no round pending); `until` if none. Asked
  // only while the host is idle.
  TimeNs next_idle(TimeNs now, TimeNs until) const;
  // Cleans every idle pool that wants it as one batch each. `host_idle`: in
  // an idle period of the host, not after one of its requests.
  void clean_idle_pools(TimeNs now, Reserve reserve, bool host_idle);
  // Starts a round on each idle pool that wants one and has none pending.
  void start_rounds(TimeNs now, bool host_idle);
  void sort_round(PendingRound& round);
  std::vector<std::uint32_t> carriers_;  // sort_round(): each unit command's flash command
  // Reserves the commands of pending rounds that would start before `limit`.
  void advance_rounds(TimeNs limit);
  void advance_round(PendingRound& round, TimeNs limit);
  void finish_conflicting_rounds(const flash::CommandList& host_commands);
  void idle_preemptible(TimeNs from, TimeNs until);
  void save_round(StateWriter& out, const PendingRound& round) const;
  void load_round(StateReader& in, PendingRound& round);

  const flash::Geometry geometry_;
  // The FTL's pages per flash page: its map units (ftl/page_mapped/page_mapped_units.h), or 1.
  const std::uint32_t units_per_page_;
  ftl::Ftl& ftl_;
  flash::FlashTimeline& timeline_;
  Core& core_;
  std::vector<std::vector<std::uint32_t>> pool_dies_;
  std::vector<PendingRound> rounds_;  // per pool, preemptible only
};

}  // namespace ssdlab::sim
