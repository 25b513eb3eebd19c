#include "common/host_info.h"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <thread>

namespace ssdlab {

namespace {

std::uint64_t fnv1a(std::string_view text, std::uint64_t basis) {
  std::uint64_t hash = basis;
  for (const unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ULL;
  return hash;
}

}  // namespace

unsigned usable_cpus() {
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) cpus = std::max(1, CPU_COUNT(&set));
  if (const char* slurm = std::getenv("SLURM_CPUS_PER_TASK"); slurm && *slurm) {
    char* end = nullptr;
    const unsigned long given = std::strtoul(slurm, &end, 10);
    if (*end == '\0' && given > 0) cpus = std::min<unsigned>(cpus, static_cast<unsigned>(given));
  }
  return cpus;
}

std::string text_digest(std::string_view text) {
  return fmt::format("{:016x}{:016x}", fnv1a(text, 0xcbf29ce484222325ULL),
                     fnv1a(text, 0x84222325cbf29ce4ULL));
}

const std::string& build_digest() {
  static const std::string digest = [] {
    std::ifstream in("/proc/self/exe", std::ios::binary);
    if (!in) return std::string("unknown");
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return bytes.empty() ? std::string("unknown") : text_digest(bytes);
  }();
  return digest;
}

}  // namespace ssdlab
