// The one list of the checkpoint records' keys (checkpoint_record.h), in
// summary_fields.h's form: fields(v, record) names every key and the member
// it holds, and summary_json.cpp's JsonWriter writes them (a checkpoint's
// info block, summary.json's "checkpoint" block, state-info's echo) and its
// JsonReader reads them back, checking each value's type.
//
// Every key that every ssdlab build has written since checkpoints exist is
// `required`: a checkpoint's info lacking one is corrupt (or forged), and a
// missing field read as a default would print and compare as if it were
// real. A group (v.group) is one writer's keys, present as a whole when its
// first key is. Keys not listed are ignored: the format version, not the
// info's keys, decides whether a state loads.
#pragma once

#include <type_traits>

#include "sim/results/checkpoint_record.h"

namespace ssdlab::sim {

template <typename V, typename R>
void fields(V& v, R& r) requires std::is_same_v<std::remove_const_t<R>, Provenance::Run> {
  v.required("config", r.config);
  v.required("sets", r.sets);
  v.required("loaded_from", r.loaded_from);  // null: none
  v.required("host_pages_written", r.host_pages_written);
}

template <typename V, typename R>
void fields(V& v, R& c) requires std::is_same_v<std::remove_const_t<R>, Provenance::Cache> {
  v.required("figures", c.figures);
  v.required("state_cache_key", c.state_cache_key);
}

template <typename V, typename R>
void fields(V& v, R& p) requires std::is_same_v<std::remove_const_t<R>, Provenance> {
  v.required("saved_after", p.saved_after);
  v.required("workload", p.workload);
  v.required("seed", p.seed);
  v.required("precondition", p.precondition);  // null: none
  v.required("simulated_us", p.simulated_us);
  v.group("config", p.run);
  v.group("figures", p.cache);
}

template <typename V, typename R>
void fields(V& v, R& i) requires std::is_same_v<std::remove_const_t<R>, CheckpointInfo> {
  v.required("ssdlab_version", i.ssdlab_version);
  v.required("format", i.format);
  v.required("config", i.config);  // an object (checkpoint_info_from_json)
  v.required("provenance", i.provenance);
}

// The info's keys and the file's, in one object.
template <typename V, typename R>
void fields(V& v, R& f) requires std::is_same_v<std::remove_const_t<R>, CheckpointFile> {
  fields(v, f.info);
  v.required("file", f.file);
  v.required("bytes", f.bytes);
}

template <typename V, typename R>
void fields(V& v, R& l) requires std::is_same_v<std::remove_const_t<R>, LoadedCheckpoint> {
  using File = std::conditional_t<std::is_const_v<R>, const CheckpointFile, CheckpointFile>;
  fields(v, static_cast<File&>(l));
  v.required("config_differs", l.config_differs);
  v.required("seconds", l.seconds);
}

// {"skipped"} alone, or where it was saved.
template <typename V, typename R>
void fields(V& v, R& s) requires std::is_same_v<std::remove_const_t<R>, SavedCheckpoint> {
  v.optional("skipped", s.skipped);
  if (s.skipped) return;
  v.required("file", s.file);
  v.required("bytes", s.bytes);
  v.required("seconds", s.seconds);
}

template <typename V, typename R>
void fields(V& v, R& c) requires std::is_same_v<std::remove_const_t<R>, CheckpointRecord> {
  v.optional("loaded", c.loaded);
  v.optional("saved", c.saved);
}

}  // namespace ssdlab::sim
