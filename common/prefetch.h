// Software prefetch hints: start loading a cache line that is about to be
// read or written, so that several independent cache misses overlap.
//
// Hints only: they never change a result, and a wrong address costs nothing
// but bandwidth (a prefetch never faults). Used on the simulator's hot paths
// where the next random accesses into large tables (page map, NAND state) are
// known before they are needed (README "Performance").
#pragma once

namespace ssdlab {

inline void prefetch_for_read(const void* address) {
#if defined(__GNUC__)
  __builtin_prefetch(address, 0, 3);
#else
  (void)address;
#endif
}

inline void prefetch_for_write(const void* address) {
#if defined(__GNUC__)
  __builtin_prefetch(address, 1, 3);
#else
  (void)address;
#endif
}

}  // namespace ssdlab
