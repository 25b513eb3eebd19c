#!/usr/bin/python3
"""ssdlab side by side with MQSim (CMU-SAFARI/MQSim) on one matched device and
workload: random 4 KB writes at queue depth 1, each simulator's own
preconditioning on ("preconditioned") and off ("empty").

Given an MQSim checkout (built here with its Makefile if it has no MQSim
binary yet), the script reads the resolved device of an ssdlab config (from
the summary.json of a one-write run), writes MQSim's ssdconfig.xml and
workload.xml for the same geometry, timing, over-provisioning, cleaning
threshold and victim policy, runs both under /usr/bin/time and prints a
Markdown table: wall and user seconds, peak RSS, requests per wall second,
MQSim's wall time over ssdlab's, and what each model reports (mean response
time, pages moved by cleaning per host write) so that a reader sees how close
the two models are. What cannot be matched is listed in docs/performance.md,
"Side by side with MQSim".

ssdlab runs cold (--no-state-cache: it preconditions), from its state cache
(warm), and warm without io.csv (MQSim writes no per-request log here). The
state cache is a folder under OUT, never the user's.

MQSim prints its mean response time in whole microseconds.

Usage: bench/scripts/mqsim-compare.py MQSIM_DIR SSDLAB [--count N] [--out DIR]
         [--config TOML] [--variants preconditioned,empty] [--seed S] [--set KEY=VALUE]...
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SECTOR = 512  # MQSim's SECTOR_SIZE_IN_BYTE (src/ssd/SSD_Defs.h)


def fail(message):
    sys.exit(f"mqsim-compare: {message}")


def set_args(sets):
    return [arg for value in sets for arg in ("--set", value)]


def resolved_config(ssdlab, config, sets, work):
    """The device as ssdlab resolves it: summary.json's "config" of a one-write run."""
    out = os.path.join(work, "config-probe")
    probe = subprocess.run([ssdlab, "sim", "-c", config, "-w", "RW:count=1", "--no-io-log", "-q",
                            "-o", out] + set_args(sets), stdout=subprocess.DEVNULL)
    if probe.returncode != 0:
        fail(f"{ssdlab} could not run {config} (its error is above)")
    with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
        return json.load(f)["config"]


def check_matchable(c):
    """Refuses a config MQSim cannot express (so the comparison is not silently off)."""
    g, t, ftl = c["geometry"], c["timing"], c["ftl"]
    if ftl["type"] != "page-mapped":
        fail(f"ftl.type = {ftl['type']}: only page-mapped has an MQSim counterpart (PAGE_LEVEL)")
    if ftl["victim_policy"] not in ("greedy",):
        fail(f"ftl.victim_policy = {ftl['victim_policy']}: only greedy is matched here")
    if ftl["logical_page_size"] != g["page_size"]:
        fail("ftl.logical_page_size differs from geometry.page_size: MQSim maps flash pages")
    if g["gang_size"] != 1:
        fail(f"geometry gang of {g['gang_size']} packages: MQSim has no ganged packages")
    if ftl["wear_leveling"] != "none":
        fail(f"ftl.wear_leveling = {ftl['wear_leveling']}: matched only with none")
    rate = 1000.0 / t["bus_ns_per_byte"]
    if abs(rate - round(rate)) > 1e-9 or 1000 % round(rate) != 0:
        fail(f"timing.bus_ns_per_byte = {t['bus_ns_per_byte']}: MQSim's channel rate is an integer "
             "MT/s whose period 1000/rate it truncates to whole ns")
    if c["controller"]["write_buffer"]:
        fail("controller.write_buffer is set: compare with MQSim's caching on instead")
    return int(round(rate))


def ssdconfig_xml(c, precondition, seed):
    g, t, ftl = c["geometry"], c["timing"], c["ftl"]
    rate = check_matchable(c)
    ns = lambda us: int(round(us * 1000))
    yes = lambda b: "true" if b else "false"
    device = [
        ("Seed", seed), ("Enabled_Preconditioning", yes(precondition)),
        ("Memory_Type", "FLASH"), ("HostInterface_Type", "NVME"),
        ("IO_Queue_Depth", 65535), ("Queue_Fetch_Size", 512),
        # Writes bypass the DRAM cache (TURNED_OFF in workload.xml), as ssdlab has none here.
        ("Caching_Mechanism", "ADVANCED"), ("Data_Cache_Sharing_Mode", "SHARED"),
        ("Data_Cache_Capacity", 268435456), ("Data_Cache_DRAM_Row_Size", 8192),
        ("Data_Cache_DRAM_Data_Rate", 800), ("Data_Cache_DRAM_Data_Busrt_Size", 4),
        ("Data_Cache_DRAM_tRCD", 13), ("Data_Cache_DRAM_tCL", 13), ("Data_Cache_DRAM_tRP", 13),
        # ssdlab's page-mapped FTL keeps the whole map in RAM: no map reads from flash.
        ("Address_Mapping", "PAGE_LEVEL"), ("Ideal_Mapping_Table", "true"),
        ("CMT_Capacity", 268435456), ("CMT_Sharing_Mode", "SHARED"),
        # Consecutive logical pages on consecutive channels first, like a 1-page stripe.
        ("Plane_Allocation_Scheme", "CWDP"),
        ("Transaction_Scheduling_Policy", "OUT_OF_ORDER"),
        ("Overprovisioning_Ratio", f"{ftl['overprovisioning']:.5f}"),
        ("GC_Exec_Threshold", f"{ftl['clean_low_water']:.5f}"),
        ("GC_Block_Selection_Policy", "GREEDY"),
        # MQSim's copy-back GC path crashes: its copy-back write has no RelatedErase
        # (GC_and_WL_Unit_Base.cpp:144 dereferences it), so pages move by read + program.
        ("Use_Copyback_for_GC", "false"),
        ("Preemptible_GC_Enabled", "false"), ("GC_Hard_Threshold", "0.005"),
        ("Dynamic_Wearleveling_Enabled", "false"), ("Static_Wearleveling_Enabled", "false"),
        ("Static_Wearleveling_Threshold", 100),
        ("Preferred_suspend_erase_time_for_read", 700000),
        ("Preferred_suspend_erase_time_for_write", 700000),
        ("Preferred_suspend_write_time_for_read", 100000),
        ("Flash_Channel_Count", g["channels"]), ("Flash_Channel_Width", 1),
        ("Channel_Transfer_Rate", rate), ("Chip_No_Per_Channel", g["packages_per_channel"]),
        ("Flash_Comm_Protocol", "NVDDR2"),
    ]
    flash = [
        ("Flash_Technology", "SLC"), ("CMD_Suspension_Support", "NONE"),
        ("Page_Read_Latency_LSB", ns(t["read_us"])), ("Page_Read_Latency_CSB", ns(t["read_us"])),
        ("Page_Read_Latency_MSB", ns(t["read_us"])),
        ("Page_Program_Latency_LSB", ns(t["program_us"])),
        ("Page_Program_Latency_CSB", ns(t["program_us"])),
        ("Page_Program_Latency_MSB", ns(t["program_us"])),
        ("Block_Erase_Latency", ns(t["erase_us"])), ("Block_PE_Cycles_Limit", g["pe_cycles"]),
        ("Suspend_Erase_Time", 700000), ("Suspend_Program_Time", 100000),
        ("Die_No_Per_Chip", g["dies_per_package"]), ("Plane_No_Per_Die", g["planes_per_die"]),
        ("Block_No_Per_Plane", g["blocks_per_plane"]), ("Page_No_Per_Block", g["pages_per_block"]),
        ("Page_Capacity", g["page_size"]), ("Page_Metadat_Capacity", g["oob_size"]),
    ]
    tags = lambda pairs, indent: "".join(f"{indent}<{k}>{v}</{k}>\n" for k, v in pairs)
    # ssdlab has no host link: a 1000 GB/s x16 PCIe link makes MQSim's close to free.
    host = [("PCIe_Lane_Bandwidth", "1000.0"), ("PCIe_Lane_Count", 16),
            ("SATA_Processing_Delay", 0), ("Enable_ResponseTime_Logging", "false"),
            ("ResponseTime_Logging_Period_Length", 1000000)]
    return ('<?xml version="1.0" encoding="us-ascii"?>\n<Execution_Parameter_Set>\n'
            "\t<Host_Parameter_Set>\n" + tags(host, "\t\t") + "\t</Host_Parameter_Set>\n"
            "\t<Device_Parameter_Set>\n" + tags(device, "\t\t") +
            "\t\t<Flash_Parameter_Set>\n" + tags(flash, "\t\t\t") + "\t\t</Flash_Parameter_Set>\n"
            "\t</Device_Parameter_Set>\n</Execution_Parameter_Set>\n")


def workload_xml(c, count, io_size, precondition, seed):
    g = c["geometry"]
    ids = lambda n: ",".join(str(i) for i in range(n))
    flow = [
        ("Priority_Class", "HIGH"), ("Device_Level_Data_Caching_Mode", "TURNED_OFF"),
        ("Channel_IDs", ids(g["channels"])), ("Chip_IDs", ids(g["packages_per_channel"])),
        ("Die_IDs", ids(g["dies_per_package"])), ("Plane_IDs", ids(g["planes_per_die"])),
        # 100 asks for the whole logical space; MQSim caps uniform random at 90% (FTL.cpp).
        ("Initial_Occupancy_Percentage", 100 if precondition else 0),
        ("Working_Set_Percentage", 100), ("Synthetic_Generator_Type", "QUEUE_DEPTH"),
        ("Read_Percentage", 0), ("Address_Distribution", "RANDOM_UNIFORM"),
        ("Percentage_of_Hot_Region", 0), ("Generated_Aligned_Addresses", "true"),
        ("Address_Alignment_Unit", io_size // SECTOR), ("Request_Size_Distribution", "FIXED"),
        ("Average_Request_Size", io_size // SECTOR), ("Variance_Request_Size", 0),
        ("Seed", seed), ("Average_No_of_Reqs_in_Queue", 1), ("Intensity", 32768),
        # Stop_Time 0: stop after Total_Requests_To_Generate (IO_Flow_Synthetic.cpp).
        ("Stop_Time", 0), ("Total_Requests_To_Generate", count),
    ]
    body = "".join(f"\t\t\t<{k}>{v}</{k}>\n" for k, v in flow)
    return ('<?xml version="1.0" encoding="us-ascii"?>\n<MQSim_IO_Scenarios>\n\t<IO_Scenario>\n'
            "\t\t<IO_Flow_Parameter_Set_Synthetic>\n" + body +
            "\t\t</IO_Flow_Parameter_Set_Synthetic>\n\t</IO_Scenario>\n</MQSim_IO_Scenarios>\n")


def timed(cmd, folder, env=None, stdin=None):
    """Runs CMD under /usr/bin/time: (wall s, user s, peak RSS KiB, stdout)."""
    os.makedirs(folder, exist_ok=True)
    timing = os.path.join(folder, "time.txt")
    with open(os.path.join(folder, "stdout.txt"), "w") as out, \
            open(os.path.join(folder, "stderr.txt"), "w") as err:
        done = subprocess.run(["/usr/bin/time", "-o", timing, "-f", "%e %U %M"] + cmd,
                              cwd=folder, env=env, stdin=stdin, stdout=out, stderr=err)
    if done.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {done.returncode}; see {folder}/stderr.txt")
    wall, user, rss = open(timing).read().split()[-3:]
    return float(wall), float(user), int(rss), open(os.path.join(folder, "stdout.txt")).read()


def run_mqsim(binary, folder, c, count, io_size, precondition, seed):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "ssdconfig.xml"), "w") as f:
        f.write(ssdconfig_xml(c, precondition, seed))
    with open(os.path.join(folder, "workload.xml"), "w") as f:
        f.write(workload_xml(c, count, io_size, precondition, seed))
    # MQSim waits for a key at the end (cin.get() in main.cpp): stdin is /dev/null.
    with open(os.devnull) as null:
        wall, user, rss, out = timed([binary, "-i", "ssdconfig.xml", "-w", "workload.xml"],
                                     folder, stdin=null)
    # MQSim's own clock (whole seconds): preconditioning, then the whole scenario.
    clock = lambda text: sum(int(x) * m for x, m in zip(text.split(":"), (3600, 60, 1)))
    pre = re.search(r"Duration of preconditioning:\s*([\d:]+)", out)
    total = re.search(r"Total simulation time:\s*([\d:]+)", out)
    served = re.search(r"total requests serviced:\s*(\d+)", out)
    response = re.search(r"device response time:\s*([\d.]+)", out)
    if not served or not response:
        fail(f"MQSim's output in {folder}/stdout.txt has no request count or response time")
    with open(os.path.join(folder, "workload_scenario_1.xml")) as f:
        results = f.read()
    def value(key):
        found = re.search(rf'{key}="([^"]*)"', results)
        if not found:
            fail(f"no {key} in {folder}/workload_scenario_1.xml")
        return 0.0 if "nan" in found.group(1) else float(found.group(1))
    # Average_Page_Movement_For_GC is "-nan" when nothing was cleaned.
    moved = value("Total_GC_Executions") * value("Average_Page_Movement_For_GC")
    phase = clock(total.group(1)) - (clock(pre.group(1)) if pre else 0) if total else None
    return dict(wall=wall, user=user, rss=rss, served=int(served.group(1)),
                mean_us=float(response.group(1)), moved=moved / int(served.group(1)),
                phase=phase)


def run_ssdlab(args, folder, count, precondition, extra, cache):
    cmd = [os.path.abspath(args.ssdlab), "sim", "-c", os.path.abspath(args.config), "-q",
           "-o", "out", "-w", f"RW:io_size={args.io_size},count={count}"]
    cmd += ["--seed", str(args.seed)] + set_args(args.set) + extra
    if precondition:
        cmd += ["--precondition", "random"]
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    wall, user, rss, out = timed(cmd, folder, env=env)
    # The requests alone: ssdlab's own wall and CPU time of the simulation (no preconditioning).
    phase = re.search(r"simulated in ([\d.]+) s of wall time .*?, ([\d.]+) s of CPU time", out)
    with open(os.path.join(folder, "out", "summary.json")) as f:
        run = json.load(f)["experiments"][0]["runs"][0]
    return dict(wall=wall, user=user, rss=rss, served=run["count"], mean_us=run["mean_us"],
                moved=run["device"]["pages_moved"] / run["count"],
                phase=(float(phase.group(1)), float(phase.group(2))) if phase else None)


def build_mqsim(checkout):
    binary = os.path.join(checkout, "MQSim")
    if not os.path.exists(binary):
        if not os.path.exists(os.path.join(checkout, "Makefile")):
            fail(f"{checkout}: neither an MQSim binary nor a Makefile (is it an MQSim checkout?)")
        print(f"building MQSim in {checkout} (make -j2) ...", file=sys.stderr)
        if subprocess.run(["make", "-C", checkout, "-j2"], stdout=subprocess.DEVNULL).returncode:
            fail(f"building MQSim in {checkout} failed (make's errors are above)")
    return binary


def row(label, r, mqsim):
    ratio = lambda key: f"{mqsim[key] / max(r[key], 0.01):.1f}" if mqsim else "-"
    return (f"| {label} | {r['wall']:.2f} | {r['user']:.2f} | {r['rss'] / 1024:.0f} MiB | "
            f"{r['served'] / r['wall'] / 1e3:.1f} k | {ratio('wall')} | {ratio('user')} | "
            f"{r['mean_us']:.1f} | {r['moved']:.2f} |")


def variant(args, c, name, precondition):
    folder = os.path.join(args.out, name)
    cache = os.path.join(folder, "cache")
    mq = run_mqsim(args.mqsim_binary, os.path.join(folder, "mqsim"), c, args.count,
                   args.io_size, precondition, args.seed)
    runs = []
    if precondition:
        runs.append(("ssdlab, cold (`--no-state-cache`)", ["--no-state-cache"]))
        run_ssdlab(args, os.path.join(folder, "fill-cache"), 1, True, ["--no-io-log"], cache)
        runs.append(("ssdlab, from the state cache", []))
        runs.append(("ssdlab, from the state cache, `--no-io-log`", ["--no-io-log"]))
    else:
        runs.append(("ssdlab", []))
        runs.append(("ssdlab, `--no-io-log`", ["--no-io-log"]))
    results = [(label, run_ssdlab(args, os.path.join(folder, f"ssdlab-{i}"), args.count,
                                  precondition, extra, cache))
               for i, (label, extra) in enumerate(runs)]
    what = ("each simulator's preconditioning on (ssdlab `--precondition random`, "
            "MQSim `Enabled_Preconditioning`)" if precondition else "empty device, no preconditioning")
    print(f"\n{name.capitalize()}: {args.count} random {args.io_size // 1024} KB writes at QD 1, {what}:\n")
    print("| run | wall s | user s | peak RSS | requests per wall s | MQSim wall / this wall "
          "| MQSim user / this user | mean response us | pages moved per write |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(row("MQSim", mq, None))
    for label, r in results:
        print(row(label, r, mq))
    last = results[-1][1]
    if mq["phase"] is not None and mq["phase"] >= 5 and last["phase"]:
        print(f"\nThe requests alone (no preconditioning, loading or start-up): MQSim about "
              f"{mq['phase']} s of wall time by its own clock (whole seconds), ssdlab "
              f"{last['phase'][0]:.2f} s of wall time and {last['phase'][1]:.2f} s of CPU time "
              f"(its last run above): about {mq['phase'] / last['phase'][0]:.0f} times.")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mqsim", help="MQSim checkout (built with its Makefile if MQSim is missing)")
    p.add_argument("ssdlab", help="ssdlab binary, e.g. build/sim/ssdlab")
    p.add_argument("--count", type=int, default=1000000, help="requests (default 1000000)")
    p.add_argument("--out", default="out/mqsim-compare", help="output folder")
    p.add_argument("--config", default=os.path.join(ROOT, "configs", "agrawal-baseline.toml"),
                   help="ssdlab device config (default configs/agrawal-baseline.toml)")
    p.add_argument("--variants", default="preconditioned,empty",
                   help="preconditioned, empty or both (default both, comma-separated)")
    p.add_argument("--io-size", type=int, default=4096, help="bytes per write (default 4096)")
    p.add_argument("--seed", type=int, default=1, help="seed of both simulators (default 1)")
    p.add_argument("--set", action="append", default=[],
                   help="ssdlab config override table.key=value (repeatable), e.g. ftl.copy_back=false")
    args = p.parse_args()
    for name in args.variants.split(","):
        if name not in ("preconditioned", "empty"):
            fail(f"--variants: unknown variant '{name}' (preconditioned, empty)")
    if not (os.path.isfile(args.ssdlab) and os.access(args.ssdlab, os.X_OK)):
        fail(f"{args.ssdlab}: not an executable (the ssdlab binary, e.g. build/sim/ssdlab)")
    if not os.path.isfile(args.config):
        fail(f"--config {args.config}: no such file")
    if args.count < 1:
        fail("--count must be at least 1")
    args.out = os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    args.mqsim_binary = build_mqsim(os.path.abspath(args.mqsim))
    c = resolved_config(args.ssdlab, args.config, args.set, args.out)
    check_matchable(c)
    if args.io_size % c["geometry"]["page_size"]:
        fail("--io-size must be whole flash pages")
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = re.search(r"Model name:\s*(.+)", cpu)
    print(f"Machine: {model.group(1) if model else 'unknown CPU'}, {os.cpu_count()} cores; "
          f"{subprocess.run(['date', '-u', '+%Y-%m-%d %H:%M UTC'], capture_output=True, text=True).stdout.strip()}; "
          f"load average {' '.join(open('/proc/loadavg').read().split()[:3])} at the start.")
    sets = "".join(f" --set {v}" for v in args.set)
    print(f"Device: {os.path.relpath(args.config, ROOT)}{sets} ({c['name']}); "
          f"MQSim files under {args.out}.")
    if c["ftl"]["copy_back"]:
        print("ssdlab moves pages by copy-back, MQSim by read + program (its copy-back GC crashes);"
              " --set ftl.copy_back=false matches them.")
    for name in args.variants.split(","):
        variant(args, c, name, name == "preconditioned")


if __name__ == "__main__":
    main()
