#include "workloads/state_enforcement.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "common/error.h"
#include "common/rng.h"

namespace ssdlab::workloads {

PreconditionSpec parse_precondition(std::string_view text) {
  PreconditionSpec spec;
  spec.text = std::string(text);
  const std::size_t colon = text.find(':');
  const std::string_view kind = text.substr(0, colon);
  if (kind == "none" && colon == std::string_view::npos) return spec;
  if (kind == "seq")
    spec.kind = PreconditionSpec::Kind::kSequential;
  else if (kind == "random")
    spec.kind = PreconditionSpec::Kind::kRandom, spec.overwrites = 1;
  else if (kind == "uflip")
    spec.kind = PreconditionSpec::Kind::kUflip, spec.overwrites = 1;
  else
    throw make_error("--precondition '{}': expected seq[:N], random[:N], uflip[:N] or none", text);
  if (colon != std::string_view::npos) {
    const std::string_view number = text.substr(colon + 1);
    double n = -1;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), n);
    if (error != std::errc() || end != number.data() + number.size() || !(n >= 0 && n <= 1000))
      throw make_error(
          "--precondition '{}': N must be a number from 0 to 1000 (capacities of "
          "writes after the sequential fill)",
          text);
    spec.overwrites = n;
  }
  return spec;
}

void state_writes(const PreconditionSpec& spec, const StateGeometry& g, std::uint64_t seed,
                  const std::function<void(std::uint64_t, std::uint64_t)>& write) {
  const std::uint64_t capacity = g.capacity, chunk = g.chunk, page = g.page, sector = g.sector;
  // The sequential fill, in chunks of a flash block.
  for (std::uint64_t offset = 0; offset < capacity; offset += chunk)
    write(offset, std::min(chunk, capacity - offset));

  Rng rng(seed ^ 0x5eed5eed5eedULL);
  const auto budget = static_cast<std::uint64_t>(spec.overwrites * static_cast<double>(capacity));
  std::uint64_t written = 0;
  if (spec.kind == PreconditionSpec::Kind::kSequential) {
    for (; written < budget; written += chunk) {
      const std::uint64_t offset = written % capacity;
      write(offset, std::min(chunk, capacity - offset));
    }
  } else if (spec.kind == PreconditionSpec::Kind::kRandom) {
    const std::uint64_t pages = capacity / page;
    for (; written < budget; written += page) write(rng.uniform(pages) * page, page);
  } else if (spec.kind == PreconditionSpec::Kind::kUflip) {
    const std::uint64_t max_sectors = chunk / sector;
    while (written < budget) {
      const std::uint64_t size = (1 + rng.uniform(max_sectors)) * sector;
      const std::uint64_t offset = rng.uniform((capacity - size) / sector + 1) * sector;
      write(offset, size);
      written += size;
    }
  }
}

}  // namespace ssdlab::workloads
