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

namespace detail {

// Where the parser stands outside strings and comments, as far as it matters
// for whether a quote opens a string. toml++ scans a bare value (a number, a
// date, a boolean, or any mistyped value) up to the next value terminator,
// testing every character on the way for whitespace, quotes and non-ASCII
// ones included: in `x = +["é"` it reaches the undefined behaviour through
// the `"é` that a scan looking only at the character before a quote took for
// a string (found by fuzz/sweep_fuzz). So a quote opens a string only at the
// start of a key or a value; any other character starts a bare token, and no
// quote inside one opens a string.
class TomlCode {
 public:
  // A character of code (not a newline, not non-ASCII): true if it is a quote
  // that opens a string, which the caller then reads.
  bool opens_string(char c) {
    if (bare_ && !ends_bare(c)) return false;
    bare_ = false;
    const bool header_start = fresh_header_;
    fresh_header_ = false;
    switch (c) {
      case ' ':
      case '\t':
      case '\r':
        fresh_header_ = header_start;
        return false;
      case '"':
      case '\'':
        return at_start_ || (bare(), false);
      case '=':
        if (key_ && (nest_.empty() || nest_.back() == '{'))
          key_ = false, at_start_ = true;
        else
          bare();
        return false;
      case '.':
        if (key_)
          at_start_ = true;  // the next part of a dotted key
        else
          bare();
        return false;
      case '[':
        if (key_ && nest_.empty() && line_start_) {
          nest_.push_back('h'), at_start_ = fresh_header_ = true;  // a table header
        } else if (header_start) {
          at_start_ = true;  // the second '[' of an array of tables' header
        } else if (!key_ && at_start_) {
          nest_.push_back('[');  // an array
        } else {
          bare();
        }
        line_start_ = false;
        return false;
      case '{':
        if (!key_ && at_start_)
          nest_.push_back('{'), key_ = at_start_ = true;
        else
          bare();
        return false;
      case ']':
      case '}':
        if (!nest_.empty() && (nest_.back() == '{') == (c == '}')) nest_.pop_back();
        at_start_ = false;
        return false;
      case ',':
        at_start_ = !nest_.empty() && nest_.back() != 'h';
        if (at_start_) key_ = nest_.back() == '{';
        return false;
      default:
        return bare(), false;
    }
  }
  // The string that the last quote opened has closed.
  void closed_string() { at_start_ = line_start_ = false; }
  // A newline outside strings: the top level expects a key; inside a
  // multi-line array the position stays as it was.
  void newline() {
    bare_ = false;
    if (!nest_.empty() && nest_.back() == '[') return;
    nest_.clear();
    key_ = at_start_ = line_start_ = true;
    fresh_header_ = false;
  }

 private:
  void bare() { bare_ = true, at_start_ = line_start_ = false; }
  // A bare key ends at any character a bare key cannot hold; a bare value
  // only at a value terminator (toml++'s is_value_terminator).
  bool ends_bare(char c) const {
    if (key_)
      return !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               c == '_' || c == '-');
    return c == ' ' || c == '\t' || c == '\r' || c == ']' || c == '}' || c == ',' || c == '#';
  }

  std::string nest_;  // '[' an array, '{' an inline table, 'h' a table header
  bool key_ = true;   // a key stands here, else a value
  bool at_start_ = true;
  bool line_start_ = true;
  bool bare_ = false;
  bool fresh_header_ = false;  // just after a table header's '['
};

}  // namespace detail

// The 1-based line of the first non-ASCII byte outside strings and
// comments, or of a control character anywhere (TOML allows none but tab),
// 0 if none. Conservative: a quote opens a string only where the parser
// takes it for one (detail::TomlCode); elsewhere what follows is checked.
inline std::size_t non_ascii_outside_strings(std::string_view text) {
  enum class In { kCode, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral } in = In::kCode;
  std::size_t line = 1;
  detail::TomlCode code;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7f) return line;
    const auto next = [&](std::string_view s) { return text.substr(i, s.size()) == s; };
    if (c == '\n') {
      ++line;
      if (in == In::kComment || in == In::kBasic || in == In::kLiteral) in = In::kCode;
      if (in == In::kCode) code.newline();
      continue;
    }
    switch (in) {
      case In::kCode:
        if (byte >= 0x80) return line;
        if (c == '#') {
          code.opens_string(' ');  // ends a bare token, as whitespace would
          in = In::kComment;
        } else if (!code.opens_string(c)) {
          break;
        } else if (next("\"\"\"")) {
          in = In::kMultiBasic, i += 2;
        } else if (next("'''")) {
          in = In::kMultiLiteral, i += 2;
        } else {
          in = c == '"' ? In::kBasic : In::kLiteral;
        }
        break;
      case In::kComment:
        break;
      case In::kBasic:
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
          // An escaped non-ASCII character is invalid, and the parser tests it.
          if (static_cast<unsigned char>(text[i + 1]) >= 0x80) return line;
          ++i;
        } else if (c == '"') {
          in = In::kCode, code.closed_string();
        }
        break;
      case In::kLiteral:
        if (c == '\'') in = In::kCode, code.closed_string();
        break;
      case In::kMultiBasic:
        if (c == '\\' && i + 1 < text.size()) {
          // A backslash and whitespace (a line-ending backslash, or a bad
          // escape): the parser skips the whitespace after it testing every
          // character, a non-ASCII one too; an escaped one it tests as well.
          std::size_t j = i + 1;
          while (j < text.size() &&
                 (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n'))
            line += text[j++] == '\n';
          if (j < text.size() && static_cast<unsigned char>(text[j]) >= 0x80) return line;
          i = j == i + 1 ? j : j - 1;
        } else if (next("\"\"\"")) {
          in = In::kCode, i += 2, code.closed_string();
        }
        break;
      case In::kMultiLiteral:
        if (next("'''")) in = In::kCode, i += 2, code.closed_string();
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

// toml++'s description of a parse error at `line` (1-based) of `text`, made
// readable where toml++ 3.3 garbles it: a key or table defined twice
// ("Error while parsing key-value pair: cannot redefine existing array
// '"titiming.read_us" '") becomes
// "'KEY' is given twice (...)", KEY as the line writes it.
inline std::string toml_error_description(std::string_view description, std::string_view text,
                                          std::size_t line) {
  if (description.find("cannot redefine existing") == std::string_view::npos || line == 0)
    return std::string(description);
  std::size_t begin = 0;
  for (std::size_t n = 1; n < line && begin != std::string_view::npos; ++n) {
    begin = text.find('\n', begin);
    if (begin != std::string_view::npos) ++begin;
  }
  if (begin == std::string_view::npos) return std::string(description);
  std::string_view key = text.substr(begin, text.find('\n', begin) - begin);
  if (const auto equals = key.find('='); equals != std::string_view::npos)
    key = key.substr(0, equals);  // key = value
  const auto trim = [](std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r[");
    if (first == std::string_view::npos) return std::string_view();
    return s.substr(first, s.find_last_not_of(" \t\r]") + 1 - first);
  };
  key = trim(key);  // [table] and [[array]] headers too
  if (key.empty()) return std::string(description);
  return fmt::format("'{}' is given twice (a key or table may be defined only once)", key);
}

}  // namespace ssdlab
