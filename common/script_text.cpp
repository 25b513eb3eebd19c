#include "common/script_text.h"

#include "common/error.h"

namespace ssdlab {

namespace {
bool is_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7F;
}
}  // namespace

bool has_control(std::string_view text) {
  for (char c : text)
    if (is_control(c)) return true;
  return false;
}

std::string escaped_controls(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    if (!is_control(c)) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

void refuse_controls(std::string_view what, std::string_view text, std::string_view into) {
  if (!has_control(text)) return;
  throw make_error("{} '{}': a control character (a newline, tab, ...) cannot be written into {}",
                   what, escaped_controls(text), into);
}

std::string shell_quoted(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace ssdlab
