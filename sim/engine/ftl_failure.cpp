#include "sim/engine/ftl_failure.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/output_error.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"

namespace ssdlab::sim {

void rethrow_as_ftl_failure(std::string_view ftl, std::string_view phase,
                            const std::string& request) {
  const auto context = [&](const std::exception& error) {
    return fmt::format("FTL {} failed during {} ({}): {}", ftl, phase, request, error.what());
  };
  try {
    throw;
  } catch (const ftl::EndOfLife&) {
    throw;
  } catch (const FtlFailure&) {
    throw;
  } catch (const OutputError&) {
    // An output of the run (--timeline, --trace-ftl-file) could not be
    // written: the disk's doing, not the FTL's.
    throw;
  } catch (const Error& error) {
    // An FTL that reports a typed error (the example FTL's "out of free
    // pages") keeps its message first and its exit status (1).
    throw Error(fmt::format("{} (FTL {}, during {}: {})", error.what(), ftl, phase, request));
  } catch (const ftl::VerificationError& error) {
    throw ftl::VerificationError(context(error));
  } catch (const std::exception& error) {
    throw FtlFailure(context(error));
  }
}

}  // namespace ssdlab::sim
