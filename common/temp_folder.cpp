#include "common/temp_folder.h"

#include <fmt/format.h>

#include <cstdlib>
#include <system_error>

#include "common/error.h"

namespace ssdlab {

std::filesystem::path temporary_folder(const char* what) {
  std::error_code error;
  std::filesystem::path folder = std::filesystem::temp_directory_path(error);
  if (!error) return folder;
  const char* tmpdir = std::getenv("TMPDIR");
  throw make_error(
      "{}: TMPDIR={}: not a usable folder for temporary files ({}); set TMPDIR to an existing "
      "folder",
      what, tmpdir ? tmpdir : "", error.message());
}

}  // namespace ssdlab
