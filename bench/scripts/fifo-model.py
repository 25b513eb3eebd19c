#!/usr/bin/python3
"""A plain FIFO cleaning model of one allocation pool, to check ssdlab's fifo.

    fifo-model.py [--blocks 512] [--pages 16] [--logical 6963] [--mark 26]
                  [--precondition 4] [--writes 800000] [--seed 1]
                  [--full skip|greedy|rotate] [--frontier separate|shared]
                  [--hot-fraction F --hot-access A]

One plane of BLOCKS blocks of PAGES pages holding LOGICAL logical pages,
functionally (no timing), as the page-mapped FTL runs it with
`ftl.allocation_pool = "ssd"`, `ftl.clean_scope = "pool"` and
`ftl.clean_granularity = "until-mark"` (ftl/page_mapped/page_mapped_trigger.cpp): before
each host page, while fewer than MARK blocks are free, clean the victim (move
its valid pages, erase it, append it to the free list). The device is filled
sequentially, then PRECONDITION x LOGICAL uniform random page writes, then
WRITES more, measured: prints their write amplification (flash pages
written / host pages) and the share of the victims chosen while the oldest
sealed block held only valid pages.

The victim is the block sealed (filled) longest ago. --full says what
happens when that block holds only valid pages (cleaning it frees nothing):
  skip    the oldest block that is not full (ssdlab's fifo since issue 36)
  greedy  the block with the fewest valid pages (ssdlab's fifo before: the
          full block stays the oldest, so every cleaning is greedy until a
          page of it is superseded)
  rotate  clean it anyway: its pages move, it goes to the end of the order
          (Desnoyers' LRW log; costs PAGES page writes for nothing)
--frontier: moved pages go to a cleaning active block of their own
(separate, as ssdlab does) or to the host's (shared). --hot-fraction and
--hot-access skew the random writes as the plan keys of the same names do:
A of them go uniformly to the first F of the logical pages, the rest
uniformly to the others.

Defaults: configs/tiny.toml with one plane of 512 blocks (issue 36's device:
`ssdlab sim` reports 27.20 MiB logical = 6,963 pages, and keeps
ceil(0.05 x 512) = 26 blocks free).
"""
import argparse
import heapq
import random
from collections import deque


class Pool:
    def __init__(self, blocks, pages, mark, full, shared):
        self.pages, self.mark, self.full, self.shared = pages, mark, full, shared
        self.content = [[None] * pages for _ in range(blocks)]
        self.valid = [0] * blocks
        self.written = [0] * blocks
        self.free = deque(range(blocks))
        self.order = []  # min-heap of (seal sequence, block), stale entries included
        self.sequence = {}  # sealed block -> its seal sequence
        self.buckets = [dict() for _ in range(pages + 1)]  # valid count -> blocks, in order
        self.active = {}
        self.where = {}  # logical page -> (block, page)
        self.flash_writes = self.seals = 0
        self.victims = self.not_oldest = 0

    def invalidate(self, lpn):
        block, page = self.where.pop(lpn)
        self.content[block][page] = None
        if block in self.sequence:
            del self.buckets[self.valid[block]][block]
            self.buckets[self.valid[block] - 1][block] = None
        self.valid[block] -= 1

    def program(self, frontier, lpn):
        if self.shared:
            frontier = "host"
        block = self.active.get(frontier)
        if block is None:
            block = self.active[frontier] = self.free.popleft()
        page = self.written[block]
        self.written[block] += 1
        self.content[block][page] = lpn
        self.valid[block] += 1
        self.where[lpn] = (block, page)
        self.flash_writes += 1
        if self.written[block] == self.pages:  # sealed
            del self.active[frontier]
            self.sequence[block] = self.seals
            heapq.heappush(self.order, (self.seals, block))
            self.seals += 1
            self.buckets[self.valid[block]][block] = None

    def live(self, entry):
        return self.sequence.get(entry[1]) == entry[0]

    def oldest(self, not_full):
        held, found = [], None
        while self.order:
            entry = heapq.heappop(self.order)
            if not self.live(entry):
                continue
            held.append(entry)
            if not not_full or self.valid[entry[1]] < self.pages:
                found = entry[1]
                break
        for entry in held:
            heapq.heappush(self.order, entry)
        return found

    def clean_one(self):
        first = self.oldest(False)
        victim = first
        if self.valid[first] == self.pages:
            if self.full == "skip":
                victim = self.oldest(True)
            elif self.full == "greedy":
                victim = next(b for bucket in self.buckets for b in bucket)
        self.victims += 1
        self.not_oldest += victim != first
        del self.sequence[victim]
        del self.buckets[self.valid[victim]][victim]
        for lpn in self.content[victim]:
            if lpn is not None:
                self.invalidate(lpn)
                self.program("cleaning", lpn)
        self.content[victim] = [None] * self.pages
        self.written[victim] = self.valid[victim] = 0
        self.free.append(victim)

    def write(self, lpn):
        while len(self.free) < self.mark:
            self.clean_one()
        if lpn in self.where:
            self.invalidate(lpn)
        self.program("host", lpn)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--blocks", type=int, default=512)
    parser.add_argument("--pages", type=int, default=16)
    parser.add_argument("--logical", type=int, default=6963)
    parser.add_argument("--mark", type=int, default=26)
    parser.add_argument("--precondition", type=int, default=4)
    parser.add_argument("--writes", type=int, default=800000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--full", choices=["skip", "greedy", "rotate"], default="skip")
    parser.add_argument("--frontier", choices=["separate", "shared"], default="separate")
    parser.add_argument("--hot-fraction", type=float, default=0.0)
    parser.add_argument("--hot-access", type=float, default=0.0)
    args = parser.parse_args()
    hot = int(args.hot_fraction * args.logical)
    pool = Pool(args.blocks, args.pages, args.mark, args.full, args.frontier == "shared")
    rng = random.Random(args.seed)
    for lpn in range(args.logical):
        pool.write(lpn)
    for _ in range(args.precondition * args.logical):
        pool.write(rng.randrange(args.logical))

    def draw():
        if 0 < hot < args.logical:
            if rng.random() < args.hot_access:
                return rng.randrange(hot)
            return hot + rng.randrange(args.logical - hot)
        return rng.randrange(args.logical)

    start, victims, not_oldest = pool.flash_writes, pool.victims, pool.not_oldest
    for _ in range(args.writes):
        pool.write(draw())
    cleaned = pool.victims - victims
    print(f"full={args.full} frontier={args.frontier}: write amplification "
          f"{(pool.flash_writes - start) / args.writes:.3f}, "
          f"{(pool.not_oldest - not_oldest) / max(cleaned, 1):.1%} of {cleaned} victims "
          f"chosen while the oldest sealed block was full")


if __name__ == "__main__":
    main()
