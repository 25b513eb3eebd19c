// Nothing in the live device ends the server (issue 51, H2): through the
// LiveDevice itself (sim/live/live_device.h), without nbdkit. A request the
// device cannot serve fails alone (EIO) and the device goes on; at the end
// of life the requests fail with ENOSPC, reads are still served, and io.csv
// and summary.json are complete at shutdown with the failures counted apart.
// The same through nbdkit and fio: tests/live/live_device_test.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <sstream>
#include <thread>

#include "run_support.h"
#include "sim/live/data_store.h"
#include "sim/live/live_device.h"
#include "sim/live/live_options.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

using testing::csv_rows;
using testing::summary_of;

LiveOptions tiny_options(const std::filesystem::path& io_log,
                         const std::vector<std::string>& sets) {
  LiveOptions options;
  set_live_key(options, "config", testing::preset("tiny"));
  for (const std::string& set : sets) set_live_key(options, "set", set);
  set_live_key(options, "data", "none");
  set_live_key(options, "io-log", io_log.string());
  check_live_options(options);
  return options;
}

// The errno a request fails with (admit(), then serve()); 0 if served.
int request(LiveDevice& device, IoMode mode, std::uint64_t offset, std::uint32_t size) {
  try {
    device.admit(mode, offset, size);
    device.serve(0, mode, offset, size);
    return 0;
  } catch (const RequestError& error) {
    return error.code();
  }
}

// After finish(): `requests` received, `failed` of them failed alone, the
// device itself never failed, and the rest served and in io.csv.
void ExpectGoneOn(const std::filesystem::path& io, int requests, int failed) {
  const auto summary = summary_of(io);
  EXPECT_EQ(summary["live"]["requests"], requests);
  EXPECT_EQ(summary["live"]["failed_requests"], failed);
  EXPECT_EQ(summary["live"]["failure"], "");
  EXPECT_EQ(summary["experiments"][0]["runs"][0]["count"], requests - failed);
  EXPECT_EQ(csv_rows(testing::read_file(io / "io.csv")).size(),
            static_cast<std::size_t>(requests - failed));
}

// The review's H2 case A (a 512-byte write to the host log) aborted the
// server; the log now serves sector I/O by read-modify-write (issue 51, M5).
TEST(LiveFailure, SectorRequestsToTheHostLogAreServed) {
  const auto dir = testing::temp_dir_for_this_test("live-fail-");
  std::ostringstream out;
  std::vector<std::string> warnings;
  LiveDevice device(tiny_options(dir / "io",
                                 {"ftl.type=\"zoned\"", "ftl.zone_width=2",
                                  "ftl.overprovisioning=0.03", "host.log.overprovisioning=0.12"}),
                    out, [&](const std::string& w) { warnings.push_back(w); });
  device.connect();
  EXPECT_EQ(request(device, IoMode::kWrite, 0, 512), 0);
  EXPECT_EQ(request(device, IoMode::kWrite, 0, 4096), 0);
  EXPECT_EQ(request(device, IoMode::kRead, 0, 4096), 0);
  EXPECT_EQ(request(device, IoMode::kRead, 512, 1024), 0);
  device.finish();
  ExpectGoneOn(dir / "io", 4, 0);
  for (const std::string& warning : warnings)  // (a late reply's may come on a busy machine)
    EXPECT_EQ(warning.find("fail"), std::string::npos) << warning;
}

// A request the model refuses at its arrival (an ssdlab::Error: here a zone
// command on a conventional device, which no NBD client can send) fails
// alone with EIO (LiveDevice::enter); the device goes on serving, and the
// refusal is counted in summary.json, not in io.csv.
TEST(LiveFailure, ARequestRefusedAtItsArrivalFailsAloneWithEio) {
  const auto dir = testing::temp_dir_for_this_test("live-refused-");
  std::ostringstream out;
  LiveDevice device(tiny_options(dir / "io", {}), out, [](const std::string&) {});
  device.connect();
  EXPECT_EQ(request(device, IoMode::kWrite, 0, 4096), 0);
  EXPECT_EQ(request(device, IoMode::kZoneReset, 0, 4096), EIO);
  EXPECT_EQ(request(device, IoMode::kWrite, 4096, 4096), 0);
  EXPECT_EQ(request(device, IoMode::kRead, 0, 8192), 0);
  device.finish();
  ExpectGoneOn(dir / "io", 4, 1);
}

TEST(LiveFailure, EndOfLifeFailsWritesWithEnospcAndServesReads) {
  const auto dir = testing::temp_dir_for_this_test("live-eol-");
  std::ostringstream out;
  std::vector<std::string> warnings;
  LiveDevice device(tiny_options(dir / "io", {"geometry.pe_cycles=1"}), out,
                    [&](const std::string& w) { warnings.push_back(w); });
  const std::uint64_t pages = device.bytes() / 4096;
  // Writers at once (a device writes on its dies in parallel), each over
  // the whole device, until their writes fail.
  std::atomic<int> enospc{0}, other{0};
  std::vector<std::thread> writers;
  for (std::uint32_t w = 0; w < 16; ++w)
    writers.emplace_back([&, w] {
      const std::uint32_t stream = device.connect();
      for (std::uint64_t i = 0; i < 40 * pages; ++i) {
        const std::uint64_t page = (i * 7919 + w * 104729) % pages;
        int code = 0;
        try {
          device.admit(IoMode::kWrite, page * 4096, 4096);
          device.serve(stream, IoMode::kWrite, page * 4096, 4096);
        } catch (const RequestError& error) {
          code = error.code();
        }
        if (code == ENOSPC) return static_cast<void>(++enospc);
        if (code != 0) return static_cast<void>(++other);
      }
    });
  for (std::thread& writer : writers) writer.join();
  ASSERT_EQ(enospc, 16) << "the device never reached its end of life";
  EXPECT_EQ(other, 0);
  EXPECT_EQ(request(device, IoMode::kTrim, 0, 4096), ENOSPC);
  EXPECT_EQ(request(device, IoMode::kRead, 0, 4096), 0);  // read-only now
  device.finish();
  const auto summary = summary_of(dir / "io");
  EXPECT_TRUE(summary["lifetime"]["end_of_life"]);
  EXPECT_NE(summary["live"]["failure"].get<std::string>().find("end of life"), std::string::npos);
  EXPECT_GE(summary["live"]["failed_requests"], 17);
  EXPECT_EQ(summary["live"]["reads_after_end_of_life"], 1);
  EXPECT_EQ(summary["experiments"][0]["runs"][0]["count"],
            csv_rows(testing::read_file(dir / "io" / "io.csv")).size());
  // Said once, as `ssdlab sim` says it (late replies may warn too).
  const auto said = std::count_if(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find("DEVICE END OF LIFE") != std::string::npos &&
           w.find("ENOSPC") != std::string::npos;
  });
  EXPECT_EQ(said, 1);
}

TEST(LiveFailure, ADataFileOfAnotherSizeIsRefusedUnlessAllowed) {
  const auto dir = testing::temp_dir_for_this_test("live-data-");
  const auto image = testing::write_file(dir / "big.img", std::string(8192, 'x'));
  const std::string spec = "sparse-file:" + image.string();
  EXPECT_NE(testing::error_of([&] { make_data_store(spec, 4096); }).find("allow-destroy=true"),
            std::string::npos);
  EXPECT_EQ(std::filesystem::file_size(image), 8192u);
  make_data_store(spec, 4096, true);
  EXPECT_EQ(std::filesystem::file_size(image), 4096u);
  make_data_store(spec, 4096);  // its own size now
  make_data_store("sparse-file:" + (dir / "new.img").string(), 4096);  // made by the plugin
  EXPECT_EQ(std::filesystem::file_size(dir / "new.img"), 4096u);
}

TEST(LiveFailure, TheDataFileIsNoOtherFileOfTheServer) {
  const auto dir = testing::temp_dir_for_this_test("live-keys-");
  const std::string config = testing::preset("tiny");
  const auto refused = [&](const std::vector<std::pair<std::string, std::string>>& keys) {
    LiveOptions options;
    set_live_key(options, "config", config);
    for (const auto& [key, value] : keys) set_live_key(options, key, value);
    return testing::error_of([&] { check_live_options(options); });
  };
  EXPECT_EQ(refused({{"data", "sparse-file:" + config}}),
            "data=sparse-file:" + config +
                ": is also an input of this command (config=); give the data another file");
  const std::string state = (dir / "s.ssd").string();
  EXPECT_NE(refused({{"load-state", state}, {"data", "sparse-file:" + state}})
                .find("(load-state=)"),
            std::string::npos);
  EXPECT_NE(refused({{"save-state", state}, {"data", "sparse-file:" + state}})
                .find("the server's save-state="),
            std::string::npos);
  const std::string io = (dir / "io").string();
  EXPECT_NE(refused({{"io-log", io}, {"data", "sparse-file:" + io + "/io.csv"}})
                .find("the server's own io.csv (io-log="),
            std::string::npos);
}

TEST(LiveFailure, NamespacesAndSeveralQueuesAreRefused) {
  const auto dir = testing::temp_dir_for_this_test("live-ns-");
  std::ostringstream out;
  const auto ignore = [](const std::string&) {};
  EXPECT_NE(testing::error_of([&] {
              LiveDevice device(tiny_options(dir / "a", {"host.namespaces=[{size=\"4MiB\"}]"}),
                                out, ignore);
            }).find("namespaces"),
            std::string::npos);
  EXPECT_NE(testing::error_of([&] {
              LiveDevice device(tiny_options(dir / "b", {"host.queues=[{},{}]"}), out, ignore);
            }).find("2 submission queues"),
            std::string::npos);
}

TEST(LiveFailure, RefusalsNameThePluginKeys) {
  const auto dir = testing::temp_dir_for_this_test("live-names-");
  std::ostringstream out;
  const auto ignore = [](const std::string&) {};
  LiveOptions options = tiny_options(dir / "io", {});
  set_live_key(options, "save-state", (dir / "nodir" / "s.ssd").string());
  const std::string missing =
      testing::error_of([&] { LiveDevice device(options, out, ignore); });
  EXPECT_EQ(missing.rfind("save-state=", 0), 0u) << missing;
  LiveDevice first(tiny_options(dir / "io", {}), out, ignore);
  const std::string locked =
      testing::error_of([&] { LiveDevice second(tiny_options(dir / "io", {}), out, ignore); });
  EXPECT_NE(locked.find("give each run its own io-log="), std::string::npos) << locked;
  first.finish();
}

}  // namespace
}  // namespace ssdlab::sim
