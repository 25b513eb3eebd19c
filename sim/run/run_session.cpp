#include "sim/run/run_session.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <new>
#include <ostream>
#include <vector>

#include "common/error.h"

#include "sim/results/fio_export.h"
#include "ftl/ftl.h"
#include "sim/state/power_cut_plan.h"
#include "sim/report/report.h"
#include "sim/results/summary.h"
#include "sim/state/state_cache.h"
#include "sim/views/timeline_trace.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

// What no output option of a run may name: the run's inputs (the config, a
// plan file, the traces, a loaded state) and its own outputs.
std::vector<NamedPath> files_not_to_replace(const SimOptions& options) {
  const SimOptions::OptionNames& names = options.names;
  std::vector<NamedPath> files = {command_input(names.config, options.config)};
  std::error_code error;
  if (!options.workload.empty() && fs::is_regular_file(options.workload, error))
    files.push_back(command_input("-w", options.workload));
  for (const std::string& trace : options.trace_files)
    if (trace != "-") files.push_back(command_input("-w trace:" + trace, trace));
  if (!options.load_state.empty())
    files.push_back(command_input(names.load_state, options.load_state));
  const fs::path outdir(options.outdir);
  for (const char* name : kRunOutputNames)
    files.push_back({fmt::format("the run's own {} ({})", name, named(names.outdir, options.outdir)),
                     outdir / name});
  files.push_back({fmt::format("the run's own .ssdlab.lock ({})", named(names.outdir, options.outdir)),
                   outdir / ".ssdlab.lock"});
  return files;
}

// Every output file option of a run, checked before anything is written:
// none may be a directory, a FIFO or device, an input or another output; a
// checkpoint or timeline replaces only a file of its own kind.
void check_run_outputs(const SimOptions& options) {
  const std::vector<NamedPath> others = files_not_to_replace(options);
  if (!options.save_state.empty()) {
    const std::string option = named(options.names.save_state, options.save_state);
    if (same_file(options.save_state, options.outdir))
      throw make_error("{}: is the output folder; give a file name", option);
    // Written at the end of the run, into a folder that is there now (a
    // missing one would fail only after the whole run), or the output
    // folder, which the run creates.
    const fs::path folder = fs::absolute(options.save_state).lexically_normal().parent_path();
    const fs::path outdir = (fs::absolute(options.outdir) / "").lexically_normal().parent_path();
    std::error_code error;
    if (folder != outdir && !fs::is_directory(folder, error))
      throw make_error("{}: the folder {} {}; create it first", option, folder.string(),
                       fs::exists(folder, error) ? "is not a folder" : "does not exist");
    check_output_path(options.save_state, "state file", others);
    check_replaces_own_kind(options.save_state, "checkpoint", kCheckpointMagic);
  }
  const TeachingOptions& teaching = options.teaching;
  if (!teaching.timeline.empty()) {
    check_output_path(teaching.timeline, "timeline", others);
    check_replaces_own_kind(teaching.timeline, "timeline", kTimelineStart);
  }
  if (!teaching.trace_ftl_file.empty())
    check_output_path(teaching.trace_ftl_file, "FTL step log", others);
}

}  // namespace

RunSession::RunSession(const SimOptions& options, std::ostream& out)
    : options_(options), out_(out), outdir_(options.outdir) {
  check_run_outputs(options);
  if (options.state_cache)
    state_cache_limit_ = state_cache_limit();  // bad: refused before any output
  lock_ = prepare_outdir(outdir_, options.names.outdir);
  config_ = load_config(options.config, options.overrides);
  try {
    ssd_ = std::make_unique<Ssd>(
        config_, SsdChecks{.verify = options.verify, .invariants_every = options.check_every});
  } catch (const std::bad_alloc&) {
    const auto& g = config_.geometry;
    throw make_error(
        "{}: out of memory building the device: {} flash pages in {} blocks need at least "
        "{} MiB of state (maps, page states, OOB) and more was not available",
        options.config, g.pages(), g.blocks(), g.pages() * 16 / (1024 * 1024));
  }
  if (!options.power_cuts.empty()) ssd_->enable_power_cuts();  // before the first write
  views_ = std::make_unique<TeachingViews>(*ssd_, options.teaching);
  if (!options.load_state.empty()) {
    checkpoint_.loaded = load_checkpoint(options.load_state, *ssd_, position_);
    print_loaded(out, *checkpoint_.loaded);
  }
}

RunSession::~RunSession() = default;

bool RunSession::may_use_state_cache() const {
  // Power cuts record every write, teaching views watch them: both need the
  // preconditioning done, not loaded. Later state resets are not cached.
  return options_.state_cache && options_.power_cuts.empty() &&
         options_.teaching.timeline.empty() && options_.teaching.trace_ftl == 0 &&
         !loaded_state() && position_.state_resets == 0 && !state_cache_dir().empty();
}

std::optional<StateRecord> RunSession::precondition(const workloads::PreconditionSpec& spec,
                                                    const char* what) {
  const std::uint64_t seed = options_.seed + 0x9e37 * position_.state_resets;
  const bool cache = spec.kind != workloads::PreconditionSpec::Kind::kNone && may_use_state_cache();
  const nlohmann::json key = cache ? state_cache_key(config_, spec, seed) : nlohmann::json();
  std::optional<StateRecord> done;
  auto cached = cache ? load_cached_state(state_cache_dir(), key, *ssd_, position_) : std::nullopt;
  std::optional<StateLock> making;  // a miss: one process makes it, the others wait and load it
  if (cache && !cached) {
    making.emplace(state_cache_dir(), key);
    cached = load_cached_state(state_cache_dir(), key, *ssd_, position_);
  }
  if (cached) {
    done = std::move(cached);
    fmt::print(out_, "{} ({}): loaded from the state cache in {:.2f} s ({})\n", what, spec.text,
               done->load_seconds.value_or(0), done->state_file.value_or(""));
  } else {
    try {
      done = sim::precondition(*ssd_, spec, seed, options_.quiet, options_.precondition_threads,
                               options_.progress_observer);
    } catch (const ftl::EndOfLife& error) {
      // Not the run's end of life (exit 0, DEVICE END OF LIFE, a summary):
      // the workload never ran on the state it asked for, so there is
      // nothing to measure or summarise.
      throw make_error(
          "{} ({}): the device reached its end of life while being preconditioned, before the "
          "workload's I/O, so nothing was measured: {} (give geometry.pe_cycles more cycles, or "
          "precondition less)",
          what, spec.text, error.what());
    }
    ++position_.state_resets;
    if (cache && done)
      done->state_cache =
          store_cached_state(state_cache_dir(), key, *ssd_, position_, *done, state_cache_limit_)
              ? "stored"
              : "not stored";
    if (done)
      fmt::print(out_, "{} ({}): {} flash pages written in {:.2f} s, write amplification {:.3f}\n",
                 what, spec.text, done->flash_pages_written.value_or(0), done->wall_seconds,
                 done->write_amplification.value_or(0));
  }
  if (!enforced_ && !loaded_state()) {  // the initial state
    preconditioned_ = done;
    if (done) {
      const flash::NandArray& nand = ssd_->ftl().nand();
      std::uint64_t erased = 0;
      for (flash::BlockId b = 0; b < config_.geometry.blocks(); ++b) erased += nand.is_erased(b);
      const std::uint64_t kept = ssd_->ftl().spare_blocks().kept_free;
      headroom_blocks_ = erased > kept ? erased - kept : 0;
    }
  }
  enforced_ = true;
  return done;
}

// The personas review: after `--precondition random` the TLC preset at a
// tenth takes about 40,000 16 KiB writes before cleaning starts, and runs
// shorter than that measured a device that never cleaned, with nothing
// saying so.
void RunSession::print_no_cleaning_note(const SummaryRecord& summary) const {
  if (!headroom_blocks_) return;
  std::uint64_t cleaned = 0, written = 0;
  for (const ExperimentRecord& experiment : summary.experiments)
    for (const RunRecord& run : experiment.runs)
      if (run.device) {
        cleaned += run.device->ftl.blocks_cleaned;
        written += run.device->host_bytes_written;
      }
  if (cleaned > 0 || written == 0) return;
  const flash::Geometry& g = config_.geometry;
  fmt::print(out_,
             "  note: the runs wrote {} and cleaned no block: after preconditioning the device had "
             "{} erased blocks ({}) beyond the {} cleaning keeps{}, so they measured it before "
             "its steady state; write more to reach it\n",
             format_size(written), *headroom_blocks_,
             format_size(*headroom_blocks_ * g.pages_per_block * g.page_size),
             ssd_->ftl().spare_blocks().kept_free,
             ssd_->ftl().part_records().slc_cache
                 ? ", and its SLC cache takes writes before they need "
                   "cleaning"
                 : "");
}

Simulator& RunSession::start(bool io_log, std::uint64_t total_ios) {
  // The inputs are read and valid: an earlier run's outputs go now.
  clear_stale_outputs(outdir_);
  if (io_log && options_.io_log) {
    io_log_ = std::make_unique<IoLog>(outdir_ / "io.csv");
    refusal_log_ = std::make_unique<RowLog>(outdir_, "refused.csv", kRefusedCsvHeader);
    error_log_ = std::make_unique<RowLog>(outdir_, "errors.csv", kErrorsCsvHeader);
  }
  simulator_ = std::make_unique<Simulator>(*ssd_, io_log_.get());
  // A zoned device's refusals, streamed (--no-io-log: counted only).
  simulator_->log_refusals(refusal_log_.get());
  simulator_->log_media_errors(error_log_.get());
  if (io_log && options_.io_detail) {
    detail_log_ = std::make_unique<RowLog>(outdir_, "io_detail.csv", kIoDetailHeader);
    detail_ = std::make_unique<IoDetail>(*ssd_, *detail_log_);
    simulator_->track_stages(detail_.get());
  }
  simulator_->resume_at(position_.now);
  progress_ = Progress::reporting(options_.progress_observer, options_.quiet, "simulating",
                                  total_ios, "I/Os");
  simulator_->show_progress(&progress_);
  simulator_->set_percentiles(options_.percentiles);
  simulator_->set_exact_samples(options_.exact_samples);
  simulator_->stop_when_expired(options_.until_expired);
  if (!options_.power_cuts.empty())
    simulator_->plan_power_cuts(parse_power_cuts(options_.power_cuts, total_ios, options_.seed));
  // The speed printed at the end covers the simulation only (not loading or
  // preconditioning), up to io.csv being complete on disk. CPU time too: on
  // a shared machine it is the steadier figure.
  wall_start_ = std::chrono::steady_clock::now();
  cpu_start_ = std::clock();
  return *simulator_;
}

namespace {

// What `ssdlab sim` saves at the end of a run (--save-state): the state with
// its provenance (workload, seed, config, preconditioning, simulated time).
// `workload` "none": saved right after preconditioning. Not saved if the
// device reached its end of life (an FTL may stop half-way through a
// request): the result then says why under "skipped". The caller publishes
// it with the run's outputs.
PendingCheckpoint save_run_state(const SimOptions& options, const Ssd& ssd,
                                 const RunPosition& position, const std::string& workload,
                                 const std::optional<StateRecord>& preconditioned,
                                 bool end_of_life) {
  // An FTL stopped by its end of life may be half-way through a request.
  if (end_of_life)
    return {nullptr, {.skipped = "the device reached its end of life during the run"}};
  const Provenance provenance{
      .saved_after = workload == "none" ? "preconditioning" : "run",
      .workload = workload,
      .seed = options.seed,
      .precondition =
          preconditioned ? std::optional<std::string>(preconditioned->mode) : std::nullopt,
      .simulated_us = static_cast<double>(position.now) / 1000.0,
      .run = Provenance::Run{.config = options.config,
                             .sets = options.overrides,
                             .loaded_from = options.load_state.empty()
                                                ? std::nullopt
                                                : std::optional<std::string>(options.load_state),
                             .host_pages_written = ssd.ftl().stats().host_pages_written}};
  return write_checkpoint(options.save_state, ssd, position, provenance);
}

}  // namespace

void RunSession::finish(SummaryRecord& summary, const std::string& workload, bool end_of_life) {
  progress_.finish();
  simulator_->show_progress(nullptr);
  summary.schema_version = kSummarySchemaVersion;
  summary.ssdlab_version = SSDLAB_VERSION;
  summary.workload = workload;
  summary.seed = options_.seed;
  summary.logical_bytes = ssd_->logical_bytes();
  summary.precondition = preconditioned_;
  summary.simulated_us = simulator_->now() / 1000.0;
  add_device_summary(summary, *ssd_, options_.verify);
  if (!options_.power_cuts.empty()) summary.power_cuts = power_cuts_record(*simulator_);
  PendingCheckpoint state;
  if (!options_.save_state.empty()) {
    position_.now = simulator_->now();
    state = save_run_state(options_, *ssd_, position_, workload, preconditioned_, end_of_life);
    checkpoint_.saved = state.saved;
  }
  if (checkpoint_.loaded || checkpoint_.saved) summary.checkpoint = checkpoint_;
  // The checkpoint, io.csv, the fio logs (derived from the complete io.csv),
  // the teaching views' files and summary.json are complete before any is
  // renamed into place, so a failure (a full disk) leaves none of them and
  // an earlier checkpoint as it was. summary.json goes last: a folder with
  // io.csv and no summary.json is an unfinished run's (check_outputs_complete).
  if (io_log_) io_log_->finish();
  wall_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
  cpu_ = static_cast<double>(std::clock() - cpu_start_) / CLOCKS_PER_SEC;
  PendingFile summary_file(outdir_ / "summary.json", summary.text());
  if (refusal_log_) refusal_log_->finish();
  if (error_log_) error_log_->finish();
  if (detail_log_) detail_log_->finish();
  std::optional<FioLatLogs> fio_logs;
  if (io_log_ && !options_.fio_lat_log.empty())
    fio_logs.emplace(io_log_->temporary_path(), options_.fio_lat_log, "--fio-lat-log",
                     files_not_to_replace(options_));
  views_->finish();
  state.publish();
  if (io_log_) io_log_->publish();
  if (refusal_log_) refusal_log_->publish();
  if (error_log_) error_log_->publish();
  if (detail_log_) detail_log_->publish();
  try {
    if (fio_logs) fio_lat_logs_ = fio_logs->publish();
    summary_file.publish();
  } catch (const Error&) {
    std::error_code ignored;
    for (const char* name : kRunOutputNames) fs::remove(outdir_ / name, ignored);
    throw;
  }
  views_->commit(out_);
}

void RunSession::print_closing(const SummaryRecord& summary, std::uint64_t ios) const {
  // None (`-`) when the host wrote nothing.
  const auto ratio = [](std::optional<double> r) {
    return r ? fmt::format("{:.3f}", *r) : std::string("-");
  };
  fmt::print(out_,
             "  device write amplification (all writes, preconditioning included) {} by "
             "pages (flash pages / host-touched pages), {} by bytes (flash bytes / host "
             "bytes)\n  {} "
             "I/Os simulated in {:.2f} s of wall time ({:.0f} I/Os per second), {:.2f} s of CPU "
             "time ({:.0f} per CPU second)\n",
             ratio(summary.write_amplification()),
             ratio(summary.device ? summary.device->write_amplification_bytes_if_written()
                                  : std::nullopt),
             ios, wall_,
             wall_ > 0 ? static_cast<double>(ios) / wall_ : 0.0, cpu_,
             cpu_ > 0 ? static_cast<double>(ios) / cpu_ : 0.0);
  if (options_.verify)
    fmt::print(out_,
               "  verification: {} page reads checked against the latest write, all correct\n",
               ssd_->core().observers().verified_pages());
  if (!options_.power_cuts.empty()) {
    const PowerCutsRecord& cuts = *summary.power_cuts;
    fmt::print(
        out_,
        "  power cuts: {} ({} recovered, {} acknowledged writes lost, {} buffered writes "
        "lost, {} not reached); OOB scan {} pages, mount time mean {:.1f} us, max {:.1f} us\n",
        cuts.count, cuts.recovered, cuts.lost_writes, cuts.buffered_writes_lost, cuts.not_reached,
        cuts.scan_pages, cuts.mean_mount_time_us, cuts.max_mount_time_us);
    if (cuts.paired_pages_lost)
      fmt::print(out_,
                 "  paired pages: {} pages lost with a later program of their wordline that a "
                 "cut interrupted (multi-pass cells' earlier passes, one-shot cells' staged "
                 "pages)\n",
                 cuts.paired_pages_lost);
  }
  if (summary.device && summary.device->read_errors) {
    const records::ReadErrorCounters& e = *summary.device->read_errors;
    fmt::print(out_,
               "  read errors: {} page reads decoded, {} at the first read, {} after read retry "
               "({} retry reads, {:.3f} per read), {} by soft decoding, {} uncorrectable{}; {} "
               "blocks reclaimed\n",
               e.page_reads, e.corrected_first, e.corrected_retry, e.retry_reads,
               e.retries_per_read(),
               e.corrected_soft, e.uncorrectable,
               e.uncorrectable && io_log_ ? " (errors.csv)" : "", e.reclaimed_blocks);
  }
  print_no_cleaning_note(summary);
  print_saved(out_, checkpoint_.saved);
  if (io_log_) fmt::print(out_, "  io.csv:       {}\n", (outdir_ / "io.csv").string());
  if (fio_lat_logs_) print_fio_lat_logs(out_, *fio_lat_logs_, options_.fio_lat_log);
  fmt::print(out_, "  summary.json: {}\n", (outdir_ / "summary.json").string());
}

}  // namespace ssdlab::sim
