// What the `ssdlab` trace format (an io.csv read back: ssdlab_csv.cpp)
// tells before it is replayed.
#pragma once

#include <string>

#include "traces/read_options.h"

namespace ssdlab::traces {

// The experiment of the first row of the io.csv at `path` (options.name in
// messages), or "" if it has no row or the row does not parse (the reader
// reports it). The name a replay of it takes when none is given.
std::string first_io_csv_experiment(const std::string& path, const ReadOptions& options);

}  // namespace ssdlab::traces
