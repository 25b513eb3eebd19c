// An allocator for the simulator's big random-access tables (page map, NAND
// out-of-band area and valid bits): allocations of 4 MiB or more are aligned
// to 2 MiB and offered to the kernel as transparent huge pages.
//
// Why: a random 4 KB write touches a few random entries of tables of tens of
// MiB (GiB on a 1 TiB device); with 4 KiB pages nearly each touch is also a
// TLB miss and a page-table walk. With 2 MiB pages the TLB covers far more.
// On kernels with transparent huge pages in "madvise" mode (Debian's
// default) nothing happens without the madvise() call below.
//
// A hint only: contents and results are the same whether or not the kernel
// grants huge pages; elsewhere than Linux it is the plain allocator.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ssdlab {

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static constexpr std::size_t kThreshold = std::size_t{4} << 20;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t count) {
    const std::size_t bytes = count * sizeof(T);
    if (bytes < kThreshold) return std::allocator<T>().allocate(count);
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* memory = std::aligned_alloc(kHugePage, rounded);
    if (!memory) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(memory, rounded, MADV_HUGEPAGE);  // a hint: failure changes nothing
#endif
    return static_cast<T*>(memory);
  }
  void deallocate(T* memory, std::size_t count) {
    if (count * sizeof(T) < kThreshold)
      std::allocator<T>().deallocate(memory, count);
    else
      std::free(memory);
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};

// A vector whose storage, when large, lies in huge pages.
template <typename T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace ssdlab
