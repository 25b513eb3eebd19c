"""Tests of the Python package against real runs of the ssdlab binary on the
tiny preset (found as ssdlab.find_binary() does; CTest sets $SSDLAB)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import ssdlab  # noqa: E402
from ssdlab import plot  # noqa: E402

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TINY = os.path.join(SOURCE, "configs", "tiny.toml")


class SsdlabPackageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.TemporaryDirectory(prefix="ssdlab-py-")
        cls.dir = cls.temp.name
        cls.runs = {ftl: ssdlab.run(TINY, "RW:count=2000", os.path.join(cls.dir, ftl),
                                    precondition="seq", ftl__type=ftl)
                    for ftl in ("page-mapped", "bast", "fast")}

    @classmethod
    def tearDownClass(cls):
        cls.temp.cleanup()

    def test_run_applies_the_set_keywords(self):
        self.assertEqual(self.runs["fast"].ftl, "fast")
        self.assertEqual(self.runs["bast"].config_name, "tiny")
        self.assertEqual(self.runs["bast"].label, "bast on tiny")

    def test_a_list_of_workloads_runs_as_tenants_with_their_table(self):
        run = ssdlab.run(TINY, ["RR:count=300,name=reader", "RW:count=900,name=writer"],
                         os.path.join(self.dir, "tenants"), precondition="random",
                         extra_args=["--fairness"])
        tenants = run.tenants()
        self.assertEqual(list(tenants["name"]), ["reader", "writer"])
        self.assertEqual(list(tenants["ios"]), [300, 900])
        self.assertGreater(tenants["slowdown_mean"][0], 1.0)
        index = min(tenants["slowdown_mean"]) / max(tenants["slowdown_mean"])
        self.assertAlmostEqual(tenants["fairness_index_mean"][0], index)
        # The window in which both ran: its own slowdowns and index.
        window = min(tenants["contended_slowdown_mean"]) / max(tenants["contended_slowdown_mean"])
        self.assertAlmostEqual(tenants["contended_fairness_index_mean"][0], window)
        self.assertLessEqual(list(tenants["contended_ios"]), [300, 900])
        self.assertEqual(len(run.runs), 2)  # one experiment per tenant
        self.assertTrue(self.runs["bast"].tenants().empty)
        written = plot.plot_outdir(run.outdir, os.path.join(self.dir, "tenant-plots"), "png")
        self.assertIn("tenants.png", [os.path.basename(path) for path in written])

    def test_host_log_fdp_and_zones_blocks_read_as_tables(self):
        log = ssdlab.run(TINY, "RW:count=8000", os.path.join(self.dir, "log"),
                         precondition="seq", **{"ftl.type": '"zoned"', "ftl.zone_width": 2,
                                                "ftl.overprovisioning": 0.03,
                                                "host.log.overprovisioning": 0.12})
        block = log.host_log()
        self.assertEqual(block["victim"], "greedy")
        runs = block["runs"]
        self.assertEqual(list(runs["host_log_host_pages_written"]), [8000])
        self.assertGreater(runs["end_to_end_write_amplification"][0], 1.0)
        zones = log.zones()
        self.assertEqual(set(zones["refusals"].columns), {"code", "status", "count"})
        self.assertGreater(zones["full"], 0)
        self.assertIsNone(self.runs["bast"].host_log())
        self.assertIsNone(self.runs["bast"].zones())
        fdp = ssdlab.run(TINY, "RW:count=2000", os.path.join(self.dir, "fdp"),
                         **{"ftl.placement": '"fdp"'}).fdp()
        self.assertEqual(list(fdp["handle"]), [0, 1, 2, 3])
        self.assertEqual(fdp["host_pages"].sum(), 2000)
        self.assertTrue((fdp["mode"] == "fdp").all())
        self.assertTrue(self.runs["bast"].fdp().empty)
        # The events by TP4146 code and each handle's status (issue 56 item 1).
        updated = ssdlab.run(TINY, "RW:count=2000,placement_id=1,ruh_update_every=500",
                             os.path.join(self.dir, "fdp-ruh"), **{"ftl.placement": '"fdp"'})
        events = updated.fdp_events()
        self.assertEqual(list(events["type"]), [0x00, 0x03, 0x80])
        self.assertGreaterEqual(events["count"][0], 3)  # updates before writes 500, 1000, 1500
        status = updated.fdp_status()
        self.assertEqual(set(status.columns),
                         {"placement_id", "reclaim_group", "available_media_writes"})
        self.assertEqual(len(status), 4 * 2)  # 4 handles x 2 reclaim groups
        self.assertTrue(self.runs["bast"].fdp_events().empty)
        self.assertTrue(self.runs["bast"].fdp_status().empty)

    def test_throughput_by_data_written_and_the_slc_cache_are_drawn_when_a_run_has_them(self):
        # Issue 57 item 7: the figures a review of an SLC-cache drive shows first.
        tiny_tlc = os.path.join(SOURCE, "configs", "tiny-tlc.toml")
        run = ssdlab.run(tiny_tlc, "SW:io_size=65536,count=200", os.path.join(self.dir, "slc"),
                         **{"slc_cache.mode": '"dynamic"', "slc_cache.size_gib": 0.004})
        curves = plot.read_write_throughput(os.path.join(run.outdir, "io.csv"),
                                            {"SW/io_size=65536"})
        curve = curves["SW/io_size=65536"]
        self.assertAlmostEqual(curve[-1][0], 200 * 65536 / 1e9, delta=65536 / 1e9)
        self.assertTrue(all(mbps > 0 for _, mbps in curve))
        written = [os.path.basename(path) for path in
                   plot.plot_outdir(run.outdir, os.path.join(self.dir, "slc-plots"), "png")]
        self.assertIn("slc-cache.png", written)
        self.assertIn("throughput.png", written)
        # A run without an SLC cache draws no cache figure; reads draw no throughput.
        reads = ssdlab.run(TINY, "RR:count=200", os.path.join(self.dir, "reads"))
        written = [os.path.basename(path) for path in
                   plot.plot_outdir(reads.outdir, os.path.join(self.dir, "read-plots"), "png")]
        self.assertNotIn("slc-cache.png", written)
        self.assertNotIn("throughput.png", written)

    def test_reads_by_page_type_are_drawn_when_a_run_has_them(self):
        # Issue 57 item 7: read latency by page type, from summary.json.
        tiny_tlc = os.path.join(SOURCE, "configs", "tiny-tlc.toml")
        run = ssdlab.run(tiny_tlc, "RR:count=600", os.path.join(self.dir, "tlc-reads"))
        with open(os.path.join(run.outdir, "summary.json")) as f:
            by_type = json.load(f)["experiments"][0]["runs"][0]["read_latency_by_page_type"]
        self.assertEqual([t["page_type"] for t in by_type], ["lower", "middle", "upper"])
        self.assertEqual(sum(t["reads"] for t in by_type), 600)
        written = [os.path.basename(path) for path in
                   plot.plot_outdir(run.outdir, os.path.join(self.dir, "tlc-plots"), "png")]
        self.assertIn("reads-by-page-type.png", written)
        reads = ssdlab.run(TINY, "RR:count=200", os.path.join(self.dir, "slc-reads"))
        written = [os.path.basename(path) for path in
                   plot.plot_outdir(reads.outdir, os.path.join(self.dir, "slc-plots"), "png")]
        self.assertNotIn("reads-by-page-type.png", written)

    def test_io_detail_is_read_and_drawn(self):
        # Issue 57 item 6: where each I/O's response time went.
        run = ssdlab.run(TINY, "RR:count=300,queue_depth=2", os.path.join(self.dir, "detail"),
                         extra_args=("--io-detail",))
        detail = run.io_detail()
        self.assertEqual(len(detail), 300)
        parts = detail[["array_us", "bus_us", "behind_tenant_us", "behind_io_us",
                        "behind_cleaning_us", "behind_fold_us", "other_us"]].sum(axis=1)
        self.assertLess((parts - detail["flash_us"]).abs().max(), 0.01)
        written = [os.path.basename(path) for path in
                   plot.plot_outdir(run.outdir, os.path.join(self.dir, "detail-plots"), "png")]
        self.assertIn("io-detail.png", written)
        with self.assertRaises(ssdlab.SsdlabError):
            self.runs["bast"].io_detail()

    def test_load_run_gives_one_row_per_experiment_and_run_with_device_counters(self):
        frame = self.runs["page-mapped"].runs
        self.assertEqual(len(frame), 1)
        row = frame.iloc[0]
        self.assertEqual(row["experiment"], "RW")
        self.assertEqual(row["count"], 2000)
        self.assertGreaterEqual(row["write_amplification"], 1.0)
        self.assertEqual(row["ftl"], "page-mapped")

    def test_read_io_types_every_column(self):
        io = ssdlab.read_io(self.runs["fast"].outdir)
        self.assertEqual(list(io.columns), ssdlab.IO_COLUMNS)
        self.assertEqual(len(io), 2000)
        self.assertEqual(str(io["experiment"].dtype), "category")
        self.assertEqual(str(io["offset"].dtype), "int64")
        self.assertEqual(str(io["rt_us"].dtype), "float64")
        self.assertEqual(set(io["mode"]), {"W"})
        self.assertTrue((io["size"] == 4096).all())

    def test_read_io_refuses_a_file_that_is_not_io_csv(self):
        path = os.path.join(self.dir, "bad.csv")
        with open(path, "w") as f:
            f.write("a,b\n1,2\n")
        with self.assertRaises(ssdlab.SsdlabError):
            ssdlab.read_io(path)

    def test_load_run_names_a_missing_folder(self):
        with self.assertRaisesRegex(ssdlab.SsdlabError, "nowhere"):
            ssdlab.load_run(os.path.join(self.dir, "nowhere"))

    def test_a_failed_run_raises_with_ssdlab_s_message(self):
        with self.assertRaisesRegex(ssdlab.SsdlabError, "count"):
            ssdlab.run(TINY, "RW:count=0", os.path.join(self.dir, "bad"))

    def test_read_sweep_and_plot_a_sweep_folder(self):
        sweep = os.path.join(self.dir, "sweep.toml")
        with open(sweep, "w") as f:
            f.write(f'configs = ["{TINY}"]\n'
                    'sets = [["ftl.type=\\"page-mapped\\""], ["ftl.type=\\"fast\\""]]\n'
                    'workloads = ["RW:count=1000"]\nseeds = [1]\n')
        out = os.path.join(self.dir, "sweep")
        subprocess.run([ssdlab.find_binary(), "sweep", sweep, "-o", out, "-j", "1"],
                       check=True, stdout=subprocess.DEVNULL)
        frame = ssdlab.read_sweep(out)
        self.assertEqual(len(frame), 2)
        self.assertIn("write_amplification", frame.columns)
        self.assertIn("fast", frame["sets"].iloc[1])
        # `ssdlab plot SWEEPDIR` draws a bar per job.
        status = subprocess.run([ssdlab.find_binary(), "plot", out], stdout=subprocess.PIPE,
                                text=True)
        self.assertEqual(status.returncode, 0)
        self.assertIn("runs-response-time.png", status.stdout)

    def test_plot_runs_draws_a_figure_per_kind_for_three_ftls(self):
        written = plot.plot_runs([r.outdir for r in self.runs.values()],
                                 os.path.join(self.dir, "plots"))
        names = sorted(os.path.basename(p) for p in written)
        self.assertEqual(names, ["runs-cdf.png", "runs-response-time.png",
                                 "runs-write-amplification.png"])
        for path in written:
            self.assertGreater(os.path.getsize(path), 10000)

    def test_runs_of_an_aged_drive_plot_reads_against_its_age(self):
        # Flash errors (docs/errors.md) at three ages: retries and slower
        # reads as the data ages; runs without errors draw no such figure.
        tlc = os.path.join(SOURCE, "configs", "tiny-tlc.toml")
        folders = []
        for days in (0, 180, 365):
            run = ssdlab.run(tlc, "RR:count=1000", os.path.join(self.dir, f"aged-{days}"),
                             precondition="seq", errors__correctable_bits=120,
                             errors__retries=8, errors__retry_error_factor=0.7,
                             errors__age_pe_cycles=800, errors__age_retention_days=days)
            folders.append(run.outdir)
        runs = plot.collect_runs(folders)
        self.assertEqual([plot.error_age(run.summary) for run in runs],
                         [(0.0, 800.0), (180.0, 800.0), (365.0, 800.0)])
        retries = [run.summary["device"]["read_error_retries_per_read"] for run in runs]
        self.assertLess(retries[0], retries[2])
        path = os.path.join(self.dir, "read-age.svg")
        self.assertTrue(plot.plot_runs_read_age(path, runs))
        with open(path) as f:
            self.assertIn("Data age at the start (days)", f.read())
        self.assertFalse(plot.plot_runs_read_age(
            path, plot.collect_runs([r.outdir for r in self.runs.values()])))

    def test_write_amplification_figure_shows_each_runs_exported_capacity(self):
        # The FTLs export different capacities of the same flash: each bar
        # says which, beside its WA.
        capacities = {ftl: plot.exported_capacity(plot.load_summary(run.outdir))
                      for ftl, run in self.runs.items()}
        for ftl, capacity in capacities.items():
            summary = plot.load_summary(self.runs[ftl].outdir)
            self.assertEqual(capacity, plot.format_bytes(summary["logical_bytes"]))
        self.assertIsNone(plot.exported_capacity({}))
        path = os.path.join(self.dir, "wa.svg")
        self.assertTrue(plot.plot_runs_write_amplification(
            path, plot.collect_runs([r.outdir for r in self.runs.values()])))
        with open(path) as f:
            text = f.read()
        for capacity in set(capacities.values()):
            self.assertIn(f"{capacity} exported", text)

    def test_labels_name_ftl_and_config_and_tell_equal_runs_apart(self):
        labels = [label for _, _, label in plot.collect_runs(
            [self.runs["fast"].outdir, self.runs["fast"].outdir])]
        self.assertEqual(labels, ["fast on tiny, fast", "fast on tiny, fast"])
        # Only the FTL differs: the labels name it, the title the config.
        runs = plot.collect_runs([r.outdir for r in self.runs.values()])
        self.assertEqual([label for _, _, label in runs], ["page-mapped", "bast", "fast"])
        self.assertIn("on tiny", plot.common_title(runs))

    def test_runs_of_one_ftl_and_config_are_labelled_and_coloured_by_what_differs(self):
        # An FDP run beside a plain one, both page-mapped on tiny, from plain
        # output folders (no sweep's sets): their configs tell them apart.
        fdp = ssdlab.run(TINY, "RW:count=2000", os.path.join(self.dir, "fdp"), precondition="seq",
                         ftl__placement="fdp", ftl__fdp_handles=2)
        runs = plot.collect_runs([self.runs["page-mapped"].outdir, fdp.outdir,
                                  self.runs["bast"].outdir])
        self.assertEqual([label for _, _, label in runs],
                         ["page-mapped", "page-mapped, placement=fdp", "bast"])
        order, styles = plot.variants(runs)
        colours = [styles[variant]["color"] for variant in order]
        self.assertEqual(len(set(colours)), 3, colours)

    def test_plot_of_one_folder_titles_figures_with_ftl_and_config(self):
        written = plot.plot_outdir(self.runs["bast"].outdir, os.path.join(self.dir, "one"), "svg")
        with open([p for p in written if p.endswith("cdf.svg")][0]) as f:
            self.assertIn("bast on tiny", f.read())

    def test_sweep_folder_gives_only_the_jobs_its_jobs_json_lists(self):
        # A job folder of an earlier, larger sweep into the same folder is
        # not one of this sweep's jobs (review M4).
        sweep = os.path.join(self.dir, "stale-sweep")
        for job in ("job-00000", "job-00002"):
            shutil.copytree(self.runs["fast"].outdir, os.path.join(sweep, job))
        with open(os.path.join(sweep, "jobs.json"), "w") as f:
            json.dump({"sweep": "s.toml", "jobs": [{"id": 0, "dir": "job-00000"}]}, f)
        runs = plot.collect_runs([sweep])
        self.assertEqual([os.path.basename(outdir) for outdir, _, _ in runs], ["job-00000"])

    def test_bad_folder_is_one_error_line_and_status_1(self):
        status = subprocess.run([sys.executable, plot.__file__, os.path.join(self.dir, "none"),
                                 os.path.join(self.dir, "p"), "png"],
                                stderr=subprocess.PIPE, text=True)
        self.assertEqual(status.returncode, 1)
        self.assertEqual(len(status.stderr.strip().splitlines()), 1)


def png_size(path):
    """(width, height) in pixels, from the PNG header."""
    with open(path, "rb") as f:
        header = f.read(24)
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


class SweepFiguresTest(unittest.TestCase):
    """A sweep's figures and table as a paper needs them (issue 44): runs
    labelled by what differs (the workload too: none overwrites another),
    seeds aggregated, one colour per FTL, the legend beside the axes, sizes
    bounded, numbers as numbers."""

    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.TemporaryDirectory(prefix="ssdlab-sweep-py-")
        sweep = os.path.join(cls.temp.name, "sweep.toml")
        with open(sweep, "w") as f:
            f.write(f'configs = ["{TINY}"]\n'
                    'sets = [["ftl.type=page-mapped"], '
                    '["ftl.type=fast", "ftl.overprovisioning=0.2"]]\n'
                    'workloads = ["RW:count=400", "RW:count=400,io_size=8192"]\n'
                    'seeds = [1, 2]\nprecondition = "random"\nio_log = true\n')
        cls.out = os.path.join(cls.temp.name, "out")
        subprocess.run([ssdlab.find_binary(), "sweep", sweep, "-o", cls.out, "-q"],
                       check=True, stdout=subprocess.DEVNULL)
        cls.runs = plot.collect_runs([cls.out])

    @classmethod
    def tearDownClass(cls):
        cls.temp.cleanup()

    def test_labels_tell_every_job_apart_and_seeds_make_one_variant(self):
        labels = [label for _, _, label in self.runs]
        self.assertEqual(len(set(labels)), 8)
        self.assertEqual({run.variant for run in self.runs},
                         {"page-mapped", "fast, overprovisioning=0.2"})
        self.assertIn("RW:count=400,io_size=8192, seed 2", labels[-1])
        self.assertIn("8 runs: 2 variants x 2 workloads x 2 seeds", plot.common_title(self.runs))

    def test_one_cdf_curve_per_workload_and_variant_none_overwritten(self):
        path = os.path.join(self.temp.name, "cdf.png")
        self.assertEqual(plot.plot_runs_cdf(path, self.runs), 4)

    def test_one_colour_per_ftl_and_the_legend_beside_the_axes(self):
        order, styles = plot.variants(self.runs)
        self.assertEqual(styles["fast, overprovisioning=0.2"]["color"], plot.FTL_COLOURS["fast"])
        self.assertNotEqual(styles[order[0]]["color"], styles[order[1]]["color"])
        fig, axes, side = plot.runs_figure(5, 2, (6.0, 3.6), ["a long label " * 3])
        fig.canvas.draw()
        right = max(ax.get_position().x1 for ax in axes)
        self.assertGreaterEqual(side.get_position().x0, right)
        plot.plt.close(fig)

    def test_figures_stay_within_bounds(self):
        written = plot.plot_runs([self.out], os.path.join(self.temp.name, "plots"))
        self.assertEqual(len(written), 3)
        for path in written:
            width, height = png_size(path)
            self.assertLessEqual(width, 1760, path)
            self.assertLessEqual(height, 2200, path)

    def test_read_sweep_gives_numbers_as_numbers(self):
        frame = ssdlab.read_sweep(self.out)
        self.assertEqual(str(frame["ftl.overprovisioning"].dtype), "float64")
        self.assertEqual(int(frame["ftl.overprovisioning"].isna().sum()), 4)  # page-mapped
        self.assertEqual(sorted(frame["workload.io_size"].dropna().unique()), [8192])
        self.assertEqual(str(frame["workload.count"].dtype), "int64")
        self.assertEqual(str(frame["ftl.type"].dtype), "object")

    def test_a_probe_run_is_labelled_by_its_target(self):
        summary = {"target": {"kind": "file", "path": "/x/disk.img"}, "config": {}}
        self.assertEqual(plot.describe(summary), "file disk.img")
        self.assertEqual(plot.subject_of(summary), ("file", "disk.img"))


class ScaleTest(unittest.TestCase):
    def test_constant_or_narrow_series_are_not_drawn_on_a_log_axis(self):
        self.assertFalse(plot.wide_range([0.3056] * 100))
        self.assertFalse(plot.wide_range([0.3, 0.5, 2.0]))
        self.assertTrue(plot.wide_range([0.3, 25.8]))
        self.assertFalse(plot.wide_range([0.0, 25.8]))

    def test_sizes_read_with_units(self):
        self.assertEqual(plot.format_bytes(512), "512 B")
        self.assertEqual(plot.format_bytes(32768), "32 KiB")
        self.assertEqual(plot.format_bytes(1 << 30), "1 GiB")


if __name__ == "__main__":
    unittest.main()


IO_HEADER = "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n"
GOOD_SUMMARY = '{"experiments": [{"name": "RW", "runs": [{"mean_us": 1.0}]}]}'


class MalformedOutputsTest(unittest.TestCase):
    """Every malformed output gives SsdlabError (the package) or one error line
    and status 1 (plot.py as `ssdlab plot` runs it), naming the file."""

    def setUp(self):
        self.temp = tempfile.TemporaryDirectory(prefix="ssdlab-py-bad-")
        self.dir = self.temp.name

    def tearDown(self):
        self.temp.cleanup()

    def folder(self, name, summary=None, io=None):
        path = os.path.join(self.dir, name)
        os.makedirs(path)
        if summary is not None:
            with open(os.path.join(path, "summary.json"), "w") as f:
                f.write(summary)
        if io is not None:
            with open(os.path.join(path, "io.csv"), "wb") as f:
                f.write(io if isinstance(io, bytes) else io.encode())
        return path

    def test_load_run_refuses_summaries_of_another_shape(self):
        for i, text in enumerate(['[1, 2, 3]', 'null', '{"experiments": 5}', '{"config": 5}',
                                  '{"experiments": [{"name": "a", "runs": "x"}]}',
                                  '{"experiments": [5]}']):
            with self.subTest(summary=text):
                path = self.folder(f"s{i}", summary=text)
                with self.assertRaisesRegex(ssdlab.SsdlabError, "summary.json"):
                    ssdlab.load_run(path)

    def test_read_io_refuses_bytes_that_are_not_text(self):
        path = self.folder("binary", io=IO_HEADER.encode() + b"\xff\xfe\x00\x81,1\n")
        with self.assertRaisesRegex(ssdlab.SsdlabError, "io.csv"):
            ssdlab.read_io(path)
        path = self.folder("binary-header", io=b"\xff\xfe\x00\x81\n")
        with self.assertRaisesRegex(ssdlab.SsdlabError, "io.csv"):
            ssdlab.read_io(path)

    def test_read_io_refuses_response_times_that_compare_refuses(self):
        for i, rt in enumerate(["nan", "-1.0", "inf"]):
            with self.subTest(rt_us=rt):
                path = self.folder(f"rt{i}", io=IO_HEADER + "RW,0,0,0,0.0,1.0,W,0,4096\n"
                                   f"RW,0,0,1,1.0,{rt},W,0,4096\n")
                with self.assertRaisesRegex(ssdlab.SsdlabError, r"io.csv:3: rt_us"):
                    ssdlab.read_io(path)

    def test_read_sweep_refuses_an_empty_sweep_csv(self):
        path = os.path.join(self.dir, "sweep")
        os.makedirs(path)
        open(os.path.join(path, "sweep.csv"), "w").close()
        with self.assertRaisesRegex(ssdlab.SsdlabError, "sweep.csv"):
            ssdlab.read_sweep(path)

    def plot_error(self, outdir):
        done = subprocess.run([sys.executable, plot.__file__, outdir, os.path.join(outdir, "plots"),
                               "png"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual(done.returncode, 1, done.stderr)
        lines = done.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, done.stderr)
        return lines[0]

    def test_plot_of_malformed_outputs_is_one_line_naming_the_file(self):
        self.assertIn("summary.json", self.plot_error(self.folder("a", '{"experiments": 5}')))
        self.assertIn("io.csv:2", self.plot_error(
            self.folder("b", GOOD_SUMMARY, IO_HEADER + "RW,0,0,0,abc,def,W,0,4096\n")))
        self.assertIn("io.csv", self.plot_error(
            self.folder("c", GOOD_SUMMARY, IO_HEADER.encode() + b"RW,0,0,0,\xff\xfe,1,W,0,1\n")))
        plots_file = self.folder("d", GOOD_SUMMARY, IO_HEADER + "RW,0,0,0,0.0,1.0,W,0,4096\n")
        open(os.path.join(plots_file, "plots"), "w").close()
        self.assertIn("plots", self.plot_error(plots_file))

    def test_python_m_ssdlab_plot_prints_no_runpy_warning(self):
        path = self.folder("m", GOOD_SUMMARY, IO_HEADER + "RW,0,0,0,0.0,1.0,W,0,4096\n")
        done = subprocess.run([sys.executable, "-m", "ssdlab.plot", path, "-o",
                               os.path.join(self.dir, "m-plots")],
                              cwd=os.path.join(SOURCE, "python"), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("RuntimeWarning", done.stderr)
