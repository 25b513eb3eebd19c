// Unsigned 32-bit division and remainder by a divisor fixed at run time, done
// as multiplications: Lemire, Kaser and Kurz, "Faster Remainder by Direct
// Computation: Applications to Compilers and Software Libraries" (2019),
// §3. Exact for every 32-bit numerator and every divisor >= 1: the same
// results as `/` and `%`, without a division instruction (a multiply is a
// few cycles; a 32-bit divide some 12-25, and address decoding chains them).
#pragma once

#include <cstdint>

namespace ssdlab {

class FastDiv {
 public:
  FastDiv() = default;
  // A divisor of 0 is a programming error (as for `/`); it then divides by 1.
  explicit FastDiv(std::uint32_t divisor)
      : divisor_(divisor == 0 ? 1 : divisor),
        magic_(divisor_ == 1 ? 0 : ~std::uint64_t{0} / divisor_ + 1) {}

  std::uint32_t divisor() const { return divisor_; }
  std::uint32_t quotient(std::uint32_t n) const {
    if (magic_ == 0) return n;  // divisor 1: ceil(2^64 / 1) does not fit
    return static_cast<std::uint32_t>((static_cast<Wide>(magic_) * n) >> 64);
  }
  std::uint32_t remainder(std::uint32_t n) const {
    if (magic_ == 0) return 0;
    const std::uint64_t fraction = magic_ * n;  // (n / d) mod 1, in 64-bit fixed point
    return static_cast<std::uint32_t>((static_cast<Wide>(fraction) * divisor_) >> 64);
  }

 private:
  __extension__ using Wide = unsigned __int128;
  std::uint32_t divisor_ = 1;
  std::uint64_t magic_ = 0;  // ceil(2^64 / divisor), or 0 for divisor 1
};

}  // namespace ssdlab
