#include "sim/state/state_cache.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
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
#include "common/log.h"
#include "sim/controller/config.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

constexpr const char* kStateExtension = ".state";

// FNV-1a, 64 bits, from `basis`: two of them name a file (a collision is
// caught by comparing the stored key anyway).
std::uint64_t fnv1a(const std::string& text, std::uint64_t basis) {
  std::uint64_t hash = basis;
  for (const unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

// A name no other process or thread writes to, beside `file`.
fs::path private_name(const fs::path& file) {
  const std::size_t thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
  return file.string() + fmt::format(".{}-{:x}.part", ::getpid(), thread);
}

bool is_cache_file(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.ends_with(kStateExtension) || name.ends_with(".part") || name.ends_with(".tmp");
}

}  // namespace

fs::path state_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "ssdlab";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "ssdlab";
  return {};
}

nlohmann::json state_cache_key(const DeviceConfig& config, const PreconditionSpec& spec,
                               std::uint64_t seed) {
  nlohmann::json resolved = to_json(config);
  resolved.erase("source");  // where it came from is not state
  resolved.erase("name");
  return {{"ssdlab_version", SSDLAB_VERSION},
          {"checkpoint_format", kCheckpointFormat},
          {"config", resolved},
          {"precondition", spec.text},
          {"seed", seed}};
}

fs::path state_cache_file(const fs::path& dir, const nlohmann::json& key) {
  const std::string text = key.dump();
  return dir / fmt::format("{:016x}{:016x}{}", fnv1a(text, 0xcbf29ce484222325ULL),
                           fnv1a(text, 0x84222325cbf29ce4ULL), kStateExtension);
}

std::optional<nlohmann::json> load_cached_state(const fs::path& dir, const nlohmann::json& key,
                                                Ssd& ssd, RunPosition& position) {
  const fs::path file = state_cache_file(dir, key);
  std::error_code error;
  if (!fs::exists(file, error)) return std::nullopt;
  std::string why;
  const nlohmann::json loaded = try_load_checkpoint(file, ssd, position, why);
  if (loaded.is_null()) {
    logger("sim")->warn("state cache: ignoring an unusable file ({}); it will be replaced", why);
    return std::nullopt;
  }
  const nlohmann::json& provenance = loaded["provenance"];
  if (!provenance.contains("state_cache_key") || provenance["state_cache_key"] != key)
    // The state is loaded already, so the run cannot go on with it.
    throw make_error(
        "{}: a cached state of another key under this key's name (a hash collision); remove "
        "it with 'ssdlab cache clear'",
        file.string());
  nlohmann::json figures = provenance["figures"];
  figures["state_cache"] = "hit";
  figures["state_file"] = file.string();
  figures["load_seconds"] = loaded["seconds"];
  return figures;
}

bool store_cached_state(const fs::path& dir, const nlohmann::json& key, const Ssd& ssd,
                        const RunPosition& position, const nlohmann::json& figures) {
  const fs::path file = state_cache_file(dir, key);
  const fs::path part = private_name(file);
  std::error_code error;
  try {
    fs::create_directories(dir, error);
    if (error) throw make_error("{}: cannot create the folder: {}", dir.string(), error.message());
    const nlohmann::json provenance = {{"saved_after", "preconditioning"},
                                       {"workload", "none"},
                                       {"precondition", key["precondition"]},
                                       {"seed", key["seed"]},
                                       {"state_cache_key", key},
                                       {"figures", figures},
                                       {"simulated_us", 0.0}};
    save_checkpoint(part, ssd, position, provenance);
    fs::rename(part, file, error);
    if (error) throw make_error("{}: cannot rename into place: {}", file.string(), error.message());
    return true;
  } catch (const Error& failure) {
    fs::remove(part, error);
    logger("sim")->warn("state cache: the state was not saved: {}", failure.what());
    return false;
  }
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

void require_dir(const fs::path& dir) {
  if (dir.empty())
    throw Error("no cache folder: set XDG_CACHE_HOME or HOME (the cache is $XDG_CACHE_HOME/ssdlab)");
}

}  // namespace

void run_cache_list(const fs::path& dir, std::ostream& out) {
  require_dir(dir);
  std::uint64_t total = 0;
  std::size_t states = 0;
  for (const fs::path& file : cache_files(dir)) {
    std::error_code error;
    const std::uint64_t bytes = fs::file_size(file, error);
    total += error ? 0 : bytes;
    if (!file.string().ends_with(kStateExtension)) {
      fmt::print(out, "{}  {:.1f} MB  (a temporary file: being written, or left by a crash)\n",
                 file.filename().string(), static_cast<double>(bytes) / 1e6);
      continue;
    }
    ++states;
    try {
      const nlohmann::json info = checkpoint_info(file);
      const nlohmann::json& key = info["provenance"]["state_cache_key"];
      fmt::print(out, "{}  {:.1f} MB  precondition {} seed {} on {}\n", file.filename().string(),
                 static_cast<double>(bytes) / 1e6, key["precondition"].get<std::string>(),
                 key["seed"].dump(), key["config"]["geometry"].dump());
    } catch (const std::exception& e) {
      fmt::print(out, "{}  {:.1f} MB  unusable: {}\n", file.filename().string(),
                 static_cast<double>(bytes) / 1e6, e.what());
    }
  }
  fmt::print(out, "{}: {} cached states, {:.1f} MB in all\n", dir.string(), states,
             static_cast<double>(total) / 1e6);
}

void run_cache_clear(const fs::path& dir, std::ostream& out) {
  require_dir(dir);
  std::uint64_t freed = 0;
  std::size_t removed = 0;
  for (const fs::path& file : cache_files(dir)) {
    std::error_code size_error, remove_error;
    const std::uint64_t bytes = fs::file_size(file, size_error);
    if (!fs::remove(file, remove_error)) continue;
    ++removed;
    if (!size_error) freed += bytes;
  }
  fmt::print(out, "{}: removed {} files, {:.1f} MB\n", dir.string(), removed,
             static_cast<double>(freed) / 1e6);
}

}  // namespace ssdlab::sim
