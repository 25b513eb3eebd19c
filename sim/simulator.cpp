#include "sim/simulator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/run_samples.h"

namespace ssdlab::sim {

void Simulator::submit_next(std::uint32_t index) {
  Process& process = processes_[index];
  if (process.issued >= count_) return;
  if (expired_limit_ && ssd_.ftl().stats().blocks_retired >= expired_limit_) {
    expired_ = true;
    return;
  }
  const workloads::IoRequest io = process.generator.next();
  if (io.delay_ns > 0) {
    // Time function pause/burst: the slot idles, and with a single slot so
    // does the device, which may clean in the background meanwhile. (With
    // more slots others may submit during the pause: clean one round only.)
    const bool alone = processes_.size() * queue_depth_ == 1;
    ssd_.idle(now_, alone ? now_ + io.delay_ns : now_ + 1);
    ++process.issued;  // reserved now, so that the count holds across slots
    queue_.push(now_ + io.delay_ns, Arrival{index, true, io});
    return;
  }
  ++process.issued;
  submit(index, io);
}

void Simulator::submit(std::uint32_t index, const workloads::IoRequest& io, std::uint64_t retry) {
  const bool fresh = retry == kFresh;
  const QueuedRequest request{index, fresh ? next_io_[index]++ : retry, now_, io, !fresh};
  if (host_queue_.unlimited()) return dispatch(request);
  host_queue_.arrive(request);
  dispatch_waiting();
}

void Simulator::dispatch(const QueuedRequest& r) {
  const workloads::IoRequest& io = r.request;
  const TimeNs done = ssd_.submit(HostRequest{io.offset, io.size, io.write}, now_);
  if (!r.resubmitted) plan_cut_during(done);
  // The response time counts the wait in the host queue.
  queue_.push(done, Completion{r.process, io.size, r.io, io.offset, r.arrived, io.write});
}

void Simulator::plan_cut_during(TimeNs done) {
  if (next_io_cut_ < cut_plan_.ios.size() && cut_plan_.ios[next_io_cut_].io == submitted_) {
    const double fraction = cut_plan_.ios[next_io_cut_++].fraction;
    io_cuts_at_.push_back(now_ + static_cast<TimeNs>(fraction * static_cast<double>(done - now_)));
  }
  ++submitted_;
}

void Simulator::dispatch_waiting() {
  while (auto request = host_queue_.dispatch()) dispatch(*request);
}

RunResult Simulator::run(const workloads::ExperimentSpec& spec, std::uint32_t run,
                         std::uint64_t seed) {
  if (spec.run_pause_ns > 0) {  // uFLIP §4.3: let earlier work settle
    ssd_.idle(now_, now_ + spec.run_pause_ns);
    now_ += spec.run_pause_ns;
  }
  const TimeNs start = now_;
  const nlohmann::json before = device_counters(ssd_);
  processes_.clear();
  count_ = spec.count;
  queue_depth_ = spec.queue_depth;
  next_io_.assign(spec.processes, 0);
  host_queue_.clear();
  for (std::uint32_t p = 0; p < spec.processes; ++p)
    processes_.push_back(Process{workloads::IoGenerator(spec, p, ssd_.logical_bytes(),
                                                        workloads::stream_seed(seed, run, p))});
  for (std::uint32_t p = 0; p < spec.processes; ++p)
    for (std::uint32_t q = 0; q < spec.queue_depth; ++q) queue_.push(start, Arrival{p});

  // Every completion in order, so that the start-up phase can be cut after
  // the fact (8 bytes per I/O: run_samples.h).
  RunSamples samples(spec);

  RunResult result;
  expired_ = false;
  while (!queue_.empty()) {
    if (const auto at = next_cut(); at && queue_.next_time() > *at) {
      cut_power(*at);
      continue;
    }
    auto entry = queue_.pop();
    now_ = entry.time;
    try {
      if (const auto* arrival = std::get_if<Arrival>(&entry.event)) {
        if (arrival->paused)
          submit(arrival->process, arrival->io, arrival->retry);
        else
          submit_next(arrival->process);
        continue;
      }
      const auto& done = std::get<Completion>(entry.event);
      const TimeNs response = now_ - done.submitted;
      if (log_)
        log_->row(spec.name, run, done.process, done.io, done.submitted - start, response,
                  done.write, done.offset, done.size);
      samples.add(done.submitted - start, response, done.io, done.size);
      if (host_queue_.unlimited()) {
        submit_next(done.process);
        continue;
      }
      // The slot frees first; the process's next I/O then queues behind those
      // waiting, and the policy picks among all of them.
      host_queue_.complete();
      submit_next(done.process);
      dispatch_waiting();
    } catch (const ftl::EndOfLife& error) {
      // The I/O that hit it never completes; those outstanding are dropped.
      result.stopped = error.what();
      result.end_of_life = true;
      while (!queue_.empty()) queue_.pop();
      host_queue_.clear();
    }
  }
  if (expired_ && !result.end_of_life)
    result.stopped = fmt::format("{} blocks expired (lifetime limit {})",
                                 ssd_.ftl().stats().blocks_retired, expired_limit_);

  result.stats = samples.summarize(&result.startup);
  if (!result.stopped.empty()) {
    // Stopped early: the run is the I/Os that completed, not its count.
    const std::uint64_t measured = result.stats.count - result.stats.ignored;
    result.stats.count = samples.completed();
    result.stats.ignored = samples.completed() - measured;
  }
  result.run = run;
  result.start_ns = start;
  result.end_ns = now_;
  result.device =
      counters_delta(before, device_counters(ssd_), ssd_.config().geometry.pages_per_block);
  return result;
}

void Simulator::plan_power_cuts(PowerCutPlan plan) {
  if (!ssd_.power_cuts_enabled())
    throw std::logic_error("power cuts planned on an Ssd without them");
  cut_plan_ = std::move(plan);
  std::sort(cut_plan_.times.begin(), cut_plan_.times.end());
  std::sort(cut_plan_.ios.begin(), cut_plan_.ios.end(),
            [](const auto& a, const auto& b) { return a.io < b.io; });
}

std::uint64_t Simulator::power_cuts_not_reached() const {
  return (cut_plan_.times.size() - next_time_cut_) + (cut_plan_.ios.size() - next_io_cut_) +
         io_cuts_at_.size();
}

std::optional<TimeNs> Simulator::next_cut() const {
  std::optional<TimeNs> at;
  if (!io_cuts_at_.empty()) at = *std::min_element(io_cuts_at_.begin(), io_cuts_at_.end());
  if (next_time_cut_ < cut_plan_.times.size())
    at = std::min(at.value_or(cut_plan_.times[next_time_cut_]), cut_plan_.times[next_time_cut_]);
  if (at) at = std::max(*at, mounted_at_);  // no cut while mounting
  return at;
}

void Simulator::cut_power(TimeNs at) {
  const auto earliest = std::min_element(io_cuts_at_.begin(), io_cuts_at_.end());
  if (earliest != io_cuts_at_.end() && std::max(*earliest, mounted_at_) == at)
    io_cuts_at_.erase(earliest);
  else
    ++next_time_cut_;
  PowerCutReport report = ssd_.power_cut(at);
  mounted_at_ = report.mount_done;
  // What is left in the queue lies after the cut: completions of I/Os in
  // flight (not acknowledged: resubmitted once mounted) and arrivals (none
  // before the mount ends).
  std::vector<EventQueue<Event>::Entry> later;
  while (!queue_.empty()) later.push_back(queue_.pop());
  for (auto& entry : later) {
    if (const auto* done = std::get_if<Completion>(&entry.event)) {
      if (!host_queue_.unlimited()) host_queue_.complete();  // its slot frees at the cut
      const workloads::IoRequest io{done->offset, done->size, done->write, 0};
      queue_.push(report.mount_done, Arrival{done->process, true, io, done->io});
      ++report.requests_resubmitted;
    } else {
      queue_.push(std::max(entry.time, report.mount_done), std::move(entry.event));
    }
  }
  cuts_.push_back(report);
  if (!report.recovered())
    throw ftl::VerificationError(fmt::format(
        "power cut {} at {} us: {} acknowledged page writes lost, {} trimmed pages back; first: {}",
        cuts_.size(), format_us(at), report.lost_writes, report.resurrected_pages,
        report.first_problem));
}

nlohmann::json device_counters(const Ssd& ssd) {
  const ftl::FtlStats& f = ssd.ftl().stats();
  const flash::TimelineStats& t = ssd.timeline().stats();
  nlohmann::json counters = {
      {"host_pages_written", f.host_pages_written},
      {"flash_pages_written", f.flash_pages_written},
      {"host_pages_read", f.host_pages_read},
      {"flash_pages_read", f.flash_pages_read},
      {"rmw_pages_read", f.rmw_pages_read},
      {"unmapped_pages_read", f.unmapped_pages_read},
      {"erases", f.erases},
      {"copy_backs", f.copy_backs},
      {"inter_plane_moves", f.inter_plane_moves},
      {"trimmed_pages", f.trimmed_pages},
      {"pages_moved", f.copy_backs + f.inter_plane_moves},
      {"blocks_cleaned", f.blocks_cleaned},
      {"background_blocks_cleaned", f.background_blocks_cleaned},
      {"pages_reclaimed", f.pages_reclaimed},
      {"blocks_cleaned_per_pool", f.blocks_cleaned_per_pool},
      {"switch_merges", f.switch_merges},
      {"partial_merges", f.partial_merges},
      {"full_merges", f.full_merges},
      {"padding_pages", f.padding_pages},
      {"blocks_retired", f.blocks_retired},
      {"wear_deferrals", f.wear_deferrals},
      {"wear_migrations", f.wear_migrations},
      {"wear_migrated_pages", f.wear_migrated_pages},
      {"wear_migrations_per_pool", f.wear_migrations_per_pool},
      {"cleaning_time_us", ssd.cleaning_ns() / 1000.0},
      // Agrawal et al. §3.3: what background cleaning takes off the
      // host's path. Foreground: started by host writes and flushes.
      {"foreground_blocks_cleaned", f.blocks_cleaned - f.background_blocks_cleaned},
      {"foreground_cleaning_time_us", ssd.foreground_cleaning_ns() / 1000.0},
      {"background_cleaning_time_us", ssd.background_cleaning_ns() / 1000.0},
      {"two_plane_commands", t.two_plane_commands},
      {"bus_busy_us", t.bus_busy_ns / 1000.0},
      {"die_busy_us", t.die_busy_ns / 1000.0}};
  // --- DFTL (ftl/dftl.cpp; 0 for the other FTLs); the hit ratio: add_ratios ---
  counters["map_cache_hits"] = f.map_cache_hits;
  counters["map_cache_misses"] = f.map_cache_misses;
  counters["translation_pages_read"] = f.translation_pages_read;
  counters["translation_pages_written"] = f.translation_pages_written;
  counters["translation_blocks_cleaned"] = f.translation_blocks_cleaned;
  // --- end DFTL ---
  if (const WriteBuffer* buffer = ssd.write_buffer()) {
    const WriteBufferStats& b = buffer->stats();
    counters["write_buffer_write_pages"] = b.write_pages;
    counters["write_buffer_coalesced_pages"] = b.coalesced_pages;
    counters["write_buffer_read_hit_pages"] = b.read_hit_pages;
    counters["write_buffer_read_miss_pages"] = b.read_miss_pages;
    counters["write_buffer_flushed_pages"] = b.flushed_pages;
    counters["write_buffer_flushes"] = b.flushes;
    counters["write_buffer_full_waits"] = b.full_waits;
    counters["write_buffer_full_wait_us"] = b.full_wait_ns / 1000.0;
  }
  return counters;
}

void add_ratios(nlohmann::json& counters, std::uint32_t pages_per_block) {
  const double host = counters["host_pages_written"].get<double>();
  counters["write_amplification"] =
      host > 0 ? counters["flash_pages_written"].get<double>() / host : 0.0;
  // Superseded pages over all pages of the cleaned blocks (Agrawal §3.2).
  const double cleaned = counters["blocks_cleaned"].get<double>();
  const double reclaimed = counters["pages_reclaimed"].get<double>();
  counters["cleaning_efficiency"] = cleaned > 0 ? reclaimed / (cleaned * pages_per_block) : 0.0;
  // DFTL: lookups that found their map entry cached.
  const double lookups =
      counters["map_cache_hits"].get<double>() + counters["map_cache_misses"].get<double>();
  counters["map_cache_hit_ratio"] =
      lookups > 0 ? counters["map_cache_hits"].get<double>() / lookups : 0.0;
}

nlohmann::json counters_delta(const nlohmann::json& before, const nlohmann::json& after,
                              std::uint32_t pages_per_block) {
  nlohmann::json delta = nlohmann::json::object();
  for (const auto& [key, value] : after.items()) {
    if (value.is_array()) {  // per-pool counters
      nlohmann::json items = nlohmann::json::array();
      for (std::size_t i = 0; i < value.size(); ++i)
        items.push_back(value[i].get<std::uint64_t>() - before.at(key)[i].get<std::uint64_t>());
      delta[key] = std::move(items);
    } else if (value.is_number_unsigned())
      delta[key] = value.get<std::uint64_t>() - before.at(key).get<std::uint64_t>();
    else
      delta[key] = value.get<double>() - before.at(key).get<double>();
  }
  add_ratios(delta, pages_per_block);
  return delta;
}

nlohmann::json wear_report(const Ssd& ssd) {
  const flash::NandArray& nand = ssd.ftl().nand();
  const auto& g = nand.geometry();
  double sum = 0, squares = 0;
  std::uint64_t min_life = g.pe_cycles, expired = 0;
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint32_t erases = nand.erase_count(block);
    const std::uint64_t life = erases >= g.pe_cycles ? 0 : g.pe_cycles - erases;
    expired += life == 0;
    min_life = std::min(min_life, life);
    sum += static_cast<double>(life);
    squares += static_cast<double>(life) * static_cast<double>(life);
  }
  const double n = g.blocks();
  const double mean = sum / n;
  // Table 8: blocks by remaining life relative to the mean, in disjoint bins
  // [0, 40%), [40%, 80%), [80%, 100%), >= 100%.
  std::uint64_t bins[4] = {0, 0, 0, 0};
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint32_t erases = nand.erase_count(block);
    const double life = erases >= g.pe_cycles ? 0.0 : g.pe_cycles - erases;
    bins[life >= mean ? 3 : life >= 0.8 * mean ? 2 : life >= 0.4 * mean ? 1 : 0]++;
  }
  const ftl::FtlStats& f = ssd.ftl().stats();
  const ftl::WearConfig& w = ssd.config().ftl.wear;
  const flash::Timing& t = ssd.config().timing;
  // Flash time of migration, unloaded: each page read and programmed, each
  // source block erased (queueing shows in the response times instead).
  const double migration_us =
      (static_cast<double>(f.wear_migrated_pages) * static_cast<double>(t.read_ns + t.program_ns) +
       static_cast<double>(f.wear_migrations) * static_cast<double>(t.erase_ns)) /
      1000.0;
  return {{"rated_cycles", g.pe_cycles},
          {"wear_leveling", ftl::wear_mode_name(w.mode)},
          {"remaining_life_mean", mean},
          {"remaining_life_stddev", std::sqrt(std::max(0.0, squares / n - mean * mean))},
          {"remaining_life_min", min_life},
          {"blocks_expired", expired},
          {"blocks_retired", f.blocks_retired},
          {"remaining_life_histogram",
           {{"below_40pct_of_mean", bins[0]},
            {"below_80pct_of_mean", bins[1]},
            {"below_100pct_of_mean", bins[2]},
            {"at_or_above_mean", bins[3]}}},
          {"rate_limit_deferrals", f.wear_deferrals},
          {"migrations", f.wear_migrations},
          {"migrations_per_pool", f.wear_migrations_per_pool},
          {"migrated_pages", f.wear_migrated_pages},
          {"migration_flash_us", migration_us}};
}

}  // namespace ssdlab::sim
