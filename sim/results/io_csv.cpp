#include "sim/results/io_csv.h"

#include <array>
#include <charconv>
#include <limits>

#include "common/error.h"
#include "sim/results/output.h"

namespace ssdlab::sim {
namespace {

constexpr std::size_t kFields = 9;

template <typename Integer>
bool parse_integer(std::string_view text, Integer& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

bool parse_us(std::string_view text, TimeNs& ns) {
  const auto dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (fraction.size() > 3 || (dot != std::string_view::npos && fraction.empty())) return false;
  TimeNs micro = 0, nano = 0;
  if (!parse_integer(whole, micro) || micro < 0) return false;
  if (!fraction.empty()) {
    if (fraction.front() == '-' || fraction.front() == '+' || !parse_integer(fraction, nano))
      return false;
    for (std::size_t digits = fraction.size(); digits < 3; ++digits) nano *= 10;
  }
  if (micro > std::numeric_limits<TimeNs>::max() / 1000 - 1) return false;
  ns = micro * 1000 + nano;
  return true;
}

IoCsvReader::IoCsvReader(const std::filesystem::path& path) : path_(path), in_(path) {
  if (!in_) throw make_error("{}: cannot open", path_.string());
  if (!std::getline(in_, text_))
    throw make_error("{}: empty file: not an ssdlab io.csv", path_.string());
  line_ = 1;
  if (!text_.empty() && text_.back() == '\r') text_.pop_back();
  if (text_ != kIoCsvHeader)
    throw make_error("{}: not an ssdlab io.csv: header '{}', expected '{}'", where(), text_,
                     kIoCsvHeader);
}

std::string IoCsvReader::where() const {
  return fmt::format("{}:{}", path_.string(), line_);
}

bool IoCsvReader::next(IoRow& row) {
  do {
    if (!std::getline(in_, text_)) return false;
    ++line_;
    if (!text_.empty() && text_.back() == '\r') text_.pop_back();
  } while (text_.empty());
  std::array<std::string_view, kFields> fields;
  std::size_t count = 0, start = 0;
  const std::string_view line(text_);
  while (true) {
    const auto comma = line.find(',', start);
    if (count < kFields) fields[count] = line.substr(start, comma - start);
    ++count;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (count != kFields) throw make_error("{}: expected {} fields, got {}", where(), kFields, count);
  const auto bad = [this](const char* column, std::string_view value, const char* expected) {
    return make_error("{}: {}: '{}' is not {}", where(), column, value, expected);
  };
  if (fields[0].empty()) throw make_error("{}: experiment: empty", where());
  row.experiment.assign(fields[0]);
  if (!parse_integer(fields[1], row.run)) throw bad("run", fields[1], "a run number");
  if (!parse_integer(fields[2], row.process)) throw bad("process", fields[2], "a process number");
  if (!parse_integer(fields[3], row.io)) throw bad("io", fields[3], "an I/O number");
  if (!parse_us(fields[4], row.submit_ns)) throw bad("submit_us", fields[4], "microseconds");
  if (!parse_us(fields[5], row.response_ns)) throw bad("rt_us", fields[5], "microseconds");
  const std::optional<IoMode> mode = io_mode_of_letter(fields[6]);
  if (!mode) throw bad("mode", fields[6], "R, W or T (or a zone command: A, Z, F, O or C)");
  row.mode = *mode;
  if (!parse_integer(fields[7], row.offset)) throw bad("offset", fields[7], "a byte offset");
  if (!parse_integer(fields[8], row.size)) throw bad("size", fields[8], "a size in bytes");
  return true;
}

std::set<IoKey> read_refused_keys(const std::filesystem::path& path) {
  std::set<IoKey> keys;
  std::ifstream in(path);
  if (!in) return keys;
  std::string line;
  std::getline(in, line);  // the header
  for (std::uint64_t number = 2; std::getline(in, line); ++number) {
    // experiment,run,process,io,mode,offset,size,status,code: the name is
    // what precedes the last 8 fields (it may hold commas).
    std::array<std::size_t, 8> commas{};
    std::size_t at = line.size();
    for (std::size_t k = 8; k-- > 0;) {
      at = at == 0 ? std::string::npos : line.rfind(',', at - 1);
      if (at == std::string::npos) throw make_error("{}:{}: not a refused.csv row", path.string(), number);
      commas[k] = at;
    }
    const auto field = [&](std::size_t k) {
      return std::string_view(line).substr(commas[k] + 1, commas[k + 1] - commas[k] - 1);
    };
    IoKey key{line.substr(0, commas[0]), 0, 0, 0};
    if (!parse_integer(field(0), std::get<1>(key)) || !parse_integer(field(1), std::get<2>(key)) ||
        !parse_integer(field(2), std::get<3>(key)))
      throw make_error("{}:{}: not a refused.csv row", path.string(), number);
    keys.insert(std::move(key));
  }
  return keys;
}

}  // namespace ssdlab::sim
