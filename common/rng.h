// Seeded pseudo-random generator used everywhere randomness is needed.
//
// xoshiro256** seeded through splitmix64. Unlike std::uniform_int_distribution,
// whose algorithm is implementation-defined, every draw here is specified, so
// the same seed gives the same io.csv on every platform and standard library.
#pragma once

#include <array>
#include <cstdint>

namespace ssdlab {

__extension__ using Uint128 = unsigned __int128;  // GCC and Clang

class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& word : state_) word = splitmix64(x);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform integer in [0, bound), bound > 0. Lemire's multiply-shift with
  // rejection: unbiased and platform independent.
  std::uint64_t uniform(std::uint64_t bound) {
    Uint128 product = static_cast<Uint128>(next()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
      const std::uint64_t threshold = -bound % bound;
      while (low < threshold) {
        product = static_cast<Uint128>(next()) * bound;
        low = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64);
  }

  // Uniform double in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // The generator's whole state, for checkpoints: a generator given the state
  // of another draws what that one would have drawn next.
  using State = std::array<std::uint64_t, 4>;
  State state() const { return {state_[0], state_[1], state_[2], state_[3]}; }
  void set_state(const State& state) {
    for (std::size_t i = 0; i < 4; ++i) state_[i] = state[i];
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  std::uint64_t state_[4];
};

}  // namespace ssdlab
