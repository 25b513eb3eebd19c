#include "workloads/synthetic.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include "common/checked.h"
#include "common/error.h"
#include "workloads/generator.h"
#include "workloads/plan.h"
#include "workloads/plan_keys.h"

namespace ssdlab::workloads {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at = text.find(separator); at != std::string::npos;
       at = text.find(separator, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

// "constant:A", "uniform:A:B" or "exponential:A"; `value` reads one parameter
// (microseconds or a size) or returns nullopt.
template <typename ReadValue>
Distribution parse_distribution(const KeyValue& kv, const char* unit, ReadValue value) {
  const auto* text = std::get_if<std::string>(&kv.value);
  const std::string expected = fmt::format(
      "expected constant:V, uniform:LO:HI or exponential:MEAN with V, LO, HI, MEAN in {}", unit);
  if (!text) throw make_error("{}: {}: {}", kv.where, kv.key, expected);
  const auto parts = split(*text, ':');
  Distribution d;
  std::size_t parameters = 1;
  if (parts[0] == "constant") {
    d.kind = Distribution::Kind::kConstant;
  } else if (parts[0] == "uniform") {
    d.kind = Distribution::Kind::kUniform;
    parameters = 2;
  } else if (parts[0] == "exponential") {
    d.kind = Distribution::Kind::kExponential;
  } else {
    throw make_error("{}: {}: '{}' is not a distribution; {}", kv.where, kv.key, parts[0],
                     expected);
  }
  if (parts.size() != parameters + 1)
    throw make_error("{}: {}: '{}' needs {} parameter{}; {}", kv.where, kv.key, *text, parameters,
                     parameters == 1 ? "" : "s", expected);
  double values[2] = {0, 0};
  for (std::size_t i = 0; i < parameters; ++i) {
    const std::optional<double> v = value(parts[i + 1]);
    if (!v || !(*v >= 0) || !std::isfinite(*v))
      throw make_error("{}: {}: '{}' is not a non-negative number of {}; {}", kv.where, kv.key,
                       parts[i + 1], unit, expected);
    values[i] = *v;
  }
  d.a = values[0];
  d.b = values[1];
  if (d.kind == Distribution::Kind::kUniform && d.b < d.a)
    throw make_error("{}: {}: uniform:{}:{}: the upper bound is below the lower", kv.where, kv.key,
                     parts[1], parts[2]);
  if (d.kind == Distribution::Kind::kExponential && d.a <= 0)
    throw make_error("{}: {}: exponential needs a mean above 0", kv.where, kv.key);
  return d;
}

std::optional<double> parse_number(const std::string& text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

double as_share(const KeyValue& kv) {
  std::optional<double> value;
  if (const auto* i = std::get_if<std::int64_t>(&kv.value)) value = static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&kv.value)) value = *d;
  if (const auto* s = std::get_if<std::string>(&kv.value)) value = parse_number(*s);
  if (!value || !(*value >= 0 && *value <= 1))
    throw make_error("{}: {}: expected a probability from 0 to 1, such as 0.25", kv.where, kv.key);
  return *value;
}

}  // namespace

double Distribution::draw(Rng& rng) const {
  switch (kind) {
    case Kind::kConstant:
      return a;
    case Kind::kUniform:
      return a + (b - a) * rng.unit();
    case Kind::kExponential:
      return -a * std::log1p(-rng.unit());  // unit() < 1: finite
  }
  return a;
}

double Distribution::mean() const {
  return kind == Kind::kUniform ? (a + b) / 2 : a;
}

std::string Distribution::describe() const {
  switch (kind) {
    case Kind::kConstant:
      return fmt::format("constant:{}", a);
    case Kind::kUniform:
      return fmt::format("uniform:{}:{}", a, b);
    case Kind::kExponential:
      return fmt::format("exponential:{}", a);
  }
  return "?";
}

namespace {

void apply_interarrival(ExperimentSpec& spec, const KeyValue& kv) {
  Distribution us = parse_distribution(kv, "microseconds", parse_number);
  for (const double value : {us.a, us.b})
    if (!us_to_ns(value))
      throw make_error(
          "{}: {}: {} us is beyond what the simulated clock holds (2^62 ns, about 146 years)",
          kv.where, kv.key, value);
  us.a *= 1000;
  us.b *= 1000;
  spec.synthetic.interarrival_ns = us;
}

void apply_size_distribution(ExperimentSpec& spec, const KeyValue& kv) {
  spec.synthetic.size_bytes =
      parse_distribution(kv, "bytes (4096, 4KiB)", [](const std::string& text) {
        const auto bytes = parse_size(text);
        return bytes ? std::optional<double>(static_cast<double>(*bytes)) : std::nullopt;
      });
}

constexpr PlanKey kSyntheticKeys[] = {
    {"interarrival_us", &apply_interarrival},
    {"size_distribution", &apply_size_distribution},
    {"sequential_share",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.synthetic.sequential_share = as_share(kv);
     }},
    {"read_share",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.synthetic.read_share = as_share(kv); }},
};

}  // namespace

std::span<const PlanKey> synthetic_keys() {
  return kSyntheticKeys;
}

void check_synthetic(const ExperimentSpec& spec) {
  const SyntheticKeys& keys = spec.synthetic;
  if (!keys.any()) return;
  const auto& o = spec.origin;
  const char* clash = spec.mix_pattern          ? "mix_pattern"
                      : spec.increment != 1     ? "increment"
                      : spec.partitions != 1    ? "partitions"
                      : spec.hot_fraction > 0   ? "hot_fraction"
                      : spec.zipf > 0           ? "zipf"
                      : spec.trim_share > 0     ? "trim_share"
                                                : nullptr;
  if (clash)
    throw make_error(
        "{}: {} does not combine with the synthetic keys (interarrival_us, size_distribution, "
        "sequential_share, read_share), which choose addresses and modes themselves",
        o, clash);
  if (keys.open_loop() && (spec.pause_ns > 0 || spec.queue_depth != 1))
    throw make_error(
        "{}: interarrival_us makes arrivals open-loop; {} applies to closed-loop runs only", o,
        spec.pause_ns > 0 ? "pause_us" : "queue_depth");
}

SyntheticStream::SyntheticStream(const ExperimentSpec& spec, std::uint64_t base,
                                 std::uint64_t slots, std::uint64_t seed)
    : keys_(spec.synthetic),
      origin_(spec.origin),
      io_size_(static_cast<std::uint32_t>(spec.io_size)),
      base_(base),
      slots_(std::max<std::uint64_t>(slots, 1)),
      sequential_share_(keys_.sequential_share.value_or(is_random(spec.pattern) ? 0.0 : 1.0)),
      read_share_(keys_.read_share.value_or(is_write(spec.pattern) ? 0.0 : 1.0)),
      arrivals_(seed ^ 0x61727276ULL),
      sizes_(seed ^ 0x73697a65ULL),
      addresses_(seed),
      modes_(seed ^ 0x6d6f6465ULL) {}

IoRequest SyntheticStream::next() {
  // Size: drawn, rounded up to whole blocking units (DiskSim's blocking
  // factor), at least one unit, at most the share.
  std::uint64_t units = 1;
  if (keys_.size_bytes) {
    const double bytes = keys_.size_bytes->draw(sizes_);
    units = static_cast<std::uint64_t>(std::ceil(bytes / io_size_));
    const std::uint64_t most = std::min<std::uint64_t>(slots_, UINT32_MAX / io_size_);
    units = std::clamp<std::uint64_t>(units, 1, most);
  }
  // Address: where the previous request ended with probability
  // sequential_share (back to the start if it would run past the end),
  // otherwise uniform over the starts that fit.
  // A sequential stream (share 1) starts at the share's first byte.
  const bool sequential = sequential_share_ >= 1 ||
                          (!first_ && sequential_share_ > 0 && addresses_.unit() < sequential_share_);
  std::uint64_t slot = sequential ? next_slot_ : addresses_.uniform(slots_ - units + 1);
  if (slot + units > slots_) slot = 0;
  next_slot_ = slot + units;
  const bool read = read_share_ >= 1 || (read_share_ > 0 && modes_.unit() < read_share_);
  IoRequest io{base_ + slot * io_size_, static_cast<std::uint32_t>(units * io_size_),
               read ? IoMode::kRead : IoMode::kWrite, 0};
  // Open loop: the time since the previous arrival (the first arrives after
  // one gap too, as DiskSim's generator draws its first arrival).
  if (keys_.interarrival_ns) {
    const double gap = keys_.interarrival_ns->draw(arrivals_);
    const std::optional<TimeNs> delay = to_clock_ns(gap);
    if (!delay)
      throw make_error(
          "{}: interarrival_us: a drawn gap of {:.0f} us is beyond what the simulated clock "
          "holds (2^62 ns, about 146 years)",
          origin_, gap / 1000);
    io.delay_ns = *delay;
  }
  first_ = false;
  return io;
}

}  // namespace ssdlab::workloads
