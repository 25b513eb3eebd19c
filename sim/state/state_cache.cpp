#include "sim/state/state_cache.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <ostream>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/host_info.h"
#include "common/log.h"
#include "common/units.h"
#include "sim/config/config.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

constexpr const char* kStateExtension = ".state";

// A name no other process or thread writes to, beside `file`.
fs::path private_name(const fs::path& file) {
  const std::size_t thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
  return file.string() + fmt::format(".{}-{:x}.part", ::getpid(), thread);
}

bool is_cache_file(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.ends_with(kStateExtension) || name.ends_with(".part") || name.ends_with(".tmp") ||
         name.ends_with(".lock") ||  // StateLock's
         name.ends_with(".partial");  // a TemporaryFile (sim/results/output.h)
}

}  // namespace

fs::path state_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "ssdlab";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "ssdlab";
  return {};
}

std::optional<std::uint64_t> state_cache_limit() {
  const char* text = std::getenv("SSDLAB_STATE_CACHE_SIZE");
  if (!text || !*text) return kDefaultStateCacheBytes;
  if (std::string_view(text) == "unlimited") return std::nullopt;
  if (const auto bytes = parse_size(text)) return *bytes;
  throw make_error(
      "SSDLAB_STATE_CACHE_SIZE={}: not a size (such as 20GiB) nor \"unlimited\" (the most the "
      "preconditioned-state cache keeps)",
      text);
}

namespace {

// The keys that shape only how the device serves requests in simulated time:
// preconditioning runs functionally (no simulated time, no flash scheduler,
// no host queues or link: precondition.h), so a state made under one value
// of them is the state under any other, and a sweep over them (dispatch
// orders, suspend, a link, weights) preconditions once (issue 57 item 9; a
// checkpoint loads across them likewise, checkpoint_compare.cpp). The
// write buffer, namespaces and the host log stay in the key: they hold or
// place data; so does controller.background_cleaning_preempt, whose
// cleaner's pools are part of the state (Ssd::save_state). Flash errors
// ([errors]) are out too: preconditioning reads nothing, and every block it
// writes is as old as the run's age says when the run starts, with or
// without the part's section in the state (ReadErrors::adopt_unstamped), so
// a sweep over ages and ECCs preconditions once.
void drop_keys_of_time_only(nlohmann::json& config) {
  config.erase("timing");
  config.erase("errors");
  if (auto it = config.find("controller"); it != config.end())
    for (const char* key : {"dispatch_order", "flin", "firmware", "data_path", "cleaning_wait"})
      it->erase(key);
  if (auto it = config.find("host"); it != config.end())
    for (const char* key : {"link", "queue_depth", "scheduling", "queues", "arbitration",
                            "arbitration_burst", "weight_high", "weight_medium", "weight_low",
                            "firmware_us"})
      it->erase(key);
}

}  // namespace

nlohmann::json state_cache_key(const DeviceConfig& config, const workloads::PreconditionSpec& spec,
                               std::uint64_t seed) {
  nlohmann::json resolved = to_json(config);
  resolved.erase("source");  // where it came from is not state
  resolved.erase("name");
  drop_keys_of_time_only(resolved);
  // The build too: two builds of one version (a fix, a local change) may
  // make different states, and on a cluster they share one cache folder.
  return {{"ssdlab_version", SSDLAB_VERSION},
          {"build", build_digest()},
          {"checkpoint_format", kCheckpointFormat},
          {"config", resolved},
          {"precondition", spec.text},
          {"seed", seed}};
}

fs::path state_cache_file(const fs::path& dir, const nlohmann::json& key) {
  const std::string text = key.dump();
  // (A collision is caught by comparing the stored key anyway.)
  return dir / (text_digest(key.dump()) + kStateExtension);
}

std::optional<StateRecord> load_cached_state(const fs::path& dir, const nlohmann::json& key,
                                             Ssd& ssd, RunPosition& position) {
  const fs::path file = state_cache_file(dir, key);
  std::error_code error;
  if (!fs::exists(file, error)) return std::nullopt;
  std::string why;
  const std::optional<LoadedCheckpoint> loaded = try_load_checkpoint(file, ssd, position, why);
  if (!loaded) {
    if (!fs::exists(file, error)) return std::nullopt;  // trimmed by another run meanwhile
    logger("sim")->warn("state cache: ignoring an unusable file ({}); it will be replaced", why);
    return std::nullopt;
  }
  const std::optional<Provenance::Cache>& cached = loaded->info.provenance.cache;
  if (!cached || cached->state_cache_key != key)
    // The state is loaded already, so the run cannot go on with it.
    throw make_error(
        "{}: a cached state of another key under this key's name (a hash collision); remove "
        "it with 'ssdlab cache clear'",
        file.string());
  StateRecord figures = cached->figures;
  figures.state_cache = "hit";
  figures.state_file = file.string();
  figures.load_seconds = loaded->seconds;
  fs::last_write_time(file, fs::file_time_type::clock::now(), error);  // its last use
  return figures;
}

bool store_cached_state(const fs::path& dir, const nlohmann::json& key, const Ssd& ssd,
                        const RunPosition& position, const StateRecord& figures,
                        std::optional<std::uint64_t> limit) {
  if (limit == 0u) return false;  // the cache keeps nothing
  const fs::path file = state_cache_file(dir, key);
  const fs::path part = private_name(file);
  std::error_code error;
  try {
    fs::create_directories(dir, error);
    if (error) throw make_error("{}: cannot create the folder: {}", dir.string(), error.message());
    const Provenance provenance{
        .saved_after = "preconditioning",
        .workload = "none",
        .seed = key.at("seed").get<std::uint64_t>(),
        .precondition = key.at("precondition").get<std::string>(),
        .simulated_us = 0.0,
        .cache = Provenance::Cache{.state_cache_key = key, .figures = figures}};
    save_checkpoint(part, ssd, position, provenance);
    fs::rename(part, file, error);
    if (error) throw make_error("{}: cannot rename into place: {}", file.string(), error.message());
    if (!limit) return true;
    if (const std::uint64_t bytes = fs::file_size(file, error); !error && bytes > *limit) {
      fs::remove(file, error);
      throw make_error(
          "the state ({}) is larger than the cache's limit ({}, "
          "SSDLAB_STATE_CACHE_SIZE)",
          format_size(bytes), format_size(*limit));
    }
    trim_state_cache(dir, *limit, file);
    return true;
  } catch (const Error& failure) {
    fs::remove(part, error);
    logger("sim")->warn("state cache: the state was not saved: {}", failure.what());
    return false;
  }
}

StateLock::StateLock(const fs::path& dir, const nlohmann::json& key) {
  std::error_code error;
  fs::create_directories(dir, error);
  path_ = state_cache_file(dir, key).string() + ".lock";
  for (;;) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    if (::flock(fd_, LOCK_EX) != 0) break;
    struct stat held {}, named {};
    if (::fstat(fd_, &held) == 0 && ::stat(path_.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino)
      return;  // locked, and still the lock file
    ::close(fd_);  // its holder removed it while this one waited: try the name again
  }
  ::close(fd_);
  fd_ = -1;
}

StateLock::~StateLock() {
  if (fd_ < 0) return;
  // Removed while held, so that no one locks a file that is gone.
  ::unlink(path_.c_str());
  ::close(fd_);  // releases the flock
}

namespace {

std::vector<fs::path> cache_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
    if (it->is_regular_file(error) && is_cache_file(it->path())) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

struct StateFile {
  fs::path path;
  std::uint64_t bytes = 0;
  fs::file_time_type used;  // its modification time: when it was stored or last loaded
};

// The states among `files` (cache_files()), most recently used first (by
// name among equals).
std::vector<StateFile> states_by_use(const std::vector<fs::path>& files) {
  std::vector<StateFile> states;
  for (const fs::path& file : files) {
    if (!file.string().ends_with(kStateExtension)) continue;
    std::error_code size_error, time_error;
    StateFile state{file, fs::file_size(file, size_error), fs::last_write_time(file, time_error)};
    if (!size_error && !time_error) states.push_back(std::move(state));  // (else removed meanwhile)
  }
  std::stable_sort(states.begin(), states.end(),
                   [](const StateFile& a, const StateFile& b) { return a.used > b.used; });
  return states;
}

void require_dir(const fs::path& dir) {
  if (dir.empty())
    throw Error("no cache folder: set XDG_CACHE_HOME or HOME (the cache is $XDG_CACHE_HOME/ssdlab)");
}

std::string limit_name(std::optional<std::uint64_t> limit) {
  return limit ? format_size(*limit) : std::string("unlimited");
}

}  // namespace

TrimResult trim_state_cache(const fs::path& dir, std::uint64_t limit, const fs::path& keep) {
  const std::vector<StateFile> states = states_by_use(cache_files(dir));
  TrimResult result;
  for (const StateFile& state : states) result.kept_bytes += state.bytes;
  result.kept = states.size();
  for (auto it = states.rbegin(); it != states.rend() && result.kept_bytes > limit; ++it) {
    std::error_code error;
    if (it->path.filename() == keep.filename() || !fs::remove(it->path, error)) continue;
    ++result.removed;
    --result.kept;
    result.freed_bytes += it->bytes;
    result.kept_bytes -= it->bytes;
  }
  return result;
}

void run_cache_list(const fs::path& dir, std::ostream& out) {
  require_dir(dir);
  const std::optional<std::uint64_t> limit = state_cache_limit();
  std::uint64_t total = 0;
  const std::vector<fs::path> files = cache_files(dir);
  const std::vector<StateFile> states = states_by_use(files);
  for (const StateFile& state : states) {
    total += state.bytes;
    const auto used =
        std::chrono::floor<std::chrono::seconds>(std::chrono::file_clock::to_sys(state.used));
    const std::string head =
        fmt::format("{}  {}  last used {:%Y-%m-%d %H:%M:%S} UTC", state.path.filename().string(),
                    format_size(state.bytes), used);
    try {
      const std::optional<Provenance::Cache> cached =
          checkpoint_info(state.path).info.provenance.cache;
      if (!cached) throw make_error("saved without a state cache key (not by the cache)");
      const nlohmann::json& key = cached->state_cache_key;
      fmt::print(out, "{}  precondition {} seed {} on {}\n", head,
                 key.at("precondition").get<std::string>(), key.at("seed").dump(),
                 key.at("config").at("geometry").dump());
    } catch (const std::exception& e) {
      fmt::print(out, "{}  unusable: {}\n", head, e.what());
    }
  }
  for (const fs::path& file : files) {
    if (file.string().ends_with(kStateExtension)) continue;
    std::error_code error;
    const std::uint64_t bytes = fs::file_size(file, error);
    total += error ? 0 : bytes;
    // A lock is removed by its holder (StateLock): one left is a state being
    // made now, or a killed run's (empty, harmless).
    fmt::print(out, "{}  {}  ({})\n", file.filename().string(), format_size(error ? 0 : bytes),
               file.extension() == ".lock"
                   ? "a lock: a state being made now, or left by a killed run"
                   : "a temporary file: being written, or left by a crash");
  }
  fmt::print(out, "{}: {} cached states, {} in all; limit {} (SSDLAB_STATE_CACHE_SIZE)\n",
             dir.string(), states.size(), format_size(total), limit_name(limit));
}

void run_cache_trim(const fs::path& dir, std::optional<std::uint64_t> limit, std::ostream& out) {
  require_dir(dir);
  if (!limit) limit = state_cache_limit();
  if (!limit) {
    fmt::print(out,
               "{}: the cache has no limit (SSDLAB_STATE_CACHE_SIZE=unlimited); nothing "
               "removed\n",
               dir.string());
    return;
  }
  const TrimResult trimmed = trim_state_cache(dir, *limit);
  fmt::print(out, "{}: removed {} least recently used states, {}; kept {}, {} (limit {})\n",
             dir.string(), trimmed.removed, format_size(trimmed.freed_bytes), trimmed.kept,
             format_size(trimmed.kept_bytes), limit_name(limit));
}

void run_cache_clear(const fs::path& dir, std::ostream& out) {
  require_dir(dir);
  std::uint64_t freed = 0;
  std::size_t removed = 0;
  for (const fs::path& file : cache_files(dir)) {
    std::error_code size_error, remove_error;
    const std::uint64_t bytes = fs::file_size(file, size_error);
    if (!fs::remove(file, remove_error)) continue;
    if (file.extension() == ".lock") continue;  // (empty: StateLock's, not counted)
    ++removed;
    if (!size_error) freed += bytes;
  }
  fmt::print(out, "{}: removed {} files, {}\n", dir.string(), removed, format_size(freed));
}

}  // namespace ssdlab::sim
