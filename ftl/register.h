// Registering an FTL, or a victim policy or an SLC cache fold order for the
// page-level FTLs, from outside ftl/registry.cpp: for code built out of tree
// against an installed ssdlab (find_package(ssdlab), docs/examples/
// out-of-tree-ftl). The built-in FTLs stay in registry.cpp's explicit list,
// the built-in policies in victim_policy.cpp's, the built-in fold orders in
// slc_cache_config.cpp's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ftl/ftl.h"
#include "ftl/victim_policy.h"

namespace ssdlab::ftl {

using FtlFactory = std::unique_ptr<Ftl> (*)(const FtlContext&);

// Makes `factory` available as ftl.type = `name` to make_ftl() and
// ftl_names() (and so to config validation and `--set ftl.type=name`), with
// `keys`, the hooks that read, echo and describe its own [ftl] keys
// (ftl_keys.h; none by default).
// Throws ssdlab::Error if the name is already taken (built in or registered).
// Call it before the first config is read: from main(), or through
// SSDLAB_REGISTER_FTL below. Not thread-safe; registrations never go away.
void register_ftl(const std::string& name, FtlFactory factory, const FtlKeyHooks& keys = {});

// The registered (not built-in) factory of `name`, or null.
FtlFactory find_registered_ftl(const std::string& name);

// The key hooks registered with `name`, or null.
const FtlKeyHooks* find_registered_ftl_keys(const std::string& name);

// Names registered through register_ftl(), in registration order.
std::vector<std::string> registered_ftl_names();

using VictimPolicyFactory = std::unique_ptr<VictimPolicy> (*)(const VictimPolicyContext&);

// Makes `factory` available as ftl.victim_policy = `name` to the
// page-mapped FTL and DFTL (victim_policy.h: the interface, and what the
// FTL tells a policy). Throws ssdlab::Error if the name is already taken
// (built in or registered). As register_ftl(): before the first config is
// read, not thread-safe.
void register_victim_policy(const std::string& name, VictimPolicyFactory factory);

// The registered factory of `name`, or null.
VictimPolicyFactory find_registered_victim_policy(std::string_view name);
// `name` as registered (valid for the run: configs keep it), or null.
const char* registered_victim_policy_name(std::string_view name);

// Names registered through register_victim_policy(), in registration order.
std::vector<std::string> registered_victim_policy_names();

// A sealed SLC cache block that folding may empty next
// (ftl/page_mapped/page_mapped_slc_cache.h).
struct SlcFoldCandidate {
  flash::BlockId block = 0;
  std::uint32_t valid_pages = 0;      // of pages_per_block (SLC pages: one a wordline)
  std::uint32_t pages_per_block = 0;  // in SLC mode
  std::uint64_t seal_rank = 0;        // 0: the block of its pool sealed longest ago
  std::uint32_t erase_count = 0;      // the block's P/E cycles so far
};
// A fold order: each candidate's key; the lowest folds first, equal keys in
// seal order (fifo is the seal rank, greedy the valid pages). A plain
// function of the candidate, so that runs stay deterministic.
using SlcFoldKey = std::uint64_t (*)(const SlcFoldCandidate&);

// Makes `key` available as slc_cache.fold_order = `name` to the SLC cache
// of page-mapped and DFTL. Throws ssdlab::Error if the name is taken.
void register_slc_fold_order(const std::string& name, SlcFoldKey key);
// The registered key of `name`, or null; of the `index`-th registered (a
// config's SlcCacheConfig::fold_registered), or null.
SlcFoldKey find_registered_slc_fold_order(std::string_view name);
SlcFoldKey registered_slc_fold_key(std::size_t index);
// Names registered through register_slc_fold_order(), in registration order.
std::vector<std::string> registered_slc_fold_order_names();

}  // namespace ssdlab::ftl

// One line at namespace scope in the executable's own source file:
//   SSDLAB_REGISTER_FTL("my-ftl", make_my_ftl);
// or, for an FTL with [ftl] keys of its own (an FtlKeyHooks, ftl_keys.h):
//   SSDLAB_REGISTER_FTL("my-ftl", make_my_ftl, my_ftl_keys);
// It registers before main() runs. It must be in a file compiled into the
// executable itself, not into a static library: the linker keeps every object
// file of the executable, but only the library members something refers to.
#define SSDLAB_REGISTER_FTL(name, factory, ...)                                    \
  [[maybe_unused]] static const bool ssdlab_registered_ftl_##factory = [] {        \
    ::ssdlab::ftl::register_ftl(name, &factory __VA_OPT__(, ) __VA_ARGS__);        \
    return true;                                                                    \
  }()

// The same for a victim policy (a factory taking a VictimPolicyContext) and
// for an SLC cache fold order (an SlcFoldKey):
//   SSDLAB_REGISTER_VICTIM_POLICY("my-policy", make_my_policy);
//   SSDLAB_REGISTER_SLC_FOLD_ORDER("my-order", my_fold_key);
#define SSDLAB_REGISTER_VICTIM_POLICY(name, factory)                           \
  [[maybe_unused]] static const bool ssdlab_registered_policy_##factory = [] { \
    ::ssdlab::ftl::register_victim_policy(name, &factory);                     \
    return true;                                                               \
  }()

#define SSDLAB_REGISTER_SLC_FOLD_ORDER(name, key)                              \
  [[maybe_unused]] static const bool ssdlab_registered_fold_order_##key = [] { \
    ::ssdlab::ftl::register_slc_fold_order(name, &key);                        \
    return true;                                                               \
  }()
