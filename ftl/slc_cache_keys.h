// The SLC cache's config table, [slc_cache] (slc_cache_keys.cpp): the part
// the page-mapped FTL and DFTL take (FtlKeyHooks::parts).
#pragma once

#include "ftl/ftl.h"

namespace ssdlab::ftl {

extern const FtlPartKeys slc_cache_keys;

}  // namespace ssdlab::ftl
