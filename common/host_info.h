// What this process may use and which build it is: the CPUs it may run on
// (a cluster task gets some of a node's), a digest of text, and the build's
// identity (a digest of the running binary), which keys what one build
// saves for itself (the preconditioned-state cache) and names in a sweep
// job's record which build ran it.
#pragma once

#include <string>
#include <string_view>

namespace ssdlab {

// The CPUs this process may use: its affinity mask (sched_getaffinity; a
// Slurm task bound by task/affinity, or `taskset`), at most
// $SLURM_CPUS_PER_TASK where that is set (a task without binding), at
// least 1. Never the node's count when the process has fewer.
unsigned usable_cpus();

// 32 hex digits: two 64-bit FNV-1a hashes of `text` (not cryptographic: it
// tells versions apart, and where a collision matters the full record is
// compared too).
std::string text_digest(std::string_view text);

// The running binary's identity, computed once: its GNU build ID in hex
// (the linker's hash of the executable), else text_digest of
// /proc/self/exe's bytes, else "unknown". Two builds of one version differ.
const std::string& build_digest();

}  // namespace ssdlab
