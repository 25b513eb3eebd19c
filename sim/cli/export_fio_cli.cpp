// `ssdlab export-fio`: an output folder's io.csv as fio latency logs, or
// (with -w) a plan as a fio job file that runs the same I/Os.
#include <memory>
#include <string>

#include "common/error.h"
#include "common/units.h"
#include "sim/cli/command.h"
#include "sim/cli/validators.h"
#include "sim/results/fio_export.h"
#include "sim/run/fio_job.h"

namespace ssdlab::cli {

Command make_export_fio_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    std::string outdir, prefix, size;
    sim::FioJobOptions job;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "export-fio",
      "Write an output folder's io.csv as fio latency logs, or a plan as a fio job file");
  command->footer(R"(Examples:
  ssdlab export-fio out/rw out/rw-fio
  ssdlab export-fio -w workloads/plans/calibrate.toml --target disk.img fio-job)");
  command->add_option("OUTDIR", o->outdir,
                      "Output folder with io.csv; with -w: the folder for the job file")
      ->required();
  CLI::Option* prefix =
      command->add_option("PREFIX", o->prefix, "Log files: PREFIX-EXPERIMENT-runR_lat.P.log");
  command->add_option("-w,--workload", o->job.workload,
                      "Write a fio job file (OUTDIR/ssdlab.fio) and iologs that run this plan's "
                      "I/Os, one job named after each experiment");
  command->add_option("--target", o->job.target, "With -w: the file or device fio will use");
  command->add_option("--size", o->size, "With -w: the target's size (default: the file's)");
  command->add_option("--seed", o->job.seed, "With -w: the seed, as probe's --seed")
      ->check(any_unsigned())
      ->capture_default_str();
  return {command, [o, prefix](std::ostream& out) {
            if (o->job.workload.empty()) {
              if (prefix->count() == 0)
                throw make_error("export-fio: PREFIX is required (or -w PLAN for a job file)");
              sim::run_export_fio(o->outdir, o->prefix, out);
              return 0;
            }
            if (prefix->count() > 0)
              throw make_error("export-fio -w: takes one folder, not PREFIX '{}'", o->prefix);
            if (o->job.target.empty())
              throw make_error("export-fio -w: --target FILE is required (the file fio uses)");
            if (!o->size.empty()) {
              const auto bytes = parse_size(o->size);
              if (!bytes || *bytes == 0)
                throw make_error("--size '{}': expected a size such as 1GiB", o->size);
              o->job.size = *bytes;
            }
            o->job.outdir = o->outdir;
            sim::write_fio_job(o->job, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
