// Input bytes made safe to print: error messages quote fields of their input
// (a trace line), which may hold a NUL (that would cut a C string short) or
// an escape sequence (that a terminal would act on).
#pragma once

#include <string>
#include <string_view>

namespace ssdlab {

// `text` with every control byte (NUL, ESC, ...; not newline or tab), DEL,
// and byte that is not part of a well-formed UTF-8 character (or is a C1
// control) written as \xNN; everything else, a backslash too, as it is.
std::string printable(std::string_view text);

}  // namespace ssdlab
