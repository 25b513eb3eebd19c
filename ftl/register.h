// Registering an FTL from outside ftl/registry.cpp: for FTLs built out of
// tree against an installed ssdlab (find_package(ssdlab), docs/examples/
// out-of-tree-ftl). The built-in FTLs stay in registry.cpp's explicit list.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ftl/ftl.h"

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
