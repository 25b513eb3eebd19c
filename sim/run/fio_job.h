// `ssdlab export-fio -w WORKLOAD --target FILE DIR`: a plan as a fio job
// file, so that fio runs the same I/Os (same offsets, sizes and order, from
// the same generator and seed as `ssdlab probe`) under the experiments' own
// names, and `ssdlab compare` pairs fio's JSON with the probe's or the
// model's output by name, without --map.
//
// DIR gets `ssdlab.fio` and one fio iolog (version 2) per experiment, run
// and process. Each run of an experiment is one fio job named after the
// experiment (its processes: one job each, running at once); runs follow one
// another (stonewall). fio's JSON then has one job name per experiment, and
// compare pools the jobs of one name from their histograms
// (--output-format=json+). Queue depth 1 is psync, deeper queues libaio
// with that iodepth. What fio does not replay: pauses and bursts (the iolog
// has no closed-loop idle time; the job file says which experiments had
// them) and the plan's state enforcement (probe's --precondition).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

namespace ssdlab::sim {

struct FioJobOptions {
  std::string workload;  // -w: plan file, uflip:NAME or inline experiment
  std::string target;    // --target: the file or device fio will use
  std::uint64_t size = 0;  // --size: its bytes (default: the existing file's size)
  std::uint64_t seed = 1;  // --seed, as probe's
  std::string outdir;      // DIR
};

// Writes DIR/ssdlab.fio and the iologs; says on `out` what it wrote and how
// to run it. Throws ssdlab::Error on a bad workload or size.
void write_fio_job(const FioJobOptions& options, std::ostream& out);

}  // namespace ssdlab::sim
