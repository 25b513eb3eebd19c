#include "sim/sweep/slurm_values.h"

#include <regex>

#include "common/error.h"
#include "common/script_text.h"

namespace ssdlab::sim {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

// sbatch(1), --time: "minutes", "minutes:seconds", "hours:minutes:seconds",
// "days-hours", "days-hours:minutes", "days-hours:minutes:seconds"; 0, and
// UNLIMITED or INFINITE, for no limit.
bool slurm_time(const std::string& text) {
  static const std::regex time(R"(\d+(:\d+){0,2}|\d+-\d+(:\d+){0,2}|UNLIMITED|INFINITE)");
  return std::regex_match(text, time);
}

// sbatch(1), --mem: "<size>[units]", a whole number of megabytes or of the
// unit K, M, G or T.
bool slurm_size(const std::string& text) {
  static const std::regex size(R"(\d+[KMGTkmgt]?)");
  return std::regex_match(text, size);
}

// A partition or account name; a partition may be a comma-separated list.
bool slurm_names(const std::string& text, bool list) {
  if (text.empty()) return false;
  bool empty_name = true;
  for (char c : text) {
    if (list && c == ',') {
      if (empty_name) return false;
      empty_name = true;
      continue;
    }
    if (!is_name_char(c)) return false;
    empty_name = false;
  }
  return !empty_name;
}

}  // namespace

void check_slurm_options(const SlurmOptions& options) {
  const auto shown = [](const std::string& value) { return escaped_controls(value); };
  if (!options.time.empty() && !slurm_time(options.time))
    throw make_error(
        "--time '{}': not a Slurm time limit (minutes, minutes:seconds, hours:minutes:seconds, "
        "days-hours, days-hours:minutes, days-hours:minutes:seconds, or UNLIMITED; whole numbers, "
        "none negative)",
        shown(options.time));
  if (!options.mem.empty() && !slurm_size(options.mem))
    throw make_error(
        "--mem '{}': not a Slurm memory size (a whole number of megabytes, or with the unit K, "
        "M, G or T: 4G)",
        shown(options.mem));
  if (!options.partition.empty() && !slurm_names(options.partition, true))
    throw make_error(
        "--partition '{}': not a Slurm partition name or comma-separated list of them (letters, "
        "digits, '.', '_' and '-'; no space or control character)",
        shown(options.partition));
  if (!options.account.empty() && !slurm_names(options.account, false))
    throw make_error(
        "--account '{}': not a Slurm account name (letters, digits, '.', '_' and '-'; no space "
        "or control character)",
        shown(options.account));
  for (const std::string& line : options.extra) {
    if (has_control(line) || !line.starts_with("-"))
      throw make_error(
          "--sbatch '{}': expected one sbatch option, such as --constraint=x, on one line (no "
          "control character)",
          shown(line));
  }
}

std::string slurm_job_name(const std::string& stem) {
  std::string name = "ssdlab-";
  for (char c : stem) name += is_name_char(c) ? c : '_';
  return name;
}

}  // namespace ssdlab::sim
