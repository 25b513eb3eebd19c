#include "common/printable.h"

namespace ssdlab {
namespace {

// The length of the well-formed UTF-8 character at text[at] (2 to 4), or 0.
std::size_t utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  const std::size_t length = lead >= 0xC2 && lead <= 0xDF   ? 2
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                            : 0;
  if (length == 0 || at + length > text.size()) return 0;
  for (std::size_t i = at + 1; i < at + length; ++i)
    if ((byte(i) & 0xC0) != 0x80) return 0;
  if (lead == 0xC2 && byte(at + 1) < 0xA0) return 0;  // U+0080 to U+009F: C1 controls
  return length;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const auto c = static_cast<unsigned char>(text[at]);
    if ((c >= 0x20 && c < 0x7F) || c == '\n' || c == '\t') {
      out += static_cast<char>(c);
      ++at;
    } else if (const std::size_t length = c >= 0x80 ? utf8_length(text, at) : 0) {
      out.append(text.substr(at, length));
      at += length;
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      ++at;
    }
  }
  return out;
}

}  // namespace ssdlab
