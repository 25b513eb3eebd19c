// Helpers shared by the tests: preset paths, temporary folders, running the
// ssdlab binary.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "flash/nand_array.h"
#include "sim/config/config.h"

#ifdef SSDLAB_BINARY
#define SSDLAB_BINARY_PATH SSDLAB_BINARY
#else
#define SSDLAB_BINARY_PATH "ssdlab"
#endif

namespace ssdlab::testing {

// The message of the ssdlab::Error that `run()` throws; a test failure, and
// "", if it throws none.
template <typename Run>
std::string error_of(Run&& run) {
  try {
    run();
  } catch (const Error& error) {
    return error.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

inline std::string preset(const std::string& name) {
  return std::string(SSDLAB_SOURCE_DIR) + "/configs/" + name + ".toml";
}

inline sim::DeviceConfig load_preset(const std::string& name) {
  return sim::load_config(preset(name));
}

// The tiny TLC device cut down to one plane (then `overrides`): consecutive
// logical pages fill one block's pages in order, so pages 0, 1 and 2 are its
// first wordline's lower, middle and upper page.
inline sim::DeviceConfig one_plane_tlc(std::vector<std::string> overrides = {}) {
  for (const char* key :
       {"geometry.channels=1", "geometry.dies_per_package=1", "geometry.planes_per_die=1",
        "geometry.two_plane_pairs=[]", "ftl.allocation_pool=\"plane\""})
    overrides.emplace_back(key);
  return sim::load_config(preset("tiny-tlc"), overrides);
}

// Blocks of `nand` (but SLC cache blocks, which take every handle's writes)
// holding valid pages on both sides of logical page `boundary`: data of two
// placement handles (or lifetimes) mixed in one block.
inline std::uint32_t blocks_mixing(const flash::NandArray& nand, const flash::Geometry& g,
                                   flash::Lpn boundary) {
  std::uint32_t mixed = 0;
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    if (nand.is_slc(block)) continue;
    bool below = false, above = false;
    for (std::uint32_t page = 0; page < g.pages_per_block; ++page)
      if (const flash::Ppn ppn = g.first_page(block) + page; nand.is_valid(ppn))
        (nand.lpn_at(ppn) < boundary ? below : above) = true;
    mixed += below && above ? 1 : 0;
  }
  return mixed;
}

// The error loading preset `name` with `overrides` (--set) gives; a test
// failure, and "", if it loads.
inline std::string preset_error(const std::string& name,
                                const std::vector<std::string>& overrides) {
  try {
    sim::load_config(preset(name), overrides);
  } catch (const Error& error) {
    return error.what();
  }
  ADD_FAILURE() << name << " loaded without an error";
  return "";
}

// A fresh, empty folder under the system temp dir, unique per name.
inline std::filesystem::path temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("ssdlab-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// temp_dir() named after the running GoogleTest test.
inline std::filesystem::path temp_dir_for_this_test(const std::string& prefix) {
  return temp_dir(prefix + ::testing::UnitTest::GetInstance()->current_test_info()->name());
}

inline std::filesystem::path write_file(const std::filesystem::path& path,
                                        const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Single-quotes `text` for the shell.
// A test name from a string parameter of words ("page-mapped plane
// incremental" -> "page_mapped_plane_incremental"), for
// INSTANTIATE_TEST_SUITE_P's name generator.
struct WordsParamName {
  template <typename Info>
  std::string operator()(const Info& info) const {
    std::string name = info.param;
    std::replace(name.begin(), name.end(), ' ', '_');
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
  }
};

inline std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

inline std::string shell_quote(const std::filesystem::path& path) {
  return shell_quote(path.string());
}

// The rows of an io.csv (or any headed CSV without quoting) after its
// header, each split into its fields.
inline std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::istringstream split(line);
    for (std::string field; std::getline(split, field, ',');) fields.push_back(field);
    rows.push_back(std::move(fields));
  }
  return rows;
}

struct CommandResult {
  int exit_code;
  std::string output;  // stdout and stderr together
};

// Runs `command` in the shell, stdout and stderr together.
inline CommandResult run_shell(const std::string& command) {
  std::FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, "cannot run " + command};
  std::string output;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// Runs the ssdlab binary with `arguments` (already shell-quoted).
inline CommandResult run_ssdlab(const std::string& arguments) {
  return run_shell(std::string(SSDLAB_BINARY_PATH) + " " + arguments);
}

// The project's output-contract checker (../shared/tools/check-output) on
// `outdir`; nullopt where this checkout has no checker.
inline std::optional<CommandResult> check_output(const std::filesystem::path& outdir) {
  const auto checker =
      std::filesystem::path(SSDLAB_SOURCE_DIR) / ".." / "shared" / "tools" / "check-output";
  if (!std::filesystem::is_regular_file(checker)) return std::nullopt;
  return run_shell("python3 " + shell_quote(checker) + " " + shell_quote(outdir));
}

// The summary.json of an output folder, parsed.
inline nlohmann::json summary_of(const std::filesystem::path& outdir) {
  return nlohmann::json::parse(read_file(outdir / "summary.json"));
}

// Whether Debian's python3 can draw (ssdlab plot needs python3-matplotlib).
inline bool has_matplotlib() {
  return run_shell("/usr/bin/python3 -c 'import matplotlib'").exit_code == 0;
}

}  // namespace ssdlab::testing
