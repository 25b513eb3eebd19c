// The text of a TOML file, checked for what the TOML parser (toml++ 3.3, as
// Debian ships it) must not see: a non-ASCII character where whitespace may
// stand (outside strings and comments) reaches its __builtin_unreachable for
// code points such as U+00E9 (undefined behaviour; found by fuzz/sweep_fuzz).
// TOML allows non-ASCII only in strings and comments anyway, so refusing it
// elsewhere loses nothing.
#pragma once

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "common/error.h"

namespace ssdlab {

// The 1-based line of the first non-ASCII byte outside strings and
// comments, 0 if none.
inline std::size_t non_ascii_outside_strings(std::string_view text) {
  enum class In { kCode, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral } in = In::kCode;
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto next = [&](std::string_view s) { return text.substr(i, s.size()) == s; };
    if (c == '\n') {
      ++line;
      if (in == In::kComment || in == In::kBasic || in == In::kLiteral) in = In::kCode;
      continue;
    }
    switch (in) {
      case In::kCode:
        if (static_cast<unsigned char>(c) >= 0x80) return line;
        if (c == '#') {
          in = In::kComment;
        } else if (next("\"\"\"")) {
          in = In::kMultiBasic, i += 2;
        } else if (next("'''")) {
          in = In::kMultiLiteral, i += 2;
        } else if (c == '"') {
          in = In::kBasic;
        } else if (c == '\'') {
          in = In::kLiteral;
        }
        break;
      case In::kComment:
        break;
      case In::kBasic:
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') ++i;
        else if (c == '"') in = In::kCode;
        break;
      case In::kLiteral:
        if (c == '\'') in = In::kCode;
        break;
      case In::kMultiBasic:
        if (c == '\\' && i + 1 < text.size()) {
          if (text[i + 1] == '\n') ++line;
          ++i;
        } else if (next("\"\"\"")) {
          in = In::kCode, i += 2;
        }
        break;
      case In::kMultiLiteral:
        if (next("'''")) in = In::kCode, i += 2;
        break;
    }
  }
  return 0;
}

// Throws "`origin`:LINE: ..." for what non_ascii_outside_strings() finds.
inline void check_toml_text(std::string_view text, const std::string& origin) {
  if (const std::size_t line = non_ascii_outside_strings(text))
    throw make_error(
        "{}:{}: a non-ASCII character outside a string or a comment (TOML allows them only "
        "there)",
        origin, line);
}

// Reads the TOML file `path` and checks it; "path: cannot open" if it cannot.
inline std::string read_toml_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw make_error("{}: cannot open", path);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  check_toml_text(text, path);
  return text;
}

}  // namespace ssdlab
