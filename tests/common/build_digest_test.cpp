// build_digest(): the running binary's identity, the key of the state cache
// and of a sweep's job records. It is the executable's GNU build ID, read
// from its loaded program headers; a build without one falls back to a hash
// of the file's bytes.
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "common/host_info.h"

namespace ssdlab {
namespace {

// What `readelf -n` says the build ID of `path` is, or "" if readelf (GNU
// binutils, which the compiler brings) is not there or finds none.
std::string readelf_build_id(const std::string& path) {
  const std::string command = "readelf -n '" + path + "' 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string text;
  std::array<char, 4096> chunk{};
  while (std::fgets(chunk.data(), chunk.size(), pipe.get()) != nullptr) text += chunk.data();
  const std::string label = "Build ID: ";
  const std::size_t at = text.find(label);
  if (at == std::string::npos) return "";
  std::string id;
  for (std::size_t i = at + label.size(); i < text.size() && std::isxdigit(text[i]); ++i)
    id += text[i];
  return id;
}

TEST(BuildDigest, IsTheExecutablesBuildIdAndStable) {
  const std::string& digest = build_digest();
  EXPECT_EQ(&digest, &build_digest());  // computed once
  ASSERT_FALSE(digest.empty());
  EXPECT_NE(digest, "unknown");
  for (const char c : digest) EXPECT_TRUE(std::isxdigit(c) && !std::isupper(c)) << digest;
  // (The link resolved here: in readelf's process it would name readelf.)
  const std::string expected =
      readelf_build_id(std::filesystem::read_symlink("/proc/self/exe").string());
  if (expected.empty()) GTEST_SKIP() << "no readelf, or this test binary has no build ID";
  EXPECT_EQ(digest, expected);
}

}  // namespace
}  // namespace ssdlab
