#include "ftl/register.h"

#include <algorithm>
#include <deque>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"

namespace ssdlab::ftl {
namespace {

// What was registered under each name, in registration order.
template <class Value>
class Registered {
 public:
  void add(const std::string& name, Value value) {
    names_.push_back(name);
    values_.push_back(std::move(value));
  }
  const Value* find(std::string_view name) const { return at(index_of(name)); }
  // The value registered `index`-th, or null.
  const Value* at(std::size_t index) const {
    return index < values_.size() ? &values_[index] : nullptr;
  }
  std::vector<std::string> names() const { return {names_.begin(), names_.end()}; }
  std::size_t size() const { return names_.size(); }
  // `name` as registered: its characters stay where they are for the run.
  const char* stored(std::string_view name) const {
    const std::size_t index = index_of(name);
    return index < names_.size() ? names_[index].c_str() : nullptr;
  }

 private:
  // Its place in registration order, or size() if none.
  std::size_t index_of(std::string_view name) const {
    return static_cast<std::size_t>(std::find(names_.begin(), names_.end(), name) - names_.begin());
  }

  std::deque<std::string> names_;  // (a deque: adding a name moves no other)
  std::vector<Value> values_;
};

// One table per kind of thing registered. A function-local static:
// registrations run during static initialisation of other files, whose order
// is unspecified.
template <class Value>
Registered<Value>& registered() {
  static Registered<Value> table;
  return table;
}

struct RegisteredFtl {
  FtlFactory factory;
  FtlKeyHooks keys;
};

// The registered value of `name`, or a null one.
template <class Value>
Value find_value(std::string_view name) {
  const Value* found = registered<Value>().find(name);
  return found ? *found : Value{};
}

}  // namespace

void register_ftl(const std::string& name, FtlFactory factory, const FtlKeyHooks& keys) {
  if (name.empty() || factory == nullptr)
    throw make_error("register_ftl: an FTL needs a name and a factory");
  const auto known = ftl_names();
  if (std::find(known.begin(), known.end(), name) != known.end())
    throw make_error("register_ftl: an FTL named '{}' exists already", name);
  registered<RegisteredFtl>().add(name, {factory, keys});
}

FtlFactory find_registered_ftl(const std::string& name) {
  const RegisteredFtl* found = registered<RegisteredFtl>().find(name);
  return found ? found->factory : nullptr;
}

const FtlKeyHooks* find_registered_ftl_keys(const std::string& name) {
  const RegisteredFtl* found = registered<RegisteredFtl>().find(name);
  return found ? &found->keys : nullptr;
}

std::vector<std::string> registered_ftl_names() {
  return registered<RegisteredFtl>().names();
}

void register_victim_policy(const std::string& name, VictimPolicyFactory factory) {
  if (name.empty() || factory == nullptr)
    throw make_error("register_victim_policy: a victim policy needs a name and a factory");
  VictimPolicyConfig taken;
  if (parse_victim_policy(name, taken))
    throw make_error("register_victim_policy: a victim policy named '{}' exists already", name);
  registered<VictimPolicyFactory>().add(name, factory);
}

VictimPolicyFactory find_registered_victim_policy(std::string_view name) {
  return find_value<VictimPolicyFactory>(name);
}

const char* registered_victim_policy_name(std::string_view name) {
  return registered<VictimPolicyFactory>().stored(name);
}

std::vector<std::string> registered_victim_policy_names() {
  return registered<VictimPolicyFactory>().names();
}

void register_slc_fold_order(const std::string& name, SlcFoldKey key) {
  if (name.empty() || key == nullptr)
    throw make_error("register_slc_fold_order: a fold order needs a name and a key");
  SlcCacheConfig taken;
  if (parse_slc_fold_order(name, taken))
    throw make_error("register_slc_fold_order: a fold order named '{}' exists already", name);
  // (A config names it by its place in registration order, in a byte.)
  if (registered<SlcFoldKey>().size() == 256)
    throw make_error("register_slc_fold_order: at most 256 fold orders may be registered");
  registered<SlcFoldKey>().add(name, key);
}

SlcFoldKey find_registered_slc_fold_order(std::string_view name) {
  return find_value<SlcFoldKey>(name);
}

SlcFoldKey registered_slc_fold_key(std::size_t index) {
  const SlcFoldKey* key = registered<SlcFoldKey>().at(index);
  return key ? *key : nullptr;
}

std::vector<std::string> registered_slc_fold_order_names() {
  return registered<SlcFoldKey>().names();
}

}  // namespace ssdlab::ftl
