"""DiskSim 4.0 parameter (.parv) and output (.outv) files, and their mapping to
ssdlab: the library half of bench/scripts/disksim-valid.py (which runs it).

Nothing of DiskSim is copied here: the parser reads a user's checkout, and the
mapping cites the DiskSim source (benh/disksim, ssdmodel/ and src/) whose
behaviour each choice follows. Every DiskSim parameter either maps to an
ssdlab setting below or is listed in UNMAPPED with the reason.

SSD element (ssdmodel_ssd block) -> ssdlab config (--set over
configs/agrawal-baseline.toml):
  Flash chip elements E, Elements per gang G -> geometry.channels = E/G,
      packages_per_channel = G; G > 1: geometry.gang = a synchronous
      shared-bus mode if the binary has one (DiskSim compiles SYNC_GANG 1,
      ssd.h:407), else "shared-bus", gang_size = G, as
      configs/agrawal-gang8-shared-bus.toml; Gang share 2 is refused.
  Planes per package P, Number of parallel units U -> dies_per_package and
      planes_per_die with dies x planes = P (2 x P/2 when P is even), and
      geometry.interleaving: U=1 "none" (the package serves one request at a
      time), U=2 "dies", U=4 "planes" (docs/model.md, "The flash scheduler";
      ssd_timing.c:613-745 serves U units of P/U planes).
      geometry.two_plane_pairs: planes (0,1), (2,3), ... of a die (the
      paper's §2 "plane-pairs 0 & 1 or 2 & 3"). ftl.two_plane = (U = 4): with
      one unit per package or per die DiskSim
      runs a package's pages one after another (ssd_timing.c:613-745).
  Blocks per plane, Pages per block -> geometry.blocks_per_plane,
      pages_per_block (Blocks per element must be P x Blocks per plane).
  Page size (sectors) -> geometry.page_size, ftl.logical_page_size;
      Element stride pages -> ftl.stripe_size (stride x page).
  Chip xfer latency (ms/byte) -> timing.bus_ns_per_byte; Page read / write
      latency, Block erase latency (ms) -> timing.read_us, program_us,
      erase_us; Command overhead + Bus transaction latency -> command_ns
      (both 0 in the shipped files).
  Reserve pages percentage -> ftl.overprovisioning (DiskSim reserves it per
      plane, ssd_init.c:46-56); Minimum free blocks percentage ->
      ftl.clean_low_water (ssd_clean.h:28-33).
  Write policy 2 (osr) -> ftl.type page-mapped (1 is unsupported in DiskSim).
  Cleaning policy 2 greedy -> ftl.victim_policy greedy; 3 (greedy,
      wear-aware) -> greedy with ftl.wear_leveling rate-limit; 1 random.
  Copy back 1 -> ftl.copy_back true, clean_scope "plane", clean_granularity
      "one-victim" (ssd_clean.c:960-1003: one plane per parallel unit, one
      block each); 0 -> copy_back false, clean_scope "pool",
      clean_granularity "until-mark" (ssd_clean.c:907-931 and 813-905: the
      element cleans until one block above its mark).
  Allocation pool logic 0 (gang) / 1 (element) -> ftl.allocation_pool
      "package", 2 (plane) -> "plane".
  Cleaning in background 0 -> ftl.clean_high_water 0 (1 is refused: DiskSim
      cleans whenever the element is idle, ssd.c:463-469, which has no
      ssdlab setting to match).
  Always, when the binary knows them (probed with `ssdlab config`):
      ftl.plane_choice = "most-free" (DiskSim writes to the plane of the pool
      with the most free pages, ssd_timing.c:566-593) and ftl.summary_page =
      true (63 data pages and a summary page per 64-page block, ssd.h:396,
      ssd_timing.c:360-372).
  Preconditioning: --precondition seq (DiskSim maps every logical page at
      start, ssd_init.c:254-329).

Synthetic generator (disksim_synthio, its first generator) -> an inline
experiment (docs/reference/plan-keys.md, "Synthetic workloads"):
  Number of I/O requests to generate -> count; Storage capacity per device
  (sectors) -> target_size; Blocking factor (sectors) -> io_size;
  Probability of sequential access -> sequential_share (pattern S..);
  Probability of read access -> read_share (pattern .R); General
  inter-arrival times [uniform|exponential, ...] (ms) -> interarrival_us;
  Sizes [exponential|uniform, ...] (sectors) -> size_distribution (DiskSim
  rounds up to the blocking factor and redraws a zero, disksim_synthio.c:
  433-434; ssdlab rounds up to io_size, at least one).
A trace run (the .outv's "I/O trace used: FILE") -> -w trace:FILE with
format=disksim, replayed open loop at "I/O Trace Time Scale" (speed =
1/scale).
"""
import re

SECTOR = 512

# DiskSim parameters with no ssdlab counterpart, and why (disksim-valid.py
# prints those whose value would matter).
UNMAPPED = {
    "plane block mapping": "ssdlab's placement is its own FTL's; DiskSim's only sets the initial layout",
    "max queue length": "DiskSim's per-device queue bound; ssdlab's host queue is unlimited",
    "bulk sector transfer time": "0 in the shipped files; the HBA bus below is the host link",
    "never disconnect": "SCSI bus behaviour, no flash counterpart",
    "timing model": "DiskSim has one (1)",
    "hba block transfer time": "the HBA bus (disksim_bus, 0.2384 us per sector in the shipped "
    "files) adds 1.9 us to a 4 KiB request's response; ssdlab has no host link outside the "
    "write buffer",
    "probability of local access": "no local-distance generator in ssdlab (0 in the shipped files)",
    "sequential inter-arrival times": "ssdlab draws one interarrival distribution; the same as "
    "the general one in the shipped files",
    "maximum time of trace generated": "the request count ends every shipped run first",
    "sequential request size": "DiskSim keeps a sequential stream's size until it jumps "
    "(disksim_synthio.c: the sequential branch only advances the block); ssdlab draws a size "
    "per I/O",
}


class ParvError(Exception):
    """A .parv or .outv that this reader cannot map; the message names the key."""


_TOKEN = re.compile(r"\s*(?:([{}\[\],=])|([^{}\[\],=#\n]+))")


def _tokens(text):
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        pos = 0
        while pos < len(line):
            m = _TOKEN.match(line, pos)
            if not m or m.end() == pos:
                break
            pos = m.end()
            if m.group(1):
                out.append(m.group(1))
            elif m.group(2).strip():
                out.append(" ".join(m.group(2).split()))
    return out


def _key(name):
    return " ".join(name.lower().split())


class _Parser:
    def __init__(self, tokens):
        self.t, self.i = tokens, 0

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else None

    def take(self, want=None):
        tok = self.peek()
        if tok is None or (want and tok != want):
            raise ParvError(f"expected '{want}' but found '{tok}' (token {self.i})")
        self.i += 1
        return tok

    def value(self):
        if self.peek() == "[":
            self.take("[")
            items = []
            while self.peek() != "]":
                items.append(self.value())
                if self.peek() == ",":
                    self.take(",")
            self.take("]")
            return items
        word = self.take()
        if self.peek() == "{":
            return self.block(word)
        return word

    def block(self, kind):
        self.take("{")
        params = {"__type__": kind}
        while self.peek() != "}":
            name = self.take()
            self.take("=")
            params[_key(name)] = self.value()
            if self.peek() == ",":
                self.take(",")
        self.take("}")
        return params


def parse_parv(text):
    """Top-level blocks of a .parv as {type word: params}; instantiate and
    topology statements are skipped. Keys are lower-case, blanks collapsed."""
    p = _Parser(_tokens(text))
    blocks = {}
    while p.peek() is not None:
        if p.peek(1) == "{":
            kind = p.take()
            blocks[kind.split()[0]] = p.block(kind)
        elif p.peek() == "[":
            depth = 0
            while True:
                tok = p.take()
                depth += {"[": 1, "]": -1}.get(tok, 0)
                if depth == 0:
                    break
        else:
            p.take()
    return blocks


def parse_outv(text):
    """The reference statistics of a .outv (times in microseconds)."""
    def stat(pattern):
        m = re.search(pattern, text, re.M)
        return float(m.group(1)) * 1000.0 if m else None

    trace = re.search(r"^\*\*\* I/O trace used: (\S+)", text, re.M)
    # runvalid greps "^ssd Response time average:" (the per-device statistic);
    # "Overall I/O System" adds the driver's queue above the device.
    return {
        "response_us": stat(r"^ssd Response time average:\s+([0-9.eE+-]+)"),
        "access_us": stat(r"^ssd Access time average:\s+([0-9.eE+-]+)"),
        "system_response_us": stat(r"^Overall I/O System Response time average:\s+([0-9.eE+-]+)"),
        "trace": None if not trace or trace.group(1) == "0" else trace.group(1),
    }


def _num(params, name, block="ssdmodel_ssd"):
    if _key(name) not in params:
        raise ParvError(f"{block}: '{name}' is missing")
    raw = params[_key(name)]
    try:
        return float(raw)
    except (TypeError, ValueError):
        raise ParvError(f"{block}: '{name}' = {raw!r} is not a number") from None


def _int(params, name, block="ssdmodel_ssd"):
    v = _num(params, name, block)
    if v != int(v):
        raise ParvError(f"{block}: '{name}' = {v:g} is not a whole number")
    return int(v)


def map_device(blocks, supports=lambda key, value: False, gang_values=()):
    """The --set overrides (key -> value strings) that make
    configs/agrawal-baseline.toml DiskSim's SSD element, and notes of what
    was approximated. supports(key, value) says whether the binary accepts a
    setting; gang_values are the binary's geometry.gang organisations."""
    ssd = blocks.get("ssdmodel_ssd")
    if ssd is None:
        raise ParvError("no ssdmodel_ssd block")
    s, notes = {}, []
    elements, gang = _int(ssd, "Flash chip elements"), _int(ssd, "Elements per gang")
    if gang < 1 or elements % gang:
        raise ParvError(f"ssdmodel_ssd: 'Elements per gang' = {gang} does not divide {elements} elements")
    s["geometry.channels"] = str(elements // gang)
    s["geometry.packages_per_channel"] = str(gang)
    if gang > 1:
        if _int(ssd, "Gang share") != 1:
            raise ParvError("ssdmodel_ssd: 'Gang share' = 2 (shared control) is not mapped; "
                            "see configs/agrawal-gang8-shared-control-sync.toml")
        sync_bus = [v for v in gang_values if "shared-bus" in v and "sync" in v]
        s["geometry.gang"] = sync_bus[0] if sync_bus else "shared-bus"
        if not sync_bus:
            notes.append("synchronous shared-bus gang not in this binary: asynchronous shared-bus")
        s["geometry.gang_size"] = str(gang)
    planes, units = _int(ssd, "Planes per package"), _int(ssd, "Number of parallel units")
    if units not in (1, 2, 4) or planes % 2:
        raise ParvError(f"ssdmodel_ssd: {units} parallel units of {planes} planes have no ssdlab interleaving")
    s["geometry.dies_per_package"], s["geometry.planes_per_die"] = "2", str(planes // 2)
    pairs = [f"[{p},{p + 1}]" for p in range(0, planes // 2 - 1, 2)]
    s["geometry.two_plane_pairs"] = "[" + ",".join(pairs) + "]"
    s["geometry.interleaving"] = {1: "none", 2: "dies", 4: "planes"}[units]
    s["ftl.two_plane"] = "true" if units == 4 else "false"
    per_plane = _int(ssd, "Blocks per plane")
    if _int(ssd, "Blocks per element") != planes * per_plane:
        notes.append("Blocks per element != planes x blocks per plane: blocks per plane used")
    s["geometry.blocks_per_plane"] = str(per_plane)
    s["geometry.pages_per_block"] = str(_int(ssd, "Pages per block"))
    page = _int(ssd, "Page size") * SECTOR
    s["geometry.page_size"] = str(page)
    s["ftl.logical_page_size"] = str(page)
    s["ftl.stripe_size"] = str(_int(ssd, "Element stride pages") * page)
    s["timing.bus_ns_per_byte"] = f"{_num(ssd, 'Chip xfer latency') * 1e6:g}"
    s["timing.read_us"] = f"{_num(ssd, 'Page read latency') * 1e3:g}"
    s["timing.program_us"] = f"{_num(ssd, 'Page write latency') * 1e3:g}"
    s["timing.erase_us"] = f"{_num(ssd, 'Block erase latency') * 1e3:g}"
    overhead = _num(ssd, "Command overhead") + _num(ssd, "Bus transaction latency")
    s["timing.command_ns"] = f"{round(overhead * 1e6)}"
    s["ftl.overprovisioning"] = f"{_num(ssd, 'Reserve pages percentage') / 100:g}"
    s["ftl.clean_low_water"] = f"{_num(ssd, 'Minimum free blocks percentage') / 100:g}"
    if _int(ssd, "Write policy") != 2:
        raise ParvError("ssdmodel_ssd: 'Write policy' must be 2 (osr); DiskSim supports no other")
    s["ftl.type"] = "page-mapped"
    policy = _int(ssd, "Cleaning policy")
    if policy not in (1, 2, 3):
        raise ParvError(f"ssdmodel_ssd: 'Cleaning policy' = {policy} is not 1, 2 or 3")
    s["ftl.victim_policy"] = "random" if policy == 1 else "greedy"
    if policy == 3:
        s["ftl.wear_leveling"] = "rate-limit"
        notes.append("wear-aware greedy (Cleaning policy 3) as greedy + rate-limit")
    copy_back = _int(ssd, "Copy back") == 1
    s["ftl.copy_back"] = "true" if copy_back else "false"
    s["ftl.clean_scope"] = "plane" if copy_back else "pool"
    s["ftl.clean_granularity"] = "one-victim" if copy_back else "until-mark"
    pool = _int(ssd, "Allocation pool logic")
    if pool not in (0, 1, 2):
        raise ParvError(f"ssdmodel_ssd: 'Allocation pool logic' = {pool} is not 0, 1 or 2")
    s["ftl.allocation_pool"] = "plane" if pool == 2 else "package"
    if _int(ssd, "Cleaning in background") != 0:
        raise ParvError("ssdmodel_ssd: 'Cleaning in background' = 1 has no ssdlab counterpart")
    s["ftl.clean_high_water"] = "0"
    for key, value in (("ftl.plane_choice", "most-free"), ("ftl.summary_page", "true")):
        if supports(key, value):
            s[key] = value
        else:
            notes.append(f"{key} not in this binary: its default")
    return s, notes


def _distribution(value, name, unit_bytes, kinds):
    """A DiskSim [kind, base, second] distribution as ssdlab's KIND:A[:B]."""
    if not isinstance(value, list) or len(value) < 2:
        raise ParvError(f"disksim_synthgen: '{name}' = {value!r} is not [kind, ...]")
    kind, args = value[0].lower(), [float(v) for v in value[1:]]
    if kind not in kinds:
        raise ParvError(f"disksim_synthgen: '{name}': {kind} has no ssdlab counterpart ({', '.join(kinds)})")
    if kind == "uniform":
        return f"uniform:{args[0] * unit_bytes:g}:{args[1] * unit_bytes:g}"
    if args[0] != 0:
        raise ParvError(f"disksim_synthgen: '{name}': an exponential with base {args[0]:g} (ssdlab's starts at 0)")
    return f"exponential:{args[1] * unit_bytes:g}"


def map_synthetic(blocks, scale=1.0):
    """DiskSim's first synthetic generator as an ssdlab inline experiment."""
    synthio = blocks.get("disksim_synthio")
    if synthio is None:
        raise ParvError("no disksim_synthio block")
    gens = synthio.get(_key("Generators"))
    if not isinstance(gens, list) or not gens or not isinstance(gens[0], dict):
        raise ParvError("disksim_synthio: no generator")
    if len(gens) > 1:
        raise ParvError("disksim_synthio: several generators; ssdlab maps one")
    g, blk = gens[0], "disksim_synthgen"
    count = max(1, int(_int(synthio, "Number of I/O requests to generate", "disksim_synthio") * scale))
    block = _int(g, "Blocking factor", blk)
    capacity = _int(g, "Storage capacity per device", blk) // block * block
    seq, read = _num(g, "Probability of sequential access", blk), _num(g, "Probability of read access", blk)
    for name in ("Probability of local access", "Probability of time-critical request",
                 "Probability of time-limited request"):
        if _num(g, name, blk) != 0:
            raise ParvError(f"disksim_synthgen: '{name}' = {_num(g, name, blk):g}; ssdlab maps only 0")
    pattern = ("S" if seq >= 0.5 else "R") + ("R" if read >= 0.5 else "W")
    keys = [f"io_size={block * SECTOR}",
            "size_distribution=" + _distribution(g.get(_key("Sizes")), "Sizes", SECTOR,
                                                 ("exponential", "uniform")),
            f"target_size={capacity * SECTOR}", f"count={count}"]
    if seq not in (0.0, 1.0) or (seq == 1.0) != pattern.startswith("S"):
        keys.append(f"sequential_share={seq:g}")
    if read not in (0.0, 1.0):
        keys.append(f"read_share={read:g}")
    keys.append("interarrival_us=" + _distribution(g.get(_key("General inter-arrival times")),
                                                   "General inter-arrival times", 1000.0,
                                                   ("exponential", "uniform")))
    return f"{pattern}:" + ",".join(keys)


def map_trace(blocks, trace_path, limit=None):
    """A DiskSim ASCII trace replayed open loop (its first LIMIT requests)."""
    time_scale = float(blocks.get("disksim_iosim", {}).get(_key("I/O Trace Time Scale"), 1.0))
    spec = f"trace:{trace_path},format=disksim"
    if time_scale != 1.0:
        spec += f",speed={1.0 / time_scale:g}"
    if limit:
        spec += f",limit={limit}"
    return spec
