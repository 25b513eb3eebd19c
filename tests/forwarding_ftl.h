// An FTL that forwards every call to another one, for tests that change one
// behaviour of a real FTL (a write that throws, erases moved to stage 0):
// derive and override what differs.
#pragma once

#include <memory>
#include <string_view>
#include <utility>

#include "ftl/ftl.h"

namespace ssdlab::testing {

class ForwardingFtl : public ftl::Ftl {
 public:
  explicit ForwardingFtl(std::unique_ptr<ftl::Ftl> inner) : inner_(std::move(inner)) {}
  std::uint64_t logical_pages() const override { return inner_->logical_pages(); }
  void write(const ftl::PageRange& range, ftl::CommandList& out) override {
    inner_->write(range, out);
  }
  void read(const ftl::PageRange& range, ftl::CommandList& out) override {
    inner_->read(range, out);
  }
  void trim(const ftl::PageRange& range, ftl::CommandList& out) override {
    inner_->trim(range, out);
  }
  bool is_mapped(ftl::Lpn lpn) const override { return inner_->is_mapped(lpn); }
  void check_invariants() const override { inner_->check_invariants(); }
  const ftl::FtlStats& stats() const override { return inner_->stats(); }
  const ftl::FtlConfig& config() const override { return inner_->config(); }
  const flash::NandArray& nand() const override { return inner_->nand(); }

 protected:
  ftl::Ftl& inner() { return *inner_; }

 private:
  std::unique_ptr<ftl::Ftl> inner_;
};

}  // namespace ssdlab::testing
