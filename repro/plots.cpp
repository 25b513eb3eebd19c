// plots/ of `ssdlab reproduce`, drawn from report.json by Debian's python3
// with matplotlib (as `ssdlab plot` does: analysis/plot.h).
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "repro/reproduce.h"
#include "sim/results/output.h"

extern char** environ;

namespace ssdlab::repro {
namespace fs = std::filesystem;

namespace {

// argv: report.json, plots folder. One figure of the value rows (ssdlab
// against the paper, in percent, with each tolerance), one per other row.
constexpr const char* kScript = R"PY(
import json, os, re, sys, textwrap
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(4)
report = json.load(open(sys.argv[1]))
out = sys.argv[2]
os.makedirs(out, exist_ok=True)
values = [r for r in report["rows"]
          if r["paper_value"] is not None and r["verdict"] != "measured"]
if values:
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(values) + 1.5))
    for i, r in enumerate(values):
        ms = [m["value"] for m in r["measures"]]
        # A ratio row ("last/first ±T%") compares the rise, last over first.
        value = ms[-1] / ms[0] if r["check"].startswith("last/first") else ms[0]
        off = 100 * (value / r["paper_value"] - 1)
        tol = re.search(r"±([0-9.]+)", r["check"])
        ax.barh(i, off, color="tab:green" if r["verdict"] == "pass" else "tab:red")
        if tol:
            ax.plot([-float(tol.group(1)), float(tol.group(1))], [i, i], "k|", markersize=12)
    ax.set_yticks(range(len(values)))
    ax.set_yticklabels([r["id"] for r in values], fontsize=7)
    ax.axvline(0, color="k", linewidth=0.5)
    ax.set_xlabel("ssdlab vs paper (%); bars |: tolerance")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "values.png"), dpi=120)
    plt.close(fig)
for r in report["rows"]:
    if r["paper_value"] is not None or r["verdict"] == "measured":
        continue
    fig, ax = plt.subplots(figsize=(6, 3.5))
    labels = [m["label"] for m in r["measures"]]
    ys = [m["value"] for m in r["measures"]]
    if r["trend"]:
        ax.plot(range(len(ys)), ys, "o-")
    else:
        ax.bar(range(len(ys)), ys)
    ax.set_xticks(range(len(ys)))
    ax.set_xticklabels(labels, rotation=30, fontsize=7)
    ax.set_ylabel("\n".join(textwrap.wrap(r["quantity"], 40)), fontsize=7)
    ax.set_title("%s\n%s (%s): %s" % (r["id"], r["figure"], r["check"], r["verdict"]), fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, re.sub(r"[^A-Za-z0-9_.-]", "_", r["id"]) + ".png"), dpi=120)
    plt.close(fig)
)PY";

}  // namespace

bool draw_plots(const std::string& outdir) {
  const fs::path script = fs::path(outdir) / "plots.py";
  sim::write_file_atomically(script, kScript);
  // Debian's own interpreter, whatever else is first on PATH.
  const char* python = "/usr/bin/python3";
  std::vector<std::string> args{python, script.string(),
                                (fs::path(outdir) / "report.json").string(),
                                (fs::path(outdir) / "plots").string()};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  int status = 1;
  pid_t pid = 0;
  if (access(python, X_OK) == 0 &&
      posix_spawn(&pid, python, nullptr, nullptr, argv.data(), environ) == 0)
    waitpid(pid, &status, 0);
  std::error_code ignored;
  fs::remove(script, ignored);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace ssdlab::repro
