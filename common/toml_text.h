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
// comments, or of a control character anywhere (TOML allows none but tab),
// 0 if none. Conservative: a quote opens a string only where TOML's can (at
// the start of a line or after '=', '[', '{', ',' or '.', spaces aside), as
// the parser sees it; elsewhere what follows is still checked.
inline std::size_t non_ascii_outside_strings(std::string_view text) {
  enum class In { kCode, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral } in = In::kCode;
  std::size_t line = 1;
  char previous = '\n';  // the last character in code that is not a space or a tab
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7f) return line;
    const auto next = [&](std::string_view s) { return text.substr(i, s.size()) == s; };
    if (c == '\n') {
      ++line;
      previous = '\n';
      if (in == In::kComment || in == In::kBasic || in == In::kLiteral) in = In::kCode;
      continue;
    }
    switch (in) {
      case In::kCode: {
        if (byte >= 0x80) return line;
        const bool opens = previous == '\n' || previous == '=' || previous == '[' ||
                           previous == '{' || previous == ',' || previous == '.';
        if (c != ' ' && c != '\t') previous = c;
        if (c == '#') {
          in = In::kComment;
        } else if (!opens) {
          break;
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
      }
      case In::kComment:
        break;
      case In::kBasic:
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
          // An escaped non-ASCII character is invalid, and the parser tests it.
          if (static_cast<unsigned char>(text[i + 1]) >= 0x80) return line;
          ++i;
        } else if (c == '"') {
          in = In::kCode, previous = c;
        }
        break;
      case In::kLiteral:
        if (c == '\'') in = In::kCode, previous = c;
        break;
      case In::kMultiBasic:
        if (c == '\\' && i + 1 < text.size()) {
          // A line-ending backslash: the parser skips the whitespace after it
          // testing every character, a non-ASCII one too.
          std::size_t j = i + 1;
          while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) ++j;
          if (j < text.size() && text[j] == '\n') {
            while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' ||
                                       text[j] == '\n'))
              line += text[j++] == '\n';
            if (j < text.size() && static_cast<unsigned char>(text[j]) >= 0x80) return line;
            i = j - 1;
          } else {
            if (static_cast<unsigned char>(text[i + 1]) >= 0x80) return line;
            ++i;
          }
        } else if (next("\"\"\"")) {
          in = In::kCode, i += 2, previous = c;
        }
        break;
      case In::kMultiLiteral:
        if (next("'''")) in = In::kCode, i += 2, previous = c;
        break;
    }
  }
  return 0;
}

// Throws "`origin`:LINE: ..." for what non_ascii_outside_strings() finds.
inline void check_toml_text(std::string_view text, const std::string& origin) {
  if (const std::size_t line = non_ascii_outside_strings(text))
    throw make_error(
        "{}:{}: a control character, or a non-ASCII one outside a string or a comment (TOML "
        "allows non-ASCII only there, control characters but tab nowhere)",
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
