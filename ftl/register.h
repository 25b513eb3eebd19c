// Registering an FTL, or a victim policy for the page-level FTLs' cleaning,
// from outside ftl/registry.cpp: for code built out of tree against an
// installed ssdlab (find_package(ssdlab), docs/examples/out-of-tree-ftl).
// The built-in FTLs stay in registry.cpp's explicit list, the built-in
// policies in victim_policy.cpp's.
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
const std::vector<std::string>& registered_ftl_names();

using VictimPolicyFactory = std::unique_ptr<VictimPolicy> (*)(const VictimPolicyContext&);

// Makes `factory` available as ftl.victim_policy = `name` to the
// page-mapped FTL and DFTL (victim_policy.h: the interface, and what the
// FTL tells a policy). Throws ssdlab::Error if the name is already taken
// (built in or registered). As register_ftl(): before the first config is
// read, not thread-safe.
void register_victim_policy(const std::string& name, VictimPolicyFactory factory);

// The registered factory of `name`, or null.
VictimPolicyFactory find_registered_victim_policy(std::string_view name);

// Names registered through register_victim_policy(), in registration order.
const std::vector<std::string>& registered_victim_policy_names();

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

// The same for a victim policy (a factory taking a VictimPolicyContext):
//   SSDLAB_REGISTER_VICTIM_POLICY("my-policy", make_my_policy);
#define SSDLAB_REGISTER_VICTIM_POLICY(name, factory)                           \
  [[maybe_unused]] static const bool ssdlab_registered_policy_##factory = [] { \
    ::ssdlab::ftl::register_victim_policy(name, &factory);                     \
    return true;                                                               \
  }()
