#include "workloads/uflip.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

#include "common/error.h"
#include "common/units.h"

namespace ssdlab::workloads {
namespace {

enum class Columns { kBaselines, kSequential, kMixes };

// One micro-benchmark of Table 1: the parameter it varies and the paper's
// range for it.
struct Benchmark {
  const char* name;
  const char* parameter;  // the experiment key it varies
  Columns columns;
  std::vector<std::int64_t> (*defaults)(const ExperimentSpec& base);
};

std::vector<std::int64_t> powers(std::int64_t unit, int from, int to) {
  std::vector<std::int64_t> values;
  for (int k = from; k <= to; ++k) values.push_back(unit << k);
  return values;
}

const Benchmark kBenchmarks[] = {
    // IOSize [2^0..2^9] x 512 B, plus some non-powers of 2 (1.5 x 2^k KiB).
    {"granularity", "io_size", Columns::kBaselines,
     [](const ExperimentSpec&) {
       auto sizes = powers(512, 0, 9);
       for (std::int64_t kib : {3, 6, 12, 24, 48, 96, 192}) sizes.push_back(kib * 1024);
       std::sort(sizes.begin(), sizes.end());
       return sizes;
     }},
    // IOShift [2^0..IOSize/512] x 512 B, and 0 (aligned) for reference.
    {"alignment", "io_shift", Columns::kBaselines,
     [](const ExperimentSpec& base) {
       std::vector<std::int64_t> shifts{0};
       for (std::uint64_t shift = 512; shift <= base.io_size; shift *= 2)
         shifts.push_back(static_cast<std::int64_t>(shift));
       return shifts;
     }},
    // TargetSize: Rnd [2^0..2^16] x IOSize, Seq [2^0..2^8] x IOSize.
    {"locality", "target_size", Columns::kBaselines,
     [](const ExperimentSpec& base) {
       return powers(static_cast<std::int64_t>(base.io_size), 0, is_random(base.pattern) ? 16 : 8);
     }},
    {"partitioning", "partitions", Columns::kSequential,
     [](const ExperimentSpec&) { return powers(1, 0, 8); }},
    // Incr [-1, 0, 2^0..2^8]: reverse, in-place, increasing.
    {"order", "increment", Columns::kSequential,
     [](const ExperimentSpec&) {
       auto increments = powers(1, 0, 8);
       increments.insert(increments.begin(), {-1, 0});
       return increments;
     }},
    {"parallelism", "processes", Columns::kBaselines,
     [](const ExperimentSpec&) { return powers(1, 0, 4); }},
    // Ratio (#1/#2) [2^0..2^6] over the six pairs of baselines.
    {"mix", "mix_ratio", Columns::kMixes, [](const ExperimentSpec&) { return powers(1, 0, 6); }},
    // Pause [2^0..2^8] x 0.1 ms.
    {"pause", "pause_us", Columns::kBaselines,
     [](const ExperimentSpec&) { return powers(100, 0, 8); }},
    // Burst [2^0..2^6] x 10, with Pause = 100 ms.
    {"bursts", "burst", Columns::kBaselines,
     [](const ExperimentSpec&) { return powers(10, 0, 6); }},
};

const Benchmark& find_benchmark(const std::string& name, const std::string& where) {
  for (const auto& benchmark : kBenchmarks)
    if (name == benchmark.name) return benchmark;
  throw make_error("{}: unknown uFLIP micro-benchmark '{}' (known: {}, all)", where, name,
                   fmt::join(uflip_benchmark_names(), ", "));
}

std::vector<std::string> default_columns(Columns columns) {
  switch (columns) {
    case Columns::kBaselines:
      return {"SR", "RR", "SW", "RW"};
    case Columns::kSequential:
      return {"SR", "SW"};
    case Columns::kMixes:  // Table 1's order
      return {"SR+RR", "SR+RW", "SR+SW", "RR+SW", "RR+RW", "SW+RW"};
  }
  return {};
}

// The varied parameter's value as it ends up in the spec: the name's suffix.
std::string parameter_value(const ExperimentSpec& spec, std::string_view parameter) {
  if (parameter == "io_size") return fmt::format("{}", spec.io_size);
  if (parameter == "io_shift") return fmt::format("{}", spec.io_shift);
  if (parameter == "target_size") return fmt::format("{}", spec.target_size);
  if (parameter == "partitions") return fmt::format("{}", spec.partitions);
  if (parameter == "increment") return fmt::format("{}", spec.increment);
  if (parameter == "processes") return fmt::format("{}", spec.processes);
  if (parameter == "mix_ratio") return fmt::format("{}", spec.mix_ratio);
  if (parameter == "pause_us") return format_us(spec.pause_ns);
  return fmt::format("{}", spec.burst);
}

// Target of the sequential patterns of the benchmarks that do not vary it:
// just what `count` I/Os cover, so that sequential writes leave the rest of
// the device in its enforced state (§4.1) and reads stay inside what was
// written.
std::uint64_t sequential_target(const ExperimentSpec& spec) {
  const std::uint64_t stride =
      spec.io_size *
      std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llabs(spec.increment)));
  return (spec.count * stride + spec.io_shift) * spec.processes;
}

// One experiment of `benchmark`: its column's pattern(s), the defaults, the
// request's overrides, then the varied parameter's `value` (none: a probe
// for computing the default values).
ExperimentSpec make_experiment(const Benchmark& benchmark, const std::string& column,
                               const KeyValue* value, const BenchmarkRequest& request,
                               const DeviceInfo& device) {
  ExperimentSpec spec;
  spec.origin = request.where;
  const std::string& where = request.where;
  const std::size_t plus = column.find('+');
  apply_key(spec, {"pattern", column.substr(0, plus), where});
  if (plus != std::string::npos) apply_key(spec, {"mix_pattern", column.substr(plus + 1), where});
  // Table 1's constants and the methodology's defaults (§4, §5.1): 32 KB
  // I/Os, start-up detected, three runs, a second of idle time before each.
  apply_key(spec, {"io_size", std::int64_t{32768}, where});
  apply_key(spec, {"io_ignore", std::string("auto"), where});
  apply_key(spec, {"runs", std::int64_t{3}, where});
  apply_key(spec, {"run_pause_us", std::int64_t{1000000}, where});
  if (std::string_view(benchmark.name) == "bursts")
    apply_key(spec, {"pause_us", std::int64_t{100000}, where});
  bool target_given = false;
  for (const KeyValue& kv : request.overrides) {
    if (kv.key == benchmark.parameter || kv.key == "pattern" || kv.key == "mix_pattern" ||
        kv.key == "name")
      throw make_error("{}: {}: {} sets it per experiment; give {} instead", kv.where, kv.key,
                       benchmark.name,
                       kv.key == benchmark.parameter ? "values = [...]" : "patterns = [...]");
    apply_key(spec, kv);
    target_given = target_given || kv.key == "target_size" || kv.key == "target_offset";
  }
  if (value) apply_key(spec, *value);
  spec.benchmark = benchmark.name;
  spec.column = column;
  spec.parameter = benchmark.parameter;
  finish_experiment(spec, "");
  spec.value = parameter_value(spec, benchmark.parameter);
  spec.name = fmt::format("{}-{}/{}={}", benchmark.name, column, benchmark.parameter, spec.value);
  if (!target_given && spec.parameter != "target_size" &&
      (writes_sequentially(spec) || benchmark.columns == Columns::kSequential)) {
    const std::uint64_t target = sequential_target(spec);
    if (target < device.logical_bytes) spec.target_size = target;
  }
  return spec;
}

}  // namespace

const std::vector<std::string>& uflip_benchmark_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const auto& benchmark : kBenchmarks) all.emplace_back(benchmark.name);
    return all;
  }();
  return names;
}

std::vector<ExperimentSpec> expand_benchmark(const BenchmarkRequest& request,
                                             const DeviceInfo& device) {
  const Benchmark& benchmark = find_benchmark(request.name, request.where);
  const std::vector<std::string> allowed = default_columns(benchmark.columns);
  std::vector<std::string> columns = request.columns.empty() ? allowed : request.columns;
  for (auto& column : columns) {
    std::transform(column.begin(), column.end(), column.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (std::find(allowed.begin(), allowed.end(), column) == allowed.end())
      throw make_error("{}: patterns: {} has no column '{}' (it has {})", request.where,
                       benchmark.name, column, fmt::join(allowed, ", "));
  }
  std::vector<ExperimentSpec> experiments;
  for (const std::string& column : columns) {
    std::vector<KeyValue> values = request.values;
    const bool defaults = values.empty();
    if (defaults) {
      // The defaults may depend on the pattern and on overridden keys.
      const ExperimentSpec probe = make_experiment(benchmark, column, nullptr, request, device);
      for (std::int64_t v : benchmark.defaults(probe))
        values.push_back(KeyValue{benchmark.parameter, v, request.where});
    }
    for (const KeyValue& value : values) {
      KeyValue named = value;
      named.key = benchmark.parameter;
      ExperimentSpec spec = make_experiment(benchmark, column, &named, request, device);
      try {
        validate_against_device(spec, device.logical_bytes, device.sector_size);
      } catch (const Error&) {
        if (defaults) continue;  // the paper's range reaches past this device
        throw;
      }
      experiments.push_back(std::move(spec));
    }
  }
  return experiments;
}

Plan uflip_plan(std::string_view workload, const DeviceInfo& device) {
  const std::string origin = fmt::format("-w '{}'", workload);
  std::string_view rest = workload.substr(workload.find(':') + 1);
  const std::size_t colon = rest.find(':');
  const std::string name(rest.substr(0, colon));
  const std::vector<KeyValue> overrides = colon == std::string_view::npos
                                              ? std::vector<KeyValue>{}
                                              : parse_inline_keys(rest.substr(colon + 1), origin);
  Plan plan;
  plan.source = std::string(workload);
  plan.state = std::string(kUflipState);
  const std::vector<std::string> names =
      name == "all" ? uflip_benchmark_names() : std::vector<std::string>{name};
  for (const std::string& benchmark : names) {
    BenchmarkRequest request{benchmark, {}, {}, overrides, origin};
    for (auto& spec : expand_benchmark(request, device))
      plan.experiments.push_back(std::move(spec));
  }
  arrange_sequential_writes(plan, device);
  return plan;
}

void arrange_sequential_writes(Plan& plan, const DeviceInfo& device) {
  auto& experiments = plan.experiments;
  const auto movable = [](const ExperimentSpec& spec) {
    return !spec.benchmark.empty() && spec.target_offset == 0 && writes_sequentially(spec);
  };
  // §4.2: experiments with sequential writes are delayed and grouped...
  const auto first = std::stable_partition(experiments.begin(), experiments.end(),
                                           [&](const ExperimentSpec& s) { return !movable(s); });
  // ...so that their target spaces do not overlap; the state is reset only
  // when the accumulated space would be larger than the device.
  const std::uint64_t align = std::max<std::uint64_t>(device.block_bytes, device.sector_size);
  std::uint64_t cursor = 0;
  for (auto it = first; it != experiments.end(); ++it) {
    const std::uint64_t span = it->target_size ? it->target_size : device.logical_bytes;
    if (cursor > 0 && cursor + span > device.logical_bytes) {
      it->reset_state_before = true;
      cursor = 0;
    }
    if (it->target_size) it->target_offset = cursor;
    cursor += (span + align - 1) / align * align;
  }
}

}  // namespace ssdlab::workloads
