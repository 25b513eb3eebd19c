#include "sim/results/io_csv.h"

#include <array>

#include "common/error.h"
#include "sim/results/output.h"

namespace ssdlab::sim {

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
  const std::string wrong = parse_io_csv_row(text_, row);
  if (!wrong.empty()) throw make_error("{}: {}", where(), wrong);
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
      if (at == std::string::npos)
        throw make_error("{}:{}: not a refused.csv row", path.string(), number);
      commas[k] = at;
    }
    const auto field = [&](std::size_t k) {
      return std::string_view(line).substr(commas[k] + 1, commas[k + 1] - commas[k] - 1);
    };
    IoKey key{line.substr(0, commas[0]), 0, 0, 0};
    if (!parse_csv_integer(field(0), std::get<1>(key)) ||
        !parse_csv_integer(field(1), std::get<2>(key)) ||
        !parse_csv_integer(field(2), std::get<3>(key)))
      throw make_error("{}:{}: not a refused.csv row", path.string(), number);
    keys.insert(std::move(key));
  }
  return keys;
}

}  // namespace ssdlab::sim
