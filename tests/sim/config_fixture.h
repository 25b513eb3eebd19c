// The fixture of the device-config tests (config_test.cpp,
// config_override_test.cpp): a config file in the test's own folder, and the
// one ssdlab::Error loading it gives.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/error.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab::testing {

class ConfigTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = temp_dir_for_this_test("config-"); }

  // Writes `text` to a config file in this test's folder; returns its path.
  std::string Write(const std::string& text) {
    return write_file(dir_ / "device.toml", text).string();
  }

  // The message of the ssdlab::Error that loading `path` throws ("" and a
  // test failure if it loads).
  static std::string ErrorOf(const std::string& path,
                             const std::vector<std::string>& overrides = {}) {
    try {
      ssdlab::sim::load_config(path, overrides);
    } catch (const ssdlab::Error& error) {
      return error.what();
    }
    ADD_FAILURE() << path << " loaded without an error";
    return "";
  }

  std::filesystem::path dir_;
};

}  // namespace ssdlab::testing
