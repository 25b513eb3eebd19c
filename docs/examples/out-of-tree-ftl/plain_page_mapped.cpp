// An out-of-tree FTL: "plain-page-mapped", the built-in page-mapped FTL
// without the two hardware shortcuts it uses by default (copy-back and
// two-plane commands), whatever the config says. It shows the two things an
// FTL of your own needs: a class implementing ssdlab::ftl::Ftl (here by
// delegating to a built-in one; see ftl/example_ftl.cpp in the ssdlab sources
// for one written from scratch) and one SSDLAB_REGISTER_FTL line. As it runs
// the page-mapped FTL, it takes that FTL's own [ftl] keys (victim policy,
// cleaning scope and granularity, ...) by registering with its key hooks
// (ftl/ftl_keys.h; an FTL with keys of its own passes its own hooks, as
// ftl/example_ftl.cpp's example_ftl_keys).
#include <memory>

#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/register.h"

namespace {

using namespace ssdlab::ftl;

class PlainPageMapped final : public Ftl {
 public:
  explicit PlainPageMapped(const FtlContext& context) : inner_(make_ftl(plain(context))) {}

  std::string_view name() const override { return "plain-page-mapped"; }
  std::uint64_t logical_pages() const override { return inner_->logical_pages(); }
  void write(const PageRange& range, CommandList& out) override { inner_->write(range, out); }
  void read(const PageRange& range, CommandList& out) override { inner_->read(range, out); }
  void trim(const PageRange& range, CommandList& out) override { inner_->trim(range, out); }
  bool is_mapped(Lpn lpn) const override { return inner_->is_mapped(lpn); }
  void check_invariants() const override { inner_->check_invariants(); }
  const FtlStats& stats() const override { return inner_->stats(); }
  const FtlConfig& config() const override { return inner_->config(); }
  const ssdlab::flash::NandArray& nand() const override { return inner_->nand(); }
  // What the built-in FTL's parts do beyond those: a flush's runs packed
  // into whole flash pages (map units), background and idle cleaning (an SLC
  // cache's idle folding), preconditioning on several threads, and the
  // counters of an SLC cache and of placement, which summary.json reports
  // (the personas review: a delegate that left them out dropped the
  // slc_cache block without a word).
  void write_runs(PageRuns runs, CommandList& out) override { inner_->write_runs(runs, out); }
  bool wants_background_cleaning(std::uint32_t pool, bool host_idle) const override {
    return inner_->wants_background_cleaning(pool, host_idle);
  }
  void clean_in_background(std::uint32_t pool, CommandList& out) override {
    inner_->clean_in_background(pool, out);
  }
  std::uint32_t parallel_pools() const override { return inner_->parallel_pools(); }
  std::uint32_t pool_of_page(Lpn lpn) const override { return inner_->pool_of_page(lpn); }
  void set_pool_parallel(bool on) override { inner_->set_pool_parallel(on); }
  PartRecords part_records() const override { return inner_->part_records(); }
  // Optional parts (power cuts, checkpoints) are left out: ssdlab refuses
  // --power-cut-at and --save-state for this FTL with a clear error.

 private:
  static FtlContext plain(FtlContext context) {
    context.config.type = "page-mapped";
    context.config.copy_back = false;
    context.config.two_plane = false;
    return context;
  }
  std::unique_ptr<Ftl> inner_;
};

std::unique_ptr<Ftl> make_plain_page_mapped(const FtlContext& context) {
  return std::make_unique<PlainPageMapped>(context);
}

}  // namespace

// Registers before main() runs; this object file is the executable's own, so
// the linker keeps it.
SSDLAB_REGISTER_FTL("plain-page-mapped", make_plain_page_mapped,
                    ssdlab::ftl::page_mapped_ftl_keys);
