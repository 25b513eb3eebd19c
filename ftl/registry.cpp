// The FTLs by name. Adding an FTL: its own .cpp file with a factory and its
// key hooks (ftl_keys.h), and one line in SSDLAB_BUILTIN_FTLS below, which
// both declares them and lists them (ftl/CMakeLists.txt builds every
// ftl/*.cpp). An explicit list (rather than static self-registration) cannot
// be dropped silently by the linker. FTLs built outside this tree register
// through ftl/register.h.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "common/error.h"
#include "ftl/ftl.h"
#include "ftl/register.h"

// X(name, factory, key hooks): one line per built-in FTL, each ending in a
// backslash, so that adding one is adding one line. "example" is the teaching
// skeleton (docs/assignment.md).
#define SSDLAB_BUILTIN_FTLS(X)                                                  \
  X("page-mapped", make_page_mapped_ftl, page_mapped_ftl_keys)                  \
  X("block-mapped", make_block_mapped_ftl, block_mapped_ftl_keys)               \
  X("bast", make_bast_ftl, bast_ftl_keys)                                       \
  X("fast", make_fast_ftl, fast_ftl_keys)                                       \
  X("dftl", make_dftl_ftl, dftl_ftl_keys) /* page-mapped, cached map (Gupta 2009) */ \
  X("example", make_example_ftl, example_ftl_keys)                              \
  X("zoned", make_zoned_ftl, zoned_ftl_keys) /* NVMe ZNS (docs/zns.md) */        \
  /* new FTLs above this line */

namespace ssdlab::ftl {

#define SSDLAB_DECLARE_FTL(name, factory, hooks)              \
  std::unique_ptr<Ftl> factory(const FtlContext& context); \
  extern const FtlKeyHooks hooks;
SSDLAB_BUILTIN_FTLS(SSDLAB_DECLARE_FTL)
#undef SSDLAB_DECLARE_FTL

namespace {

struct Entry {
  const char* name;
  std::unique_ptr<Ftl> (*make)(const FtlContext&);
  const FtlKeyHooks* hooks;
};

#define SSDLAB_FTL_ENTRY(name, factory, hooks) {name, &factory, &hooks},
constexpr Entry kFtls[] = {SSDLAB_BUILTIN_FTLS(SSDLAB_FTL_ENTRY)};
#undef SSDLAB_FTL_ENTRY

}  // namespace

std::vector<std::string> ftl_names() {
  std::vector<std::string> names;
  for (const auto& entry : kFtls) names.emplace_back(entry.name);
  for (const auto& name : registered_ftl_names()) names.push_back(name);
  return names;
}

std::unique_ptr<Ftl> make_ftl(const FtlContext& context) {
  for (const auto& entry : kFtls)
    if (context.config.type == entry.name) return entry.make(context);
  if (const FtlFactory make = find_registered_ftl(context.config.type)) return make(context);
  throw make_error("unknown FTL '{}' (known: {})", context.config.type,
                   fmt::join(ftl_names(), ", "));
}

FtlKeyHooks ftl_key_hooks(const std::string& type) {
  const FtlKeyHooks* found = nullptr;
  for (const auto& entry : kFtls)
    if (type == entry.name) found = entry.hooks;
  if (!found) found = find_registered_ftl_keys(type);
  if (!found)
    throw make_error("unknown FTL '{}' (known: {})", type, fmt::join(ftl_names(), ", "));
  FtlKeyHooks hooks = *found;
  // No keys of its own: nothing to read or echo; the generic description.
  if (!hooks.describe)
    hooks.describe = [](const FtlDescription& device, std::string& out) {
      describe_pools(device, out);
      describe_cleaning(device, out);
    };
  return hooks;
}

std::uint32_t summary_page_bytes(const flash::Geometry& geometry, std::uint32_t sector_size) {
  const std::uint64_t summary = 8 * std::uint64_t{geometry.pages_per_block};  // (ppb - 1) * 8 + 8
  const std::uint64_t sectors =
      std::max<std::uint64_t>(1, (summary + sector_size - 1) / sector_size);
  const std::uint64_t oob_share =
      std::uint64_t{sector_size} * geometry.oob_size / geometry.page_size;
  return static_cast<std::uint32_t>(sectors * (sector_size + oob_share));
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
