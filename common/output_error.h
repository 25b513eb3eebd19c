// The error of an output file that could not be written.
#pragma once

#include <cstring>
#include <string>

#include "common/error.h"

namespace ssdlab {

// An output file that could not be written (a full disk, a read-only or
// missing folder): the user's environment, not a bug, so the CLI exits 1 as
// for any Error. A type of its own so that a write failure raised inside a
// run (a view writing its file from an observer) is never taken for a
// failure of the FTL (sim/engine/ftl_failure.h passes it through unchanged).
class OutputError : public Error {
 public:
  using Error::Error;
};

// "FILE: write failed: OS ERROR" for the errno `error` (0: none known).
inline OutputError write_failed(const std::string& file, int error) {
  return OutputError(file + ": write failed" +
                     (error ? std::string(": ") + std::strerror(error) : std::string()));
}

}  // namespace ssdlab
