#include "sim/state/checkpoint.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <fstream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "common/log.h"
#include "common/state_io.h"
#include "sim/config/config.h"
#include "sim/results/summary.h"
#include "sim/state/checkpoint_compare.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'S', 'S', 'D', 'L', 'A', 'B', 'C', 'K'};
static_assert(kCheckpointMagic == std::string_view(kMagic, sizeof kMagic));
// magic, version, state bytes, info bytes
constexpr std::uint64_t kHeaderBytes = 8 + 4 + 8 + 4;
constexpr std::uint32_t kMaxInfoBytes = 1 << 20;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The config as saved: without where it came from, which is not state.
nlohmann::json config_json(const DeviceConfig& config) {
  nlohmann::json json = to_json(config);
  json.erase("source");
  json.erase("name");
  return json;
}

void write_state(StateWriter& out, const Ssd& ssd, const RunPosition& position) {
  ssd.save_state(out);
  out.section("RUNP", 1);
  out.i64(position.now);
  out.u32(position.state_resets);
}

void read_state(StateReader& in, Ssd& ssd, RunPosition& position) {
  ssd.load_state(in);
  in.section("RUNP", 1);
  position.now = in.i64();
  position.state_resets = in.u32();
  // The clock leaves room for trace times (traces::kMaxTraceTimeNs) on top.
  if (position.now < 0 || position.now > (std::int64_t{1} << 61))
    throw make_error("corrupt: the clock is {} ns", position.now);
}

// Reads `bytes` at the stream's position; "truncated" if the file ends first.
void read_exactly(std::istream& in, void* data, std::size_t bytes, std::uint64_t file_size) {
  in.read(static_cast<char*>(data), static_cast<std::streamsize>(bytes));
  if (static_cast<std::size_t>(in.gcount()) != bytes)
    throw make_error("truncated: {} bytes, too short for a checkpoint header", file_size);
}

// The CRC-32 of the first `bytes` bytes of `in`, read in large blocks.
std::uint32_t checksum(std::istream& in, std::uint64_t bytes) {
  Crc32 crc;
  std::vector<char> buffer(1 << 20);
  in.seekg(0);
  while (bytes > 0) {
    const std::size_t chunk = std::min<std::uint64_t>(bytes, buffer.size());
    in.read(buffer.data(), static_cast<std::streamsize>(chunk));
    if (static_cast<std::size_t>(in.gcount()) != chunk)
      throw make_error("could not read the file to its end");
    crc.update(buffer.data(), chunk);
    bytes -= chunk;
  }
  return crc.value();
}

}  // namespace

PendingCheckpoint write_checkpoint(const fs::path& path, const Ssd& ssd,
                                   const RunPosition& position, const Provenance& provenance) {
  const auto start = std::chrono::steady_clock::now();
  const CheckpointInfo info_record{.ssdlab_version = SSDLAB_VERSION,
                                   .format = kCheckpointFormat,
                                   .config = config_json(ssd.config()),
                                   .provenance = provenance};
  const std::string info = nlohmann::json(info_record).dump();
  StateWriter counter(nullptr);  // sizes the state first, so the header can hold its length
  write_state(counter, ssd, position);

  PendingCheckpoint pending;
  pending.file = std::make_unique<TemporaryFile>(path);
  std::uint64_t bytes = 0;
  bool written = false;
  {
    // Written through the temporary's own descriptor, with a large buffer;
    // the stream is gone before the file is closed.
    __gnu_cxx::stdio_filebuf<char> buffer(pending.file->file(), std::ios::out | std::ios::binary,
                                          1 << 20);
    std::ostream file(&buffer);
    StateWriter out(&file);
    out.bytes(kMagic, sizeof kMagic);
    out.u32(kCheckpointFormat);
    out.u64(counter.written());
    out.u32(static_cast<std::uint32_t>(info.size()));
    out.bytes(info.data(), info.size());
    write_state(out, ssd, position);
    std::uint32_t crc = out.crc();
    if constexpr (std::endian::native != std::endian::little) crc = byte_swapped(crc);
    file.write(reinterpret_cast<const char*>(&crc), sizeof crc);
    file.flush();
    written = static_cast<bool>(file);
    bytes = out.written() + sizeof crc;
  }
  if (!pending.file->close() || !written)
    throw make_error("{}: writing the checkpoint failed (disk full?)", path.string());
  pending.saved = {.file = path.string(),
                   .bytes = bytes,
                   .seconds = std::round(seconds_since(start) * 1000) / 1000};
  return pending;
}

SavedCheckpoint save_checkpoint(const fs::path& path, const Ssd& ssd, const RunPosition& position,
                                const Provenance& provenance) {
  PendingCheckpoint pending = write_checkpoint(path, ssd, position, provenance);
  pending.publish();
  return pending.saved;
}

namespace {

// A checkpoint whose header, length, checksum and info are checked: its
// size, the length of its info block, and the info.
struct CheckedFile {
  std::uint64_t size = 0;
  std::uint32_t info_bytes = 0;
  CheckpointInfo info;
};

// Opens `path` into `file` and checks it; throws ssdlab::Error (without the
// file name) on the first thing wrong.
CheckedFile open_checked(const fs::path& path, std::ifstream& file) {
  CheckedFile checked;
  std::error_code error;
  const std::uint64_t size = checked.size = fs::file_size(path, error);
  if (error) throw make_error("cannot open the checkpoint: {}", error.message());
  file.open(path, std::ios::binary);
  if (!file) throw make_error("cannot open the checkpoint");

  char magic[sizeof kMagic] = {};
  file.read(magic, sizeof magic);
  if (file.gcount() != sizeof magic || std::memcmp(magic, kMagic, sizeof magic) != 0)
    throw make_error("not an ssdlab checkpoint (it does not start with SSDLABCK)");
  if (size < kHeaderBytes)
    throw make_error("truncated: {} bytes, too short for a checkpoint header", size);
  StateReader header(file, sizeof magic);
  const std::uint32_t format = header.u32();
  if (format != kCheckpointFormat)
    throw make_error("checkpoint format version {}; this ssdlab ({}) reads version {}", format,
                     SSDLAB_VERSION, kCheckpointFormat);
  const std::uint64_t state_bytes = header.u64();
  const std::uint32_t info_bytes = checked.info_bytes = header.u32();
  if (info_bytes > kMaxInfoBytes || state_bytes > (std::uint64_t{1} << 48))
    throw make_error("corrupt: the header gives {} bytes of info and {} of state", info_bytes,
                     state_bytes);
  const std::uint64_t expected = kHeaderBytes + info_bytes + state_bytes + 4;
  if (size < expected)
    throw make_error("truncated: {} bytes, but the header says the checkpoint has {}", size,
                     expected);
  if (size > expected)
    throw make_error("corrupt: {} bytes, but the header says the checkpoint has {}", size,
                     expected);
  std::uint32_t stored = 0;
  file.seekg(static_cast<std::streamoff>(size - 4));
  read_exactly(file, &stored, sizeof stored, size);
  if constexpr (std::endian::native != std::endian::little) stored = byte_swapped(stored);
  const std::uint32_t computed = checksum(file, size - 4);
  if (stored != computed)
    throw make_error(
        "checksum mismatch (CRC-32 {:08x} stored, {:08x} computed): the file is corrupt", stored,
        computed);

  std::string info(info_bytes, '\0');
  file.seekg(static_cast<std::streamoff>(kHeaderBytes));
  read_exactly(file, info.data(), info.size(), size);
  const nlohmann::json json = nlohmann::json::parse(info, nullptr, false);
  if (json.is_discarded()) throw make_error("corrupt: the info block is not JSON");
  // A file altered with its checksum recomputed must fail here, naming the
  // field, not where the field is used (a missing "provenance" was once read
  // through a const operator[]).
  try {
    checked.info = checkpoint_info_from_json(json, "the info block");
  } catch (const Error& error) {
    throw make_error("corrupt: {}", error.what());
  }
  return checked;
}

}  // namespace

void check_checkpoint_fits(const CheckpointInfo& info, const DeviceConfig& config) {
  (void)compare_config(info.config, config_json(config));
}

CheckpointFile checkpoint_info(const fs::path& path) {
  try {
    std::ifstream file;
    CheckedFile checked = open_checked(path, file);
    return {.file = path.string(), .bytes = checked.size, .info = std::move(checked.info)};
  } catch (const Error& error) {
    throw make_error("{}: {}", path.string(), error.what());
  }
}

namespace {

// Loads the state of the checked `file` into `ssd`; the rest of load_checkpoint().
LoadedCheckpoint load_checked(const fs::path& path, std::ifstream& file, CheckedFile& checked,
                              Ssd& ssd, RunPosition& position,
                              std::chrono::steady_clock::time_point start) {
  try {
    const std::uint64_t size = checked.size;
    std::vector<std::string> differs =
        compare_config(checked.info.config, config_json(ssd.config()));

    StateReader in(file, kHeaderBytes + checked.info_bytes);
    read_state(in, ssd, position);
    if (in.read() != size - 4)
      throw make_error("corrupt: the state ends at byte {}, the header says {}", in.read(),
                       size - 4);
    const double seconds = std::round(seconds_since(start) * 1000) / 1000;
    return {{.file = path.string(), .bytes = size, .info = std::move(checked.info)},
            seconds,
            std::move(differs)};
  } catch (const std::logic_error& error) {
    // With --verify the loaded state's invariants are checked: one that
    // passes its checksum but breaks them was saved by a faulty build.
    throw make_error("{}: inconsistent state: {}", path.string(), error.what());
  } catch (const Error& error) {
    throw make_error("{}: {}", path.string(), error.what());
  }
}

}  // namespace

LoadedCheckpoint load_checkpoint(const fs::path& path, Ssd& ssd, RunPosition& position) {
  std::string why;
  std::optional<LoadedCheckpoint> loaded = try_load_checkpoint(path, ssd, position, why);
  if (!loaded) throw Error(why);
  // (A state cache's load is silent: its key leaves these keys out by
  // design, state_cache.cpp; a checkpoint the user gives says so.)
  if (!loaded->config_differs.empty())
    logger("sim")->warn("{}: loaded into a device whose {} differ from the saved one's",
                        path.string(), nlohmann::json(loaded->config_differs).dump());
  return std::move(*loaded);
}

std::optional<LoadedCheckpoint> try_load_checkpoint(const fs::path& path, Ssd& ssd,
                                                    RunPosition& position, std::string& why) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<char> buffer(1 << 20);
  std::ifstream file;
  file.rdbuf()->pubsetbuf(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  CheckedFile checked;
  try {
    checked = open_checked(path, file);
  } catch (const Error& error) {
    why = fmt::format("{}: {}", path.string(), error.what());
    return std::nullopt;
  }
  return load_checked(path, file, checked, ssd, position, start);
}

void print_loaded(std::ostream& out, const LoadedCheckpoint& loaded) {
  const Provenance& made = loaded.info.provenance;
  fmt::print(out, "loaded state {} ({:.1f} MB in {:.2f} s): saved after {}, {} us simulated\n",
             loaded.file, static_cast<double>(loaded.bytes) / 1e6, loaded.seconds, made.saved_after,
             made.simulated_us);
}

void print_saved(std::ostream& out, const std::optional<SavedCheckpoint>& saved) {
  if (!saved) return;
  if (saved->skipped) {
    fmt::print(out, "  state not saved: {}\n", *saved->skipped);
    return;
  }
  fmt::print(out, "  state saved:  {} ({:.1f} MB in {:.2f} s)\n", saved->file,
             static_cast<double>(saved->bytes) / 1e6, saved->seconds);
}

}  // namespace ssdlab::sim
