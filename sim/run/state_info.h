// `ssdlab state-info FILE`: checks a checkpoint (sim/state/checkpoint.h) and
// prints what it holds: its provenance and the device config it loads into.
#pragma once

#include <iosfwd>
#include <string>

namespace ssdlab::sim {

// Checks the file (header, length, checksum), loads it into a fresh device
// of its saved config with every check a run's load makes, and prints its
// info. Throws ssdlab::Error "PATH: what is wrong".
void run_state_info(const std::string& path, std::ostream& out);

}  // namespace ssdlab::sim
