"""Starting and stopping nbdkit with the ssdlab plugin for the live-device
tests and bench/scripts/live-device.py: each server on a unix socket in a
folder of its own, stopped by its own process id (never by name)."""
import os
import shutil
import signal
import subprocess
import time


def missing(*programs):
    """The programs of `programs` that are not on PATH."""
    return [p for p in programs if shutil.which(p) is None]


class Server:
    """`nbdkit PLUGIN KEY=VALUE...` in the foreground on FOLDER/nbd.sock."""

    def __init__(self, plugin, folder, *keys):
        self.socket = os.path.join(folder, "nbd.sock")
        if os.path.exists(self.socket):  # an earlier server's in the same folder
            os.remove(self.socket)
        self.log = open(os.path.join(folder, "nbdkit.log"), "ab")
        self.process = subprocess.Popen(
            # --threads: nbdkit's threads per connection bound the requests in
            # flight (default 16); 64 lets fio's QD32 reach the device.
            ["nbdkit", "-f", "--threads", "64", "-U", self.socket, plugin, *keys],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120  # preconditioning may take a while
        while not os.path.exists(self.socket):
            if self.process.poll() is not None:
                raise RuntimeError(f"nbdkit exited with {self.process.returncode}: "
                                   + self.output())
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("nbdkit did not open its socket")
            time.sleep(0.02)

    @property
    def uri(self):
        return f"nbd+unix:///?socket={self.socket}"

    def output(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.log.name, errors="replace") as f:
            return f.read()

    def stop(self):
        """SIGTERM to our nbdkit; its plugin writes the outputs as it unloads."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def fio_job(uri, name, **keys):
    """A fio command line for one job on the device at `uri` (ioengine=nbd)."""
    args = ["fio", f"--name={name}", "--ioengine=nbd", f"--uri={uri}", "--output-format=json"]
    for key, value in keys.items():
        args.append(f"--{key}={value}")
    return args
