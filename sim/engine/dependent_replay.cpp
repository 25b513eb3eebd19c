#include "sim/engine/dependent_replay.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>

#include "common/error.h"

namespace ssdlab::sim {

class DependentTrace::Process final : public IoSource {
 public:
  Process(std::uint32_t number, ReplayResult& counts) : number_(number), counts_(counts) {}

  // Records must come in submit order.
  void add(const traces::TraceRecord& record) {
    ios_.push_back(SourceIo{{record.offset, record.size, record.mode, record.placement}, 0});
    submits_.push_back(record.time_ns);
    completions_.push_back(record.time_ns + record.response_ns);
  }

  // The depth and each I/O's think time (SourceIo::time), counted from
  // `zero`.
  void finish(TimeNs zero) {
    // The most I/Os outstanding when one is submitted, itself included; a
    // completion at the instant of a submit has freed its slot.
    std::priority_queue<TimeNs, std::vector<TimeNs>, std::greater<>> outstanding;
    for (std::size_t i = 0; i < ios_.size(); ++i) {
      while (!outstanding.empty() && outstanding.top() <= submits_[i]) outstanding.pop();
      outstanding.push(completions_[i]);
      depth_ = std::max<std::uint32_t>(depth_, static_cast<std::uint32_t>(outstanding.size()));
    }
    std::sort(completions_.begin(), completions_.end());
    for (std::size_t i = 0; i < ios_.size(); ++i)
      ios_[i].time = submits_[i] - (i < depth_ ? zero : completions_[i - depth_]);
    submits_ = {};
    completions_ = {};
  }

  std::optional<SourceIo> next() override {
    if (next_ == ios_.size()) return std::nullopt;
    const SourceIo& io = ios_[next_++];
    ++counts_.requests;
    counts_.trims += io.mode == IoMode::kTrim;
    return io;
  }
  const SourceIo* peek(std::size_t ahead) const override {
    return next_ + ahead < ios_.size() ? &ios_[next_ + ahead] : nullptr;
  }

  std::uint32_t number() const { return number_; }
  std::uint32_t depth() const { return depth_; }

 private:
  std::uint32_t number_;
  ReplayResult& counts_;
  std::vector<SourceIo> ios_;
  std::vector<TimeNs> submits_, completions_;
  std::uint32_t depth_ = 0;
  std::size_t next_ = 0;
};

DependentTrace::DependentTrace(traces::TraceReader& trace, std::optional<TimeNs> zero) {
  std::map<std::uint32_t, Process*> by_number;
  std::optional<TimeNs> first;
  std::uint64_t records = 0;
  while (const std::optional<traces::TraceRecord> record = trace.next()) {
    ++records;
    if (record->response_ns < 0)
      throw make_error(
          "--mode dependent: request {} has no recorded response time (only the ssdlab format, "
          "an io.csv, records them)",
          records);
    if (record->response_ns > traces::kMaxTraceTimeNs)
      throw make_error(
          "--mode dependent: request {} has a response time of {} ns, beyond what the simulated "
          "clock holds (2^62 ns)",
          records, record->response_ns);
    if (!first) first = counts_.trace_start_ns = record->time_ns;
    counts_.trace_end_ns = record->time_ns;
    Process*& process = by_number[record->process];
    if (!process)
      process = processes_.emplace_back(std::make_unique<Process>(record->process, counts_)).get();
    process->add(*record);
  }
  std::sort(processes_.begin(), processes_.end(),
            [](const auto& a, const auto& b) { return a->number() < b->number(); });
  for (const auto& process : processes_) {
    process->finish(zero ? std::min(*zero, *first) : *first);
    counts_.process_depths[process->number()] = process->depth();
  }
}

DependentTrace::~DependentTrace() = default;

void DependentTrace::add_streams(const HostStream& place, std::vector<HostStream>& streams) {
  for (const auto& process : processes_) {
    HostStream stream = place;
    stream.source = process.get();
    stream.process = process->number();
    stream.slots = process->depth();
    streams.push_back(stream);
  }
}

}  // namespace ssdlab::sim
