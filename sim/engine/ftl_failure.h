// A failure inside the FTL during a run (a broken invariant, an
// std::logic_error such as "no free block"): a bug of the FTL or of the
// simulator, not bad input. The CLI exits 3 with its message, which names the
// FTL, the phase (preconditioning, prefill, run, idle cleaning, recovery)
// and the request that hit it, so that the run can be replayed up to it.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace ssdlab::sim {

class FtlFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Call from a catch block only. Rethrows the exception in flight with the
// context "FTL `ftl` failed during `phase` (`request`): what": as FtlFailure,
// or as ftl::VerificationError for one (--verify's findings keep their kind).
// An ssdlab::Error the FTL threw on purpose (the example FTL's "out of free
// pages") stays an Error (exit status 1), its message first and the context
// after it. An OutputError (an output file that could not be written, such
// as a full disk under --timeline) passes unchanged: it is no FTL's. The
// device's end of life (ftl::EndOfLife), an FtlFailure already
// rethrown and exceptions that are not std::exception pass unchanged.
[[noreturn]] void rethrow_as_ftl_failure(std::string_view ftl, std::string_view phase,
                                         const std::string& request);

}  // namespace ssdlab::sim
