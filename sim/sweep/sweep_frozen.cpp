#include "sim/sweep/sweep_frozen.h"

#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <map>
#include <regex>

#include "common/error.h"
#include "common/host_info.h"
#include "sim/config/config.h"
#include "sim/results/output.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

constexpr const char* kFrozenFolder = "frozen";
constexpr const char* kJobRecord = "sweep-job.json";

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw make_error("{}: cannot open", path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The job folders (job-NNNNN, nothing else) in `outdir`.
std::vector<fs::path> job_folders(const fs::path& outdir) {
  static const std::regex kJobFolder("job-[0-9]{5,}");
  std::error_code error;
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(outdir, error))
    if (entry.is_directory(error) && !entry.is_symlink(error) &&
        std::regex_match(entry.path().filename().string(), kJobFolder))
      folders.push_back(entry.path());
  return folders;
}

// Copies of the config and plan files the jobs name, by the digest of
// their text: "frozen/DIGEST/NAME" (relative to the output folder).
class Freezer {
 public:
  explicit Freezer(const fs::path& outdir) : outdir_(outdir) {}
  std::string copy(const std::string& path) {
    if (const auto it = names_.find(path); it != names_.end()) return it->second;
    const std::string text = file_text(path);
    // Its own name kept (figures label a run by its config file's name).
    const std::string name = fmt::format("{}/{}/{}", kFrozenFolder, text_digest(text).substr(0, 16),
                                         fs::path(path).filename().string());
    pending_.emplace_back(outdir_ / name, text);
    return names_[path] = name;
  }
  void write() const {
    std::error_code error;
    for (const auto& [path, text] : pending_) {
      fs::create_directories(path.parent_path(), error);
      if (!fs::exists(path, error)) write_file_atomically(path, text);
    }
  }

 private:
  fs::path outdir_;
  std::map<std::string, std::string> names_;
  std::vector<std::pair<fs::path, std::string>> pending_;
};

}  // namespace

std::string config_digest(nlohmann::json echo) {
  for (const char* key : {"source", "name", "capacity"}) echo.erase(key);
  // Resolved by dftl when built where a config leaves it to the default
  // (summary.json holds the value that ran; the frozen config has none).
  if (echo.contains("ftl") && echo["ftl"].is_object()) echo["ftl"].erase("map_cache_entries");
  return text_digest(echo.dump());
}

FrozenList freeze_jobs(const Sweep& sweep, const std::string& plan, const fs::path& outdir) {
  const std::vector<Job>& jobs = sweep.jobs;
  Freezer freezer(outdir);
  std::map<std::string, std::string> digests;   // per config and sets
  std::map<std::string, std::size_t> state_of;  // config digest, precondition, seed -> state
  nlohmann::json list_jobs = nlohmann::json::array(), states = nlohmann::json::array();
  for (const Job& job : jobs) {
    const std::string frozen_config = freezer.copy(job.config);
    const std::string pair = nlohmann::json({job.config, job.sets}).dump();
    if (!digests.count(pair))
      digests[pair] = config_digest(to_json(load_config(job.config, job.sets)));
    nlohmann::json run_workloads = nlohmann::json::array();
    for (const std::string& workload : job.workloads) {
      std::error_code error;
      const bool plan_file = !workload.starts_with("trace:") && workload.ends_with(".toml") &&
                             fs::is_regular_file(workload, error);
      run_workloads.push_back(plan_file ? freezer.copy(workload) : workload);
    }
    nlohmann::json record = {{"id", job.id},
                             {"dir", job.dir()},
                             {"config", job.config},
                             {"sets", job.sets},
                             {"workload", job.workload},
                             {"seed", job.seed},
                             {"precondition", job.precondition},
                             {"load_state", job.load_state},
                             {"io_log", job.io_log},
                             {"fairness", job.fairness},
                             {"mode", job.mode},
                             {"qd", job.queue_depth},
                             {"speed", job.speed},
                             {"layout", job.layout},
                             {"precondition_threads", job.precondition_threads},
                             {"run", {{"config", frozen_config}, {"workloads", run_workloads}}},
                             {"config_digest", digests[pair]}};
    if (!job.precondition.empty() && job.load_state.empty()) {
      const std::string key = fmt::format("{} {} {}", digests[pair], job.precondition, job.seed);
      if (!state_of.count(key)) {
        state_of[key] = states.size();
        states.push_back({{"job", job.id}});
      }
      record["state"] = state_of[key];
    }
    record["digest"] = text_digest(record.dump());
    list_jobs.push_back(std::move(record));
  }
  nlohmann::json list = {{"sweep", plan},
                         {"sweep_id", text_digest(list_jobs.dump())},
                         {"ssdlab_version", SSDLAB_VERSION},
                         {"build", build_digest()},
                         {"jobs", std::move(list_jobs)},
                         {"states", std::move(states)}};
  if (!sweep.skipped.empty()) list["skipped"] = sweep.skipped;
  return {std::move(list), [freezer] { freezer.write(); }};
}

void publish_frozen_list(const FrozenList& frozen, const fs::path& outdir, bool replace,
                         bool clear_jobs) {
  const fs::path manifest = outdir / "jobs.json";
  const std::vector<fs::path> folders = job_folders(outdir);
  std::string held;  // what another sweep left here
  std::error_code error;
  if (fs::is_regular_file(manifest, error)) {
    nlohmann::json old;
    try {
      old = read_json_file(manifest);
    } catch (const Error&) {
    }
    const std::string id = old.is_object() ? old.value("sweep_id", "") : "";
    if (id != frozen.list.at("sweep_id").get<std::string>())
      held =
          fmt::format("the jobs.json of another sweep ({}, {} job folders)",
                      id.empty() ? std::string("an older ssdlab's") : "id " + id, folders.size());
  } else if (!folders.empty()) {
    held = fmt::format("{} job folders and no jobs.json", folders.size());
  }
  if (!held.empty() && !replace)
    throw make_error(
        "{}: holds {}: its results would pass for this sweep's; give another -o, or --replace "
        "to remove its job folders",
        outdir.string(), held);
  if (!held.empty() || clear_jobs)
    for (const fs::path& folder : folders) {
      fs::remove_all(folder, error);
      if (error)
        throw make_error("{}: cannot remove the earlier sweep's job folder: {}", folder.string(),
                         error.message());
    }
  frozen.write_copies();
  write_file_atomically(manifest, frozen.list.dump(1) + "\n");
}

nlohmann::json read_frozen_list(const fs::path& outdir) {
  const fs::path manifest = outdir / "jobs.json";
  if (!fs::is_regular_file(manifest))
    throw make_error(
        "{}: no jobs.json: not a sweep folder (`ssdlab sweep SWEEP -o {} --slurm FILE` freezes "
        "the job list there first)",
        outdir.string(), outdir.string());
  nlohmann::json list = read_json_file(manifest);
  if (!list.is_object() || !list.contains("sweep_id") || !list.contains("jobs") ||
      !list["jobs"].is_array() || !list.contains("states"))
    throw make_error(
        "{}: not a sweep folder ssdlab wrote: its jobs.json holds no frozen job list (another "
        "file, or an older ssdlab's); submit the sweep again (`ssdlab sweep SWEEP -o {} --replace`)",
        outdir.string(), outdir.string());
  return list;
}

FrozenJob frozen_job(const nlohmann::json& list, std::uint64_t id, const fs::path& outdir) {
  const nlohmann::json& jobs = list.at("jobs");
  if (id >= jobs.size())
    throw make_error("--job {}: the sweep has jobs 0 to {}", id, jobs.size() - 1);
  const nlohmann::json& r = jobs.at(id);
  std::vector<std::string> workloads;
  for (const auto& w : r.at("run").at("workloads")) {
    const std::string text = w.get<std::string>();
    workloads.push_back(
        text.starts_with(std::string(kFrozenFolder) + "/") ? (outdir / text).string() : text);
  }
  // Every field of a Job (sweep_file.h), so that a task runs what a local
  // sweep runs.
  Job job{.id = id,
          .config = (outdir / r.at("run").at("config").get<std::string>()).string(),
          .sets = r.at("sets").get<std::vector<std::string>>(),
          .workload = r.at("workload").get<std::string>(),
          .workloads = workloads,
          .seed = r.at("seed").get<std::uint64_t>(),
          .precondition = r.at("precondition").get<std::string>(),
          .load_state = r.at("load_state").get<std::string>(),
          .io_log = r.at("io_log").get<bool>(),
          .fairness = r.at("fairness").get<bool>(),
          .mode = r.at("mode").get<std::string>(),
          .layout = r.at("layout").get<std::string>(),
          .queue_depth = r.at("qd").get<std::uint32_t>(),
          .speed = r.at("speed").get<double>(),
          .precondition_threads = r.at("precondition_threads").get<unsigned>()};
  return {std::move(job), r};
}

void clear_job_record(const fs::path& job_dir) {
  std::error_code error;
  fs::remove(job_dir / kJobRecord, error);
}

void write_job_record(const nlohmann::json& list, const nlohmann::json& job,
                      const fs::path& job_dir) {
  const nlohmann::json record = {{"sweep_id", list.at("sweep_id")},
                                 {"job", job.at("id")},
                                 {"digest", job.at("digest")},
                                 {"ssdlab_version", SSDLAB_VERSION},
                                 {"build", build_digest()}};
  write_file_atomically(job_dir / kJobRecord, record.dump(1) + "\n");
}

std::string stale_result(const nlohmann::json& list, const nlohmann::json& job,
                         const fs::path& job_dir, const SummaryRecord& summary) {
  const fs::path path = job_dir / kJobRecord;
  if (!fs::is_regular_file(path))
    return fmt::format("no {}: not written by a task of this sweep that finished", kJobRecord);
  nlohmann::json record;
  try {
    record = read_json_file(path);
  } catch (const Error& error) {
    return error.what();
  }
  if (record.value("sweep_id", "") != list.at("sweep_id").get<std::string>())
    return fmt::format("a result of another sweep (id {}; this sweep's is {})",
                       record.value("sweep_id", "none"), list.at("sweep_id").get<std::string>());
  if (record.value("digest", "") != job.at("digest").get<std::string>())
    return "a result of another job of the list";
  if (summary.seed != job.at("seed").get<std::uint64_t>())
    return fmt::format("summary.json has seed {}, the job {}", summary.seed,
                       job.at("seed").get<std::uint64_t>());
  if (!summary.config || config_digest(*summary.config) != job.at("config_digest"))
    return "summary.json's config is not the job's (another config or overrides ran)";
  return "";
}

}  // namespace ssdlab::sim
