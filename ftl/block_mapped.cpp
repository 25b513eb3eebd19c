// Block-mapped FTL, as in USB sticks and SD cards (Ajwani et al. §3.3.1;
// Desnoyers §3 "RAM requirements"): one map entry per virtual block, the
// logical page at offset i of a logical block always at page i of its flash
// (virtual) block. A virtual block may span channels (ftl.virtual_block_size;
// Desnoyers §4: the effective erase block is the striped chunk).
//
// Writing follows Ajwani §3.3.1: the device "writes the new data into a new
// physical chunk and keeps on writing contiguously in this physical chunk till
// it switches to another logical chunk"; only that one logical block is
// mapped twice.
//  - A write at or past a block's write pointer (appending, e.g. to a freshly
//    allocated block) is programmed in place: no copy; skipped pages are
//    padded, since pages are programmed in order.
//  - Any other write is a read-modify-write of the whole virtual block: a
//    fresh block is opened for the logical block, the valid pages before the
//    write are copied into it, the new data programmed. Later in-order writes
//    of that logical block append to the open block.
//  - Writing any other logical block (or rewriting what the open block
//    already holds) closes the open block: the rest of the old block is copied into
//    it and the old block erased. Counted as a partial merge, or as a switch
//    merge when nothing was left to copy (the block was rewritten whole).
// So a random write smaller than the virtual block costs a whole block of
// copies, split between it and the next write to another block; an aligned
// write of a whole virtual block costs no copy at all.
#include "ftl/block_store.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {
namespace {

using VBlock = BlockStore::VBlock;
constexpr VBlock kNone = BlockStore::kNone;

class BlockMappedFtl final : public BlockStoreFtl {
 public:
  // Held back: the second block of the open logical block, and one spare.
  explicit BlockMappedFtl(const FtlContext& context) : BlockStoreFtl(context, 2, "block-mapped") {}

  void write(const PageRange& range, CommandList& out) override;
  void check_invariants() const override;

 private:
  void release_logs(std::uint32_t lbn, const BlockStore::Work& work, CommandList& out) override;
  void forget_logs() override { open_ = kNone; }
  void save_logs(StateWriter& out) const override {
    out.section("BMAP", 1);
    out.u32(open_lbn_);
    out.u32(open_);
  }
  void load_logs(StateReader& in) override {
    in.section("BMAP", 1);
    open_lbn_ = in.u32();
    open_ = in.u32();
    store_.check_block(open_);
    if (open_lbn_ >= store_.logical_blocks())
      throw make_error("corrupt: block-mapped's open logical block is {}", open_lbn_);
  }
  void write_page(const PageRange& range, Lpn lpn, CommandList& out);
  // Completes the open block from the old one and makes it the data block.
  void close_open_block(CommandList& out);

  std::uint32_t open_lbn_ = 0;
  VBlock open_ = kNone;  // the open block of open_lbn_: its pages are log pages
};

void BlockMappedFtl::write(const PageRange& range, CommandList& out) {
  if (range.count == 0) return;
  store_.begin_request();
  const std::size_t start = out.size();
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) write_page(range, lpn, out);
  store_.stats().host_pages_written += range.count;
  store_.finish(out, start);
}

void BlockMappedFtl::write_page(const PageRange& range, Lpn lpn, CommandList& out) {
  const std::uint32_t lbn = store_.lbn_of(lpn);
  const std::uint32_t offset = store_.offset_of(lpn);
  if (open_ != kNone && open_lbn_ != lbn) close_open_block(out);  // writing moved on
  if (open_ != kNone) {
    if (offset >= store_.written(open_)) {
      // In order: append to the open block, copying any pages skipped over.
      if (offset > store_.written(open_))
        store_.fill(open_, lbn, offset, true, store_.merge_work(), out);
      const std::uint8_t stage = store_.read_if_partial(range, lpn, out);
      store_.program(open_, lpn, true, {stage, false}, out);
      return;
    }
    close_open_block(out);  // rewriting what the open block holds
  }
  VBlock data = store_.data(lbn);
  if (data == kNone || offset >= store_.written(data)) {
    // Nothing there to keep: program in place.
    if (data == kNone) {
      data = store_.allocate();
      store_.make_data(lbn, data);
    }
    store_.pad(data, offset, {0, false}, out);
    store_.program(data, lpn, false, {0, false}, out);
    return;
  }
  // Read-modify-write: a fresh block gets the pages before this one now and
  // the rest when it is closed. Same plane group, so copies are copy-backs.
  open_ = store_.allocate(store_.group_of(data));
  open_lbn_ = lbn;
  store_.fill(open_, lbn, offset, true, store_.merge_work(), out);
  const std::uint8_t stage = store_.read_if_partial(range, lpn, out);
  store_.program(open_, lpn, true, {stage, false}, out);
}

void BlockMappedFtl::close_open_block(CommandList& out) {
  if (open_ == kNone) return;
  const BlockStore::Work work = store_.merge_work();
  const std::uint32_t copied =
      store_.fill(open_, open_lbn_, store_.block_pages(), false, work, out);
  const VBlock old = store_.make_data(open_lbn_, open_);
  if (old != kNone) store_.release(old, work, out);
  ++(copied == 0 ? store_.stats().switch_merges : store_.stats().partial_merges);
  open_ = kNone;
}

void BlockMappedFtl::release_logs(std::uint32_t lbn, const BlockStore::Work& work,
                                  CommandList& out) {
  if (open_ != kNone && open_lbn_ == lbn) {
    store_.release(open_, work, out);
    open_ = kNone;
  }
}

void BlockMappedFtl::check_invariants() const {
  std::vector<VBlock> logs;
  if (open_ != kNone) {
    logs.push_back(open_);
    if (store_.data(open_lbn_) == kNone)
      throw std::logic_error("block-mapped: the open logical block has no old data block");
  }
  store_.check_invariants(logs);
}

}  // namespace

std::unique_ptr<Ftl> make_block_mapped_ftl(const FtlContext& context) {
  return std::make_unique<BlockMappedFtl>(context);
}

}  // namespace ssdlab::ftl
