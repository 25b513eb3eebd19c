// The keys of a live device (the nbdkit plugin's KEY=VALUE arguments,
// docs/live-device.md), read into the same SimOptions an `ssdlab sim` run
// takes, so that the device, its state and its outputs are built by the one
// run driver (sim/run/run_session.h).
#pragma once

#include <string>

#include "sim/run/plan_run.h"

namespace ssdlab::sim {

struct LiveOptions {
  SimOptions sim;               // config, set, precondition, load-state, save-state, seed
  std::string io_log;           // io-log=DIR: io.csv and summary.json there ("": none kept)
  std::string data = "memory";  // data=memory|sparse-file:PATH|none (data_store.h)
  // allow-destroy=true: a sparse file of another size than the device's,
  // which the plugin did not make, may be resized (its data past the
  // device's end is lost); else it is refused.
  bool allow_destroy = false;
  // A reply that leaves later than this after its simulated completion is
  // late (LiveRecord, the lag warning).
  double late_us = 1000;
};

// Reads one KEY=VALUE (config, set, precondition, load-state, save-state,
// io-log, data, allow-destroy, seed, late-us). Throws ssdlab::Error "KEY=VALUE: what is
// wrong", or names the keys for an unknown one.
void set_live_key(LiveOptions& options, const std::string& key, const std::string& value);
// After the last key: throws ssdlab::Error if one that is needed is missing
// or two contradict each other, or data=sparse-file: names another input or
// output of the server (config=, load-state=, save-state=, io-log='s files),
// naming both keys.
void check_live_options(const LiveOptions& options);

// The keys as `nbdkit ssdlab --help` lists them.
extern const char* const kLiveKeysHelp;

}  // namespace ssdlab::sim
