"""Timeline figures (`ssdlab plot TIMELINE.json`): colours a student can tell
apart, back-to-back operations drawn as separate bars, `-o`, and a zoom
(--window) that never replaces the full view (issue 44)."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import ssdlab  # noqa: E402
from ssdlab import plot  # noqa: E402

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TINY = os.path.join(SOURCE, "configs", "tiny.toml")


def track(tid, name):
    return {"ph": "M", "name": "thread_name", "pid": 1, "tid": tid, "args": {"name": name}}


def span(tid, name, ts, dur, cat="host", **args):
    return {"ph": "X", "name": name, "cat": cat, "pid": 1, "tid": tid, "ts": ts, "dur": dur,
            "args": args}


class TimelineDrawingTest(unittest.TestCase):
    def legend_colours(self, fig):
        handles, labels = fig.axes[0].get_legend_handles_labels()
        return {label: tuple(handle.patches[0].get_facecolor())
                for handle, label in zip(handles, labels)}

    def test_program_and_host_write_have_different_colours(self):
        events = [track(0, "Requests (lane 0)"), track(1, "Die 0 / Plane 0"),
                  span(0, "WRITE", 0, 300, cat="request", io=0),
                  span(1, "PROGRAM", 100, 200), span(1, "READ", 300, 50),
                  span(0, "READ", 300, 100, cat="request", io=1)]
        fig = plot.draw_timeline(events, float("-inf"), float("inf"), "t")
        colours = self.legend_colours(fig)
        self.assertIn("host WRITE", colours)
        self.assertIn("PROGRAM", colours)
        self.assertNotEqual(colours["host WRITE"], colours["PROGRAM"])
        self.assertNotEqual(colours["host READ"], colours["READ"])
        self.assertEqual(len(set(colours.values())), len(colours), colours)

    def test_back_to_back_operations_show_a_visible_edge_between_them(self):
        # Two pages moved over the bus one right after the other: the pixel
        # column where the first ends and the second starts must not be the
        # bars' own colour (with no edge, the two draw as one long bar).
        events = [track(0, "Bus 0"), span(0, "DATA IN", 0, 100), span(0, "DATA IN", 100, 100)]
        fig = plot.draw_timeline(events, float("-inf"), float("inf"), "t")
        fig.canvas.draw()
        pixels = numpy.asarray(fig.canvas.buffer_rgba())
        height = fig.canvas.get_width_height()[1]
        axes = fig.axes[0]

        def pixel(x):
            px, py = axes.transData.transform((x, 0))
            return tuple(pixels[height - int(round(py))][int(round(px))][:3])

        inside = pixel(50)
        self.assertEqual(inside, pixel(150))
        self.assertNotEqual(pixel(100), inside)

    def test_host_requests_are_numbered_where_they_fit(self):
        events = [track(0, "Requests (lane 0)"),
                  span(0, "WRITE", 0, 500, cat="request", io=7),
                  span(0, "WRITE", 500, 500, cat="request", io=8)]
        fig = plot.draw_timeline(events, float("-inf"), float("inf"), "t")
        self.assertEqual([t.get_text() for t in fig.axes[0].texts], ["io 7", "io 8"])


class TimelineCommandTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.TemporaryDirectory(prefix="ssdlab-timeline-")
        cls.dir = cls.temp.name
        cls.timeline = os.path.join(cls.dir, "sw.json")
        cls.outdir = os.path.join(cls.dir, "sw")
        ssdlab.run(TINY, "SW:count=16,queue_depth=8", cls.outdir,
                   extra_args=["--timeline", cls.timeline, "-q"])

    @classmethod
    def tearDownClass(cls):
        cls.temp.cleanup()

    def plot(self, *args):
        return subprocess.run([ssdlab.find_binary(), "plot", *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)

    def test_a_zoom_goes_to_a_file_of_its_own_and_leaves_the_full_view(self):
        full = os.path.join(self.dir, "sw.png")
        self.assertEqual(self.plot(self.timeline).returncode, 0)
        with open(full, "rb") as f:
            before = f.read()
        done = self.plot(self.timeline, "--window", "0:300")
        self.assertEqual(done.returncode, 0, done.stderr)
        zoom = os.path.join(self.dir, "sw-0-300us.png")
        self.assertEqual(done.stdout.strip(), zoom)
        self.assertTrue(os.path.getsize(zoom) > 0)
        with open(full, "rb") as f:
            self.assertEqual(f.read(), before)
        open_end = self.plot(self.timeline, "--window", "200:")
        self.assertEqual(open_end.stdout.strip(), os.path.join(self.dir, "sw-200-endus.png"))

    def test_o_names_the_file_or_the_folder_of_a_timeline(self):
        svg = os.path.join(self.dir, "figures", "mine.svg")
        done = self.plot(self.timeline, "-o", svg)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(svg) as f:
            self.assertIn("<svg", f.read(1000))
        folder = os.path.join(self.dir, "zooms")
        done = self.plot(self.timeline, "--window", ":400", "-o", folder)
        self.assertEqual(done.stdout.strip(), os.path.join(folder, "sw-start-400us.png"))

    def test_a_zoom_into_the_full_views_file_is_refused(self):
        done = self.plot(self.timeline, "--window", "0:300", "-o",
                         os.path.join(self.dir, "sw.png"))
        self.assertEqual(done.returncode, 1)
        self.assertIn("full view", done.stderr)

    def test_o_puts_an_output_folders_figures_elsewhere(self):
        figures = os.path.join(self.dir, "sw-figures")
        done = self.plot(self.outdir, "-o", figures)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("cdf.png", os.listdir(figures))
        self.assertFalse(os.path.exists(os.path.join(self.outdir, "plots")))
        refused = self.plot(self.outdir, "-o", os.path.join(self.dir, "x.png"))
        self.assertEqual(refused.returncode, 1)


if __name__ == "__main__":
    unittest.main()
