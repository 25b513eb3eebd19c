#include "analysis/plot.h"

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "common/error.h"
#include "common/temp_folder.h"
#include "plot_script.h"

extern char** environ;

namespace ssdlab::analysis {
namespace fs = std::filesystem;

namespace {

// Debian's own interpreter, whatever else is first on PATH (a virtualenv's
// python would lack python3-matplotlib).
constexpr const char* kPython = "/usr/bin/python3";

bool is_output_folder(const fs::path& folder) {
  return fs::is_regular_file(folder / "summary.json");
}

// `ssdlab sweep -o FOLDER` (or `ssdlab collect`): its jobs are plotted together.
bool is_sweep_folder(const fs::path& folder) {
  return fs::is_regular_file(folder / "sweep.csv") || fs::is_regular_file(folder / "jobs.json");
}

// The figures of output folders go into a folder: `-o FILE.png` is for a
// timeline.
void check_figure_folder(const std::string& out) {
  const std::string extension = fs::path(out).extension().string();
  if (extension == ".png" || extension == ".svg")
    throw make_error(
        "-o {}: the figures of an output folder go into a folder (a file name is for "
        "a --timeline FILE.json)",
        out);
}

}  // namespace

int run_plot_script(const std::vector<std::string>& arguments) {
  if (access(kPython, X_OK) != 0)
    throw make_error("plot needs {} (apt-get install python3 python3-matplotlib)", kPython);
  // The script goes to a private temporary file for the interpreter to read.
  std::string script = (temporary_folder("plot") / "ssdlab-plot-XXXXXX").string();
  const int fd = mkstemp(script.data());
  if (fd < 0)
    throw make_error("{}: cannot create a temporary file: {}", script, std::strerror(errno));
  close(fd);
  {
    std::ofstream out(script, std::ios::binary);
    out << kPlotScript;
    if (!out.flush()) throw make_error("{}: write failed", script);
  }
  std::vector<std::string> args{kPython, script};
  args.insert(args.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, kPython, nullptr, nullptr, argv.data(), environ);
  int status = 0;
  if (spawned == 0) waitpid(pid, &status, 0);
  std::error_code ignored;
  fs::remove(script, ignored);
  if (spawned != 0) throw make_error("cannot run {}", kPython);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

std::string timeline_figure(const std::string& timeline, const std::string& format,
                            const std::string& from, const std::string& to,
                            const std::string& out) {
  const fs::path beside = fs::path(timeline).replace_extension(format);
  const bool zoom = from != "-" || to != "-";
  const std::string name =
      zoom ? fmt::format("{}-{}-{}us.{}", beside.stem().string(), from == "-" ? "start" : from,
                         to == "-" ? "end" : to, format)
           : beside.filename().string();
  const std::string extension = fs::path(out).extension().string();
  if (out.empty()) return (beside.parent_path() / name).string();
  if (extension != ".png" && extension != ".svg") return (fs::path(out) / name).string();
  std::error_code ignored;
  if (zoom && (fs::path(out).lexically_normal() == beside.lexically_normal() ||
               fs::equivalent(out, beside, ignored)))
    throw make_error(
        "-o {}: that is the full view's figure; a zoom (--window) goes to a file of its own "
        "(leave -o out, or name another file)",
        out);
  return out;
}

int run_plot(const std::string& outdir, const std::string& format, const std::string& window,
             const std::string& out) {
  if (format != "png" && format != "svg")
    throw make_error("--format '{}': expected png or svg", format);
  const bool timeline = fs::is_regular_file(outdir) && fs::path(outdir).extension() == ".json";
  if (!timeline && !window.empty())
    throw make_error("--window: only for a timeline file (ssdlab sim --timeline FILE.json)");
  if (!timeline && !fs::is_directory(outdir))
    throw make_error("{}: no such output folder or timeline file", outdir);
  if (!timeline && !is_output_folder(outdir) && !is_sweep_folder(outdir))
    throw make_error("{}: no summary.json: not an ssdlab output folder", outdir);
  if (!timeline) check_figure_folder(out);
  std::string from = "-", to = "-";
  if (!window.empty()) {
    const auto colon = window.find(':');
    if (colon == std::string::npos)
      throw make_error("--window '{}': expected START:END in simulated us", window);
    const auto number = [&](std::string text) {
      if (text.empty()) return std::string("-");
      char* end = nullptr;
      std::strtod(text.c_str(), &end);
      if (*end != '\0')
        throw make_error("--window '{}': expected START:END in simulated us", window);
      return text;
    };
    from = number(window.substr(0, colon));
    to = number(window.substr(colon + 1));
  }
  if (timeline) {
    return run_plot_script(
        {"--timeline", outdir, timeline_figure(outdir, format, from, to, out), from, to});
  }
  const std::string plots = out.empty() ? (fs::path(outdir) / "plots").string() : out;
  return run_plot_script({outdir, plots, format});
}

int run_plot_runs(const std::vector<std::string>& outdirs, const std::string& format,
                  const std::string& out) {
  if (outdirs.size() == 1) return run_plot(outdirs.front(), format, "", out);
  if (format != "png" && format != "svg")
    throw make_error("--format '{}': expected png or svg", format);
  for (const auto& outdir : outdirs)
    if (!is_output_folder(outdir) && !is_sweep_folder(outdir))
      throw make_error("{}: not an ssdlab output or sweep folder", outdir);
  check_figure_folder(out);
  std::vector<std::string> arguments = outdirs;
  const std::string plots = out.empty() ? (fs::path(outdirs.front()) / "plots").string() : out;
  arguments.insert(arguments.end(), {"-o", plots, "--format", format});
  return run_plot_script(arguments);
}

}  // namespace ssdlab::analysis
