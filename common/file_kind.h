// What is wrong with a path that should be a regular file to read: "no such
// file", "is a directory", "is a FIFO (named pipe)", "is a device", ... or
// empty when it is a regular file.
#pragma once

#include <filesystem>
#include <string>

namespace ssdlab {

inline std::string not_a_regular_file(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  switch (status.type()) {
    case fs::file_type::regular:
      return {};
    case fs::file_type::not_found:
      return "no such file";
    case fs::file_type::directory:
      return "is a directory, not a file";
    case fs::file_type::fifo:
      return "is a FIFO (named pipe), not a regular file";
    case fs::file_type::character:
    case fs::file_type::block:
      return "is a device, not a regular file";
    case fs::file_type::socket:
      return "is a socket, not a regular file";
    default:
      return error ? "cannot be read: " + error.message() : "is not a regular file";
  }
}

}  // namespace ssdlab
