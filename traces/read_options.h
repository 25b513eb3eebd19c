// How to read a trace, as one type: its format, the options of particular
// formats (blkparse's event, MQSim's time unit), what bad lines and zero-size
// requests do, and which requests are replayed (device, start, limit, address
// map). The line parsers, TraceFile, Selection, `ssdlab sim` and
// `ssdlab trace-info` all take it. Users set its fields by name, on the
// command line (--time-unit us) and per trace (-w trace:FILE,time_unit=us),
// through read_option_keys(): an option is declared once, in read_options.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ssdlab::traces {

// How trace addresses beyond the device's logical space are mapped into it.
enum class AddressMap {
  kModulo,  // offset modulo the device size (identity for traces that fit)
  kScale,   // offset x device size / trace span (the trace's largest end)
};
const char* address_map_name(AddressMap map);
std::optional<AddressMap> parse_address_map(std::string_view name);

struct ReadOptions {
  std::string format = "auto";           // a name from formats(); "auto" is resolved by the caller
  std::optional<std::uint32_t> device;   // only this device's records
  char blk_event = 'D';                  // blkparse: replay D (issue) or Q (queue) events
  std::int64_t time_unit_ns = 1;         // MQSim: what one time unit is, in ns
  bool zero_size_is_bad = false;         // a zero-size request is a bad line (else skipped)
  bool skip_bad = false;                 // count bad lines instead of stopping at the first
  std::uint64_t start_requests = 0;      // skip this many selected requests
  std::optional<std::int64_t> start_ns;  // or skip those before this trace time
  std::uint64_t limit = 0;               // at most this many requests; 0: all
  AddressMap map = AddressMap::kModulo;
  // The ssdlab format (an io.csv): only the rows of this experiment, run and
  // process. An io.csv of several experiments or runs needs them chosen.
  std::optional<std::string> experiment;
  std::optional<std::uint32_t> run, process;
  std::string name;  // the file in messages ("stdin"); empty: its path
  // The options set through set_read_option, as their flags ("--format"), in
  // the order of read_option_keys(): what "only for trace workloads" names.
  std::vector<std::string> given;
};

// One field of ReadOptions as users give it.
struct ReadOptionKey {
  enum class Kind {
    kText,   // a word or a number, checked by `set`
    kCount,  // a positive count (the command line checks its range itself)
    kFlag,   // a flag without a value
  };
  std::string_view key;   // -w trace:FILE,KEY=value; empty: command line only
  std::string_view flag;  // on the command line, e.g. "--time-unit"
  std::string help;       // one line for --help
  Kind kind = Kind::kText;
  // Sets the field from `value` ("" for a flag); throws ssdlab::Error
  // "--time-unit 'h': expected ns, us, ms or s".
  void (*set)(ReadOptions& options, std::string_view value) = nullptr;
};

// Every option, in a fixed order.
const std::vector<ReadOptionKey>& read_option_keys();
// The option of -w key `key` ("time_unit"), or nullptr.
const ReadOptionKey* find_read_option(std::string_view key);
// Sets `option` from `value` and records its flag in options.given. Throws
// ssdlab::Error naming the flag.
void set_read_option(ReadOptions& options, const ReadOptionKey& option, std::string_view value);

}  // namespace ssdlab::traces
