// Parsing and printing of sizes ("32KiB", "1GiB", 4096) and simulated time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ssdlab {

// Simulated time: integer nanoseconds everywhere.
using TimeNs = std::int64_t;

// Parses a byte count: a plain integer, or a number followed by one of
// B, KiB, MiB, GiB, TiB, also KB, MB, GB, TB and k/K/M/G/T, all binary (as
// fio reads them with its default kb_base=1024: "4KB" is 4096 bytes).
// Returns nullopt when the text is not a size.
std::optional<std::uint64_t> parse_size(std::string_view text);

// "4 KiB", "1.5 GiB", "27.2 GiB" for human-readable output.
std::string format_size(std::uint64_t bytes);

// Microseconds with exactly three decimals, from nanoseconds, without floating
// point: 130600 -> "130.600". The io.csv contract (DESIGN.md) needs this.
std::string format_us(TimeNs ns);
char* format_us(TimeNs ns, char* out);  // writes into out, returns the end

}  // namespace ssdlab
