// summary.json's fields of a run of tenants and of --fairness
// (docs/tenants.md; summary_fields.h says how a fields() list is read).
#pragma once

#include "sim/results/summary.h"

namespace ssdlab::sim {

template <typename V, typename R>
void fields(V& v, R& c) requires std::is_same_v<std::remove_const_t<R>, ContendedRecord> {
  v("from_us", c.from_us);
  v("to_us", c.to_us);
  v("ios", c.ios);
  v("iops", c.iops);
  v("mean_us", c.mean_us);
  v("p99_us", c.p99_us);
  v.optional("slowdown_mean", c.slowdown_mean);
  v.optional("slowdown_p99", c.slowdown_p99);
}

template <typename V, typename R>
void fields(V& v, R& t) requires std::is_same_v<std::remove_const_t<R>, TenantRecord> {
  v("name", t.name);
  v("queue", t.queue);
  v("namespace", t.namespace_id);
  v("namespace_base", t.namespace_base);
  v("namespace_bytes", t.namespace_bytes);
  v("ios", t.ios);
  v("iops", t.iops);
  v("mean_us", t.mean_us);
  v("p99_us", t.p99_us);
  v("max_us", t.max_us);
  v("pages_moved_by_writes", t.pages_moved_by_writes);
  v.nonzero("trims", t.trims);
  v.nonzero("refused", t.refused);
  v.nonzero("zone_management", t.zone_management);
  v.optional("alone_mean_us", t.alone_mean_us);
  v.optional("alone_p99_us", t.alone_p99_us);
  v.optional("slowdown_mean", t.slowdown_mean);
  v.optional("slowdown_p99", t.slowdown_p99);
  v.optional("contended", t.contended);
}

template <typename V, typename R>
void fields(V& v, R& f) requires std::is_same_v<std::remove_const_t<R>, FairnessRecord> {
  v("index_mean", f.index_mean);
  v("index_p99", f.index_p99);
  v.optional("contended_index_mean", f.contended_index_mean);
  v.optional("contended_index_p99", f.contended_index_p99);
  v("dispatch_order", f.dispatch_order);
  v("arbitration", f.arbitration);
}

}  // namespace ssdlab::sim
