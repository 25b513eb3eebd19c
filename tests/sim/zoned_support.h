// The tiny preset as a zoned drive, as docs/zns.md writes it (62 zones of
// 256 KiB over two dies), for the zoned tests.
#pragma once

#include <string>
#include <vector>

namespace ssdlab::testing {

inline const std::vector<std::string> kZoned = {"ftl.type=\"zoned\"", "ftl.overprovisioning=0.03",
                                                "ftl.zone_width=2"};

// kZoned followed by `more` (--set values).
inline std::vector<std::string> zoned(std::vector<std::string> more = {}) {
  std::vector<std::string> all = kZoned;
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

}  // namespace ssdlab::testing
