// A compact wear histogram for summary.json (wear.remaining_life_buckets):
// blocks by erase count in fixed buckets [0], [1], [2, 4), [4, 8), ... up to
// the rated P/E cycles, and a last bucket of expired blocks (>= rated).
// Remaining life is rated cycles minus erases, so the buckets read both
// ways; they depend only on the rated cycles, so runs compare bucket by
// bucket. `ssdlab plot` draws it as wear.png.
#pragma once

#include "flash/nand_array.h"
#include "sim/results/summary_blocks.h"

namespace ssdlab::sim {

class Ssd;

// Wear of every block (Agrawal et al. §5, Tables 7 and 8): remaining life
// mean/stddev/min, blocks expired, remaining life relative to the mean in
// Table 8's bins, and the wear-leveling counters.
WearRecord wear_report(const Ssd& ssd);

// rated_cycles R, erases_from [0, 1, 2, 4, ..., R], blocks [...]:
// bucket i holds the blocks with erases_from[i] <= erases < erases_from[i + 1]
// (the last: erases >= R).
EraseBuckets remaining_life_buckets(const flash::NandArray& nand);

}  // namespace ssdlab::sim
