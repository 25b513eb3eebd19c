// A device's state as bytes and back (sim::Ssd::save_state, load_state), for
// the tests of a part's checkpoint section: round trips, and states saved
// with or without the part.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/state_io.h"
#include "sim/controller/ssd.h"

namespace ssdlab::testing {

inline std::string saved_bytes(const sim::Ssd& ssd) {
  std::ostringstream bytes;
  StateWriter out(&bytes);
  ssd.save_state(out);
  return bytes.str();
}

// Loads `state` into `ssd`; the whole of it must be read.
inline void load_bytes(sim::Ssd& ssd, const std::string& state) {
  std::istringstream bytes(state);
  StateReader in(bytes);
  ssd.load_state(in);
  EXPECT_EQ(in.read(), state.size());
}

}  // namespace ssdlab::testing
