#include "sim/views/teaching.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "common/error.h"
#include "common/output_error.h"

namespace ssdlab::sim {

TeachingViews::TeachingViews(Ssd& ssd, const TeachingOptions& options)
    : ssd_(ssd), trace_ftl_file_(options.trace_ftl_file) {
  const flash::Geometry& geometry = ssd.config().geometry;
  if (options.timeline.empty() && (!options.timeline_window.empty() || options.timeline_ios))
    throw make_error("--timeline-window and --timeline-ios need --timeline FILE.json");
  if (!options.trace_ftl_file.empty() && options.trace_ftl == 0)
    throw make_error("--trace-ftl-file needs --trace-ftl N");
  if (!options.timeline.empty()) {
    timeline_ = std::make_unique<TimelineTrace>(
        options.timeline, geometry,
        parse_timeline_bound(options.timeline_window, options.timeline_ios));
    ssd.core().observers().add(timeline_.get());
    ssd.core().observers().add_flash(timeline_.get());
    if (geometry.cell_type != flash::CellType::kSlc)
      timeline_->label_page_types(&ssd.core().timeline());
  }
  if (options.trace_ftl > 0) {
    std::ostream* out = &std::cerr;
    if (!options.trace_ftl_file.empty()) {
      // A fresh file of ours (O_EXCL, a unique name), written as a stream.
      trace_temporary_ = std::make_unique<TemporaryFile>(options.trace_ftl_file);
      trace_temporary_->close();
      trace_file_.open(trace_temporary_->path(), std::ios::app);
      if (!trace_file_)
        throw make_error("--trace-ftl-file {}: cannot create the file: {}", options.trace_ftl_file,
                         std::strerror(errno));
      out = &trace_file_;
    }
    ftl_trace_ = std::make_unique<FtlTrace>(*out, geometry, ssd.ftl().logical_pages(),
                                            options.trace_ftl, options.trace_ftl_file);
    ssd.core().observers().add(ftl_trace_.get());
    ssd.core().explain_victims(ftl_trace_->explanations());
  }
}

TeachingViews::~TeachingViews() {
  if (timeline_) {
    ssd_.core().observers().remove_flash(timeline_.get());
    ssd_.core().observers().remove(timeline_.get());
  }
  if (ftl_trace_) {
    ssd_.core().explain_victims(nullptr);
    ssd_.core().observers().remove(ftl_trace_.get());
  }
}

void TeachingViews::finish() {
  if (finished_) return;
  finished_ = true;
  if (timeline_) timeline_->finish();
  if (ftl_trace_ && !trace_ftl_file_.empty()) {
    ftl_trace_->flush();  // a full disk is an error, not a log silently cut
    trace_file_.close();
    if (!trace_file_) throw write_failed(trace_ftl_file_, errno);
  }
}

void TeachingViews::commit(std::ostream& out) {
  finish();
  if (timeline_) {
    timeline_->publish();
    fmt::print(out, "  timeline:     {} ({} flash and host events; open in ui.perfetto.dev)\n",
               timeline_->path().string(), timeline_->events());
  }
  if (ftl_trace_) {
    std::cerr.flush();
    if (trace_temporary_) {
      trace_temporary_->publish("the FTL step log");
      fmt::print(out, "  FTL trace:    {} ({} decisions)\n", trace_ftl_file_, ftl_trace_->lines());
    }
  }
}

}  // namespace ssdlab::sim
