// The folder for private temporary files (a copy of standard input, a plot
// script): $TMPDIR, or /tmp.
#pragma once

#include <filesystem>

namespace ssdlab {

// std::filesystem::temp_directory_path(), or an ssdlab::Error that says what
// is wrong with it ("TMPDIR=/nonexistent: not a usable folder for temporary
// files (No such file or directory); set TMPDIR to an existing folder") where
// the library would throw an std::filesystem_error. `what` says what the
// temporary file is for ("trace:-: a copy of standard input").
std::filesystem::path temporary_folder(const char* what);

}  // namespace ssdlab
