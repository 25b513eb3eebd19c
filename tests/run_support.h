// Runs `ssdlab sim` through the library (sim::run_sim_or_replay), in the test's
// own process, for tests of what a run computes (its io.csv, its summary.json)
// rather than of the command line: no binary spawned, no shell quoting, and a
// failed run fails the test with its ssdlab::Error message. What a run logs
// on stderr (its warnings) can be read too (in_process_with_stderr).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sim/run/plan_run.h"
#include "sim/run/trace_run.h"
#include "test_support.h"

namespace ssdlab::testing {

// `ssdlab sim -c configs/PRESET.toml -w WORKLOAD... -o OUTDIR` with `options`
// (its config and outdir are filled in here) and the trace options `trace`
// (--layout, --mode, ...): several workloads run together (tenants,
// traces); none, with options.save_state, only preconditioning. Prints what
// the binary prints on stdout to `out`; throws what the run throws, where
// the binary would exit 1. The command line's own checks of its options
// (sim_cli.cpp, exit status 2) are not made.
inline void sim_preset(const std::string& preset_name, const std::filesystem::path& outdir,
                       sim::SimOptions options, const std::vector<std::string>& workloads,
                       const sim::TraceOptions& trace, std::ostream& out) {
  options.config = preset(preset_name);
  options.outdir = outdir.string();
  sim::run_sim_or_replay(std::move(options), workloads, trace, out);
}

// `ssdlab sim -c configs/PRESET.toml -o dir/name` with `options` (its
// workload is -w; none: only preconditioning, for options.save_state);
// returns the folder, and what the run printed in `printed` if given.
// Throws what the run throws, where the binary would exit 1.
inline std::filesystem::path run_preset(const std::string& preset_name,
                                        const std::filesystem::path& dir, const std::string& name,
                                        sim::SimOptions options, std::string* printed = nullptr) {
  std::ostringstream out;
  std::vector<std::string> workloads;
  if (!options.workload.empty()) workloads.push_back(options.workload);
  sim_preset(preset_name, dir / name, std::move(options), workloads, sim::TraceOptions{}, out);
  if (printed) *printed = out.str();
  return dir / name;
}

// A plan's experiment of `count` random 4 KiB writes named `name` (plans of
// several: the experiments one after another).
inline std::string random_writes_experiment(const std::string& name, int count) {
  return "[[experiment]]\nname = \"" + name +
         "\"\npattern = \"RW\"\nio_size = 4096\ncount = " + std::to_string(count) + "\n";
}

// A run's io.csv rows, its header line left out (split runs' rows add up).
inline std::string io_rows(const std::filesystem::path& run) {
  const std::string text = read_file(run / "io.csv");
  return text.substr(text.find('\n') + 1);
}

// The same on the tiny preset.
inline std::filesystem::path run_tiny(const std::filesystem::path& dir, const std::string& name,
                                      sim::SimOptions options, std::string* printed = nullptr) {
  return run_preset("tiny", dir, name, std::move(options), printed);
}

// A library call in the shape of a command's result: exit status 0 and what
// `run(out)` printed, or 1 and "ssdlab: MESSAGE\n" as main() reports an
// ssdlab::Error (log lines, which the binary adds on stderr, aside).
template <typename Run>
CommandResult in_process(Run&& run) {
  std::ostringstream out;
  try {
    run(out);
  } catch (const Error& error) {
    return {1, "ssdlab: " + std::string(error.what()) + "\n"};
  }
  return {0, out.str()};
}

// What this process writes on its stderr (file descriptor 2: the loggers,
// --trace-ftl's log) from construction until text(): what the binary would
// have written on stderr, for tests of its warnings.
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()) {
    if (!file_) throw Error("StderrCapture: cannot create a temporary file");
    flush();
    saved_ = ::dup(2);
    ::dup2(::fileno(file_), 2);
  }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;
  ~StderrCapture() {
    restore();
    std::fclose(file_);
  }

  // Stops capturing; what was written meanwhile.
  std::string text() {
    restore();
    std::string text;
    std::rewind(file_);
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, file_)) text.append(buffer, n);
    return text;
  }

 private:
  static void flush() {
    std::cerr.flush();
    std::fflush(stderr);
  }
  void restore() {
    if (saved_ < 0) return;
    flush();
    ::dup2(saved_, 2);
    ::close(saved_);
    saved_ = -1;
  }

  std::FILE* file_;
  int saved_ = -1;
};

// in_process, with what the run wrote on stderr (its log lines, its
// warnings) after what it printed or its error line: the binary's stdout
// and stderr together, as run_ssdlab returns them.
template <typename Run>
CommandResult in_process_with_stderr(Run&& run) {
  StderrCapture stderr_capture;
  CommandResult result = in_process(std::forward<Run>(run));
  result.output += stderr_capture.text();
  return result;
}

// What `ssdlab config configs/PRESET.toml` prints (sim::run_config).
inline std::string config_text(const std::string& preset_name,
                               const std::vector<std::string>& overrides = {}) {
  std::ostringstream out;
  sim::run_config(preset(preset_name), overrides, out);
  return out.str();
}

// A plan run of `workload` with these --set overrides, as SimOptions.
inline sim::SimOptions sim_options(const std::string& workload,
                                   std::vector<std::string> overrides = {}) {
  sim::SimOptions options;
  options.workload = workload;
  options.overrides = std::move(overrides);
  return options;
}

}  // namespace ssdlab::testing
