// `ssdlab probe`: the same workload against a real file or block device.
#include <memory>
#include <string>

#include "common/error.h"
#include "common/units.h"
#include "sim/cli/command.h"
#include "sim/cli/validators.h"
#include "sim/results/output.h"
#include "sim/run/probe.h"

namespace ssdlab::cli {

Command make_probe_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    sim::ProbeOptions probe;
    std::string size;
    std::string percentiles;
  };
  auto o = std::make_shared<Options>();
  sim::ProbeOptions& probe = o->probe;
  CLI::App* command = app.add_subcommand(
      "probe", "Run a workload against a real file or block device (same outputs as sim)");
  command->add_option("--target", probe.target, "File or block device")->required();
  command
      ->add_option("-w,--workload", probe.workload,
                   "Plan file, built-in uflip:NAME (uflip:granularity, ..., uflip:all) or one "
                   "inline experiment such as 'RW:io_size=4096,count=10000'")
      ->required();
  command->add_option("-o,--out", probe.outdir, "Output folder for io.csv and summary.json")
      ->required();
  command->add_option("--size", o->size,
                      "Create a missing FILE target of this size (e.g. 1GiB), filled");
  command->add_flag("--allow-destroy", probe.allow_destroy,
                    "Allow writing to a block device, or to an existing file that probe "
                    "--size did not create (its data is lost)");
  command->add_flag("--buffered", probe.buffered,
                    "Without O_DIRECT, for filesystems that lack it (measures the cache)");
  command->add_option("--precondition", probe.precondition,
                      "State enforcement before measuring: seq[:N], random[:N], uflip[:N], none "
                      "(default: the plan's state)");
  command->add_option("--seed", probe.seed, "Seed of every random choice")
      ->check(any_unsigned())
      ->capture_default_str();
  command->add_flag("!--no-io-log", probe.io_log, "Do not write io.csv (summary.json only)");
  command->add_flag("-q,--quiet", probe.quiet,
                    "No progress line on the terminal (there is none when stderr is not one)");
  command->add_option("--percentiles", o->percentiles,
                      "Response-time percentiles of each run in summary.json (default "
                      "50,90,99,99.9,99.99; p50 and p99 always)");
  command->footer(R"(Examples:
  ssdlab probe --target /tmp/ssdlab.img --size 1GiB -w 'RW:io_size=4096,count=10000' -o out/real
  ssdlab probe --target /dev/nvme0n1 --allow-destroy -w uflip:granularity -o out/nvme)");
  return {command, [o](std::ostream& out) {
            if (!o->size.empty()) {
              const auto bytes = parse_size(o->size);
              if (!bytes || *bytes == 0)
                throw make_error("--size '{}': expected a size such as 1GiB", o->size);
              o->probe.size = *bytes;
            }
            if (!o->percentiles.empty())
              o->probe.percentiles = sim::parse_percentiles(o->percentiles);
            sim::run_probe(o->probe, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
