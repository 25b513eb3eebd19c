// `ssdlab sweep` and `ssdlab collect`: a grid of runs in parallel, and its
// sweep.csv.
#include <memory>
#include <string>

#include "sim/cli/command.h"
#include "sim/cli/validators.h"
#include "sim/run/sweep.h"

namespace ssdlab::cli {

Command make_sweep_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    sim::SweepOptions sweep;
    std::uint64_t job = 0;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "sweep", "Run a grid of configs x overrides x workloads x seeds in parallel");
  command->footer(R"(Examples:
  ssdlab sweep configs/sweeps/overprovisioning.toml -o out/op
  ssdlab sweep configs/sweeps/overprovisioning.toml -o out/op --slurm op.sbatch)");
  command->add_option("SWEEP", o->sweep.plan, "Sweep file (TOML)")->required();
  command->add_option("-o,--out", o->sweep.outdir, "Folder for the job folders and sweep.csv")
      ->required();
  command->add_option("-j,--jobs", o->sweep.jobs, "Parallel jobs (default: one per core)")
      ->check(integer_in(0, 4096));
  CLI::Option* job = command->add_option("--job", o->job, "Run only job N (a Slurm array task)")
                         ->check(any_unsigned());
  command->add_option("--slurm", o->sweep.slurm,
                      "Write a Slurm job-array script here instead of running");
  command->add_flag("-q,--quiet", o->sweep.quiet,
                    "No progress line on the terminal (there is none when stderr is not one)");
  return {command, [o, job](std::ostream& out) {
            if (*job) o->sweep.job = o->job;
            return sim::run_sweep(o->sweep, out);
          }};
}

Command make_collect_command(CLI::App& app, GlobalOptions&) {
  auto outdir = std::make_shared<std::string>();
  CLI::App* command =
      app.add_subcommand("collect", "Build OUTDIR/sweep.csv from a sweep's job folders");
  command->footer(R"(Examples:
  ssdlab collect out/op)");
  command->add_option("OUTDIR", *outdir, "Folder of a sweep")->required();
  return {command, [outdir](std::ostream& out) { return sim::run_collect_alone(*outdir, out); }};
}

}  // namespace ssdlab::cli
