// The FTLs by name. Adding an FTL: its own .cpp file with a factory, and one
// declaration plus one table line here. An explicit table (rather than static
// self-registration) cannot be dropped silently by the linker.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {

std::unique_ptr<Ftl> make_page_mapped_ftl(const FtlContext& context);
std::unique_ptr<Ftl> make_block_mapped_ftl(const FtlContext& context);
std::unique_ptr<Ftl> make_bast_ftl(const FtlContext& context);
std::unique_ptr<Ftl> make_fast_ftl(const FtlContext& context);
std::unique_ptr<Ftl> make_example_ftl(const FtlContext& context);
std::unique_ptr<Ftl> make_dftl_ftl(const FtlContext& context);

namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Ftl> (*make)(const FtlContext&);
};

constexpr Entry kFtls[] = {
    {"page-mapped", &make_page_mapped_ftl},
    {"block-mapped", &make_block_mapped_ftl},
    {"bast", &make_bast_ftl},
    {"fast", &make_fast_ftl},
    {"dftl", &make_dftl_ftl},        // page-mapped with a cached map (Gupta et al. 2009)
    {"example", &make_example_ftl},  // teaching skeleton, docs/assignment.md
};

}  // namespace

std::vector<std::string> ftl_names() {
  std::vector<std::string> names;
  for (const auto& entry : kFtls) names.emplace_back(entry.name);
  return names;
}

std::unique_ptr<Ftl> make_ftl(const FtlContext& context) {
  for (const auto& entry : kFtls)
    if (context.config.type == entry.name) return entry.make(context);
  throw make_error("unknown FTL '{}' (known: {})", context.config.type,
                   fmt::join(ftl_names(), ", "));
}

bool is_block_based(std::string_view type) {
  return type == "block-mapped" || type == "bast" || type == "fast";
}

const char* pool_scope_name(PoolScope scope) {
  switch (scope) {
    case PoolScope::kSsd:
      return "ssd";
    case PoolScope::kChannel:
      return "channel";
    case PoolScope::kPackage:
      return "package";
    case PoolScope::kDie:
      return "die";
    case PoolScope::kPlane:
      return "plane";
  }
  return "?";
}

}  // namespace ssdlab::ftl

namespace ssdlab::ftl {

void Ftl::recover(RecoveryPolicy /*policy*/, CommandList& /*out*/, RecoveryReport& /*report*/) {
  throw make_error("FTL '{}' cannot recover from a power cut (it keeps no OOB sequence numbers)",
                   name());
}

}  // namespace ssdlab::ftl
