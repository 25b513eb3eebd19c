// The trace read options of `ssdlab sim` and `ssdlab trace-info` (CLI11).
#include "sim/cli/trace_read_cli.h"

#include <algorithm>

#include "sim/cli/validators.h"

namespace ssdlab::cli {

void TraceReadFlags::apply(traces::ReadOptions& read) const {
  for (const auto& flag : flags_)
    if (flag.option->count() > 0) traces::set_read_option(read, *flag.key, flag.text);
}

void add_trace_read_options(CLI::App& command, TraceReadFlags& flags, const std::string& group,
                            std::initializer_list<std::string_view> except) {
  using Kind = traces::ReadOptionKey::Kind;
  for (const auto& key : traces::read_option_keys()) {
    if (std::find(except.begin(), except.end(), key.flag) != except.end()) continue;
    auto& flag = flags.flags_.emplace_back();
    flag.key = &key;
    const std::string name(key.flag);
    if (key.kind == Kind::kFlag) {
      flag.option = command.add_flag(name, key.help);
    } else {
      flag.option = command.add_option(name, flag.text, key.help);
      if (key.kind == Kind::kCount) flag.option->check(positive_integer());
    }
    if (!group.empty()) flag.option->group(group);
  }
}

}  // namespace ssdlab::cli
