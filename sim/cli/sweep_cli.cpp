// `ssdlab sweep` and `ssdlab collect`: a grid of runs in parallel, and its
// sweep.csv.
#include <memory>
#include <string>

#include "common/error.h"
#include "sim/cli/command.h"
#include "sim/cli/validators.h"
#include "sim/sweep/sweep.h"

namespace ssdlab::cli {

Command make_sweep_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    sim::SweepOptions sweep;
    std::uint64_t job = 0, state = 0;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "sweep", "Run a grid of configs x overrides x workloads x seeds in parallel");
  command->footer(R"(Examples:
  ssdlab sweep configs/sweeps/overprovisioning.toml -o out/op
  ssdlab sweep configs/sweeps/overprovisioning.toml -o out/op --slurm op.sbatch
  ssdlab sweep -o out/op --job 3          (a task: job 3 of the list frozen in out/op))");
  command->add_option("SWEEP", o->sweep.plan, "Sweep file (TOML); not with --job or --state");
  command->add_option("-o,--out", o->sweep.outdir, "Folder for the job folders and sweep.csv")
      ->required();
  command->add_option("-j,--jobs", o->sweep.jobs, "Parallel jobs (default: one per usable CPU)")
      ->check(integer_in(0, 4096));
  CLI::Option* job =
      command
          ->add_option("--job", o->job,
                       "Run only job N of the list frozen in OUTDIR (a Slurm array task)")
          ->check(any_unsigned());
  CLI::Option* state =
      command
          ->add_option("--state", o->state,
                       "Make only shared preconditioned state N of OUTDIR's list (a Slurm task)")
          ->check(any_unsigned())
          ->excludes(job);
  command->add_flag("--replace", o->sweep.replace,
                    "Remove the job folders of another sweep in OUTDIR (else refused)");
  command->add_option(
      "--slurm", o->sweep.slurm,
      "Write a Slurm job-array script here (and FILE-submit.sh) instead of running");
  sim::SlurmOptions& c = o->sweep.cluster;
  command->add_option("--partition", c.partition, "--slurm: #SBATCH --partition");
  command->add_option("--account", c.account, "--slurm: #SBATCH --account");
  command->add_option("--sbatch", c.extra,
                      "--slurm: one more #SBATCH line, as --constraint=x (repeatable)");
  command->add_option("--mem", c.mem, "--slurm: memory per task instead of the estimate (as 4G)");
  command->add_option("--time", c.time,
                      "--slurm: time per task instead of the estimate (as 2:00:00)");
  command
      ->add_option("--cpus-per-task", c.cpus,
                   "--slurm: CPUs per task, which preconditioning uses (default 1)")
      ->check(integer_in(1, 4096));
  command
      ->add_option("--max-array-size", c.max_array_size,
                   "--slurm: the cluster's MaxArraySize (default 1001): larger sweeps go in chunks")
      ->check(integer_in(1, 4000000));
  command->add_flag("-q,--quiet", o->sweep.quiet,
                    "No progress line on the terminal (there is none when stderr is not one)");
  return {command, [o, job, state](std::ostream& out) {
            if (*job) o->sweep.job = o->job;
            if (*state) o->sweep.state = o->state;
            const bool task = *job || *state;
            if (!task && o->sweep.plan.empty())
              throw Error("sweep: give the SWEEP file (or --job N of a frozen sweep in -o)");
            if (task && !o->sweep.plan.empty())
              throw Error(
                  "sweep: --job and --state read the job list frozen in -o, not a SWEEP file; "
                  "leave SWEEP out");
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
