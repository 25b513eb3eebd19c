// The values `ssdlab sweep --slurm` writes into a batch script's #SBATCH
// lines, checked before anything is written (issue 51, H1): each is one
// value of Slurm's own format, so that no option can end its line and add
// shell code to the script. Formats from sbatch(1): --time, --mem,
// --partition (a comma-separated list), --account; --sbatch lines hold no
// control character.
#pragma once

#include <string>

#include "sim/sweep/sweep_slurm.h"

namespace ssdlab::sim {

// Throws ssdlab::Error "--OPTION 'VALUE': what Slurm takes" for the first
// value Slurm would not take as one value of its option.
void check_slurm_options(const SlurmOptions& options);

// The job name of a sweep file's stem: "ssdlab-" and the stem, with every
// character outside letters, digits, '.', '_' and '-' as '_' (a name of
// Slurm's, never a path or shell text).
std::string slurm_job_name(const std::string& stem);

}  // namespace ssdlab::sim
