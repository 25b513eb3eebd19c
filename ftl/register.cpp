#include "ftl/register.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"

namespace ssdlab::ftl {
namespace {

struct Registered {
  std::vector<std::string> names;
  std::vector<FtlFactory> factories;
  std::vector<FtlKeyHooks> keys;
};

// A function-local static: registrations run during static initialisation
// of other files, whose order is unspecified.
Registered& registered() {
  static Registered table;
  return table;
}

}  // namespace

void register_ftl(const std::string& name, FtlFactory factory, const FtlKeyHooks& keys) {
  if (name.empty() || factory == nullptr)
    throw make_error("register_ftl: an FTL needs a name and a factory");
  const auto known = ftl_names();
  if (std::find(known.begin(), known.end(), name) != known.end())
    throw make_error("register_ftl: an FTL named '{}' exists already", name);
  registered().names.push_back(name);
  registered().factories.push_back(factory);
  registered().keys.push_back(keys);
}

FtlFactory find_registered_ftl(const std::string& name) {
  const auto& table = registered();
  for (std::size_t i = 0; i < table.names.size(); ++i)
    if (table.names[i] == name) return table.factories[i];
  return nullptr;
}

const FtlKeyHooks* find_registered_ftl_keys(const std::string& name) {
  const auto& table = registered();
  for (std::size_t i = 0; i < table.names.size(); ++i)
    if (table.names[i] == name) return &table.keys[i];
  return nullptr;
}

const std::vector<std::string>& registered_ftl_names() { return registered().names; }

namespace {

struct RegisteredPolicies {
  std::vector<std::string> names;
  std::vector<VictimPolicyFactory> factories;
};

RegisteredPolicies& registered_policies() {
  static RegisteredPolicies table;
  return table;
}

}  // namespace

void register_victim_policy(const std::string& name, VictimPolicyFactory factory) {
  if (name.empty() || factory == nullptr)
    throw make_error("register_victim_policy: a victim policy needs a name and a factory");
  VictimPolicyConfig taken;
  if (parse_victim_policy(name, taken))
    throw make_error("register_victim_policy: a victim policy named '{}' exists already", name);
  registered_policies().names.push_back(name);
  registered_policies().factories.push_back(factory);
}

VictimPolicyFactory find_registered_victim_policy(std::string_view name) {
  const auto& table = registered_policies();
  for (std::size_t i = 0; i < table.names.size(); ++i)
    if (table.names[i] == name) return table.factories[i];
  return nullptr;
}

const std::vector<std::string>& registered_victim_policy_names() {
  return registered_policies().names;
}

namespace {

struct RegisteredFoldOrders {
  std::vector<std::string> names;
  std::vector<SlcFoldKey> keys;
};

RegisteredFoldOrders& registered_fold_orders() {
  static RegisteredFoldOrders table;
  return table;
}

}  // namespace

void register_slc_fold_order(const std::string& name, SlcFoldKey key) {
  if (name.empty() || key == nullptr)
    throw make_error("register_slc_fold_order: a fold order needs a name and a key");
  SlcCacheConfig taken;
  if (parse_slc_fold_order(name, taken))
    throw make_error("register_slc_fold_order: a fold order named '{}' exists already", name);
  registered_fold_orders().names.push_back(name);
  registered_fold_orders().keys.push_back(key);
}

SlcFoldKey find_registered_slc_fold_order(std::string_view name) {
  const auto& table = registered_fold_orders();
  for (std::size_t i = 0; i < table.names.size(); ++i)
    if (table.names[i] == name) return table.keys[i];
  return nullptr;
}

const std::vector<std::string>& registered_slc_fold_order_names() {
  return registered_fold_orders().names;
}

}  // namespace ssdlab::ftl
