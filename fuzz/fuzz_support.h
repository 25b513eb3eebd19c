// Shared by the libFuzzer targets: the readers under test take file paths,
// so each input is written to a private temporary file first.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace ssdlab::fuzz {

// A file in /dev/shm (memory) or /tmp, reused by every input of this process.
inline const std::string& input_path(const char* suffix) {
  static const std::string path = [suffix] {
    const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return std::string(dir) + "/ssdlab-fuzz-" + std::to_string(getpid()) + suffix;
  }();
  return path;
}

// Another private path of this process (an output folder, say): unlike
// input_path(), computed for each `suffix`.
inline std::string private_path(const char* suffix) {
  const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  return std::string(dir) + "/ssdlab-fuzz-" + std::to_string(getpid()) + suffix;
}

inline const std::string& write_input(const std::uint8_t* data, std::size_t size,
                                      const char* suffix) {
  const std::string& path = input_path(suffix);
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) __builtin_trap();
  if (size) std::fwrite(data, 1, size, file);
  std::fclose(file);
  return path;
}

}  // namespace ssdlab::fuzz
