// Checked arithmetic for the times and addresses that come from user input
// (plans, traces, the address maps): every sum and product that a hostile
// value could overflow goes through these, so that an overflow is an error
// naming the input, never undefined behaviour or a wrapped value.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "common/units.h"

namespace ssdlab {

// The simulated clock's bound: no time of a run (an arrival, a pause, the
// sum of a plan's pauses) may pass 2^62 ns (about 146 years), so that the
// response times and the differences added to such times cannot overflow the
// int64 clock (2^63 ns). Trace times are refused beyond it as well
// (traces/trace.h).
inline constexpr TimeNs kClockLimitNs = TimeNs{1} << 62;

// a + b, or nullopt if it does not fit T.
template <typename T>
constexpr std::optional<T> checked_add(T a, T b) {
  static_assert(std::is_integral_v<T>);
  T sum{};
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

// a × b, or nullopt if it does not fit T.
template <typename T>
constexpr std::optional<T> checked_mul(T a, T b) {
  static_assert(std::is_integral_v<T>);
  T product{};
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

// A time sum on the simulated clock: a + b, or nullopt if either is negative
// or the sum passes kClockLimitNs.
constexpr std::optional<TimeNs> clock_add(TimeNs a, TimeNs b) {
  if (a < 0 || b < 0) return std::nullopt;
  const std::optional<TimeNs> sum = checked_add(a, b);
  if (!sum || *sum > kClockLimitNs) return std::nullopt;
  return sum;
}

// count × each on the simulated clock (count pauses of `each`), or nullopt
// if it passes kClockLimitNs.
constexpr std::optional<TimeNs> clock_mul(std::uint64_t count, TimeNs each) {
  if (each < 0) return std::nullopt;
  const std::optional<std::uint64_t> product = checked_mul(count, static_cast<std::uint64_t>(each));
  if (!product || *product > static_cast<std::uint64_t>(kClockLimitNs)) return std::nullopt;
  return static_cast<TimeNs>(*product);
}

// Nanoseconds as a double (a drawn time) to the clock's integer, rounded to
// the nearest; nullopt if not finite, negative, or beyond kClockLimitNs
// (llround of such a value is undefined).
inline std::optional<TimeNs> to_clock_ns(double ns) {
  if (!std::isfinite(ns) || ns < 0) return std::nullopt;
  const double rounded = std::round(ns);
  if (!(rounded <= static_cast<double>(kClockLimitNs))) return std::nullopt;
  return static_cast<TimeNs>(rounded);
}

// Microseconds (a plan's double) to nanoseconds, as to_clock_ns().
inline std::optional<TimeNs> us_to_ns(double us) {
  return to_clock_ns(us * 1000);
}

}  // namespace ssdlab
