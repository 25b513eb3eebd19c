// The placement tag each page of a block carries in its OOB area with
// host-guided placement on (NandArray::placement_tag(); docs/fdp.md): 0 for
// a block of no one handle (a shared cleaning block), else its handle + 1,
// with kCleaningTag set on a persistently isolated handle's own cleaning
// block. The FTL writes it (ftl/page_mapped/page_mapped_fdp.h); the
// controller's read reclaim reads it to rewrite a block's data under its
// handle.
#pragma once

#include <cstdint>

namespace ssdlab::ftl {

constexpr std::uint8_t kCleaningTag = 0x80;

constexpr std::uint8_t host_tag(std::uint32_t handle) {
  return static_cast<std::uint8_t>(handle + 1);
}
// The handle of a block's tag (not 0).
constexpr std::uint32_t tag_handle(std::uint8_t tag) {
  return (tag & 0x7fU) - 1U;
}

}  // namespace ssdlab::ftl
