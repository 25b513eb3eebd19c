// Device configuration: a TOML preset (configs/*.toml) plus --set overrides.
//
// Every key is validated; an unknown key or a value out of range is one error
// line "file:line: table.key: what is wrong (allowed range)".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/typed_values.h"
#include "flash/geometry.h"
#include "flash/nand_power.h"
#include "flash/scheduler.h"
#include "flash/suspend.h"
#include "flash/timing.h"
#include "ftl/ftl.h"
#include "sim/config/controller_limits_config.h"
#include "sim/config/host_link_config.h"
#include "sim/config/host_log_config.h"
#include "sim/config/read_errors_config.h"

namespace ssdlab::sim {

// The controller between host and flash (Agrawal et al. §3.3, Figure 3): the
// host queue, the DRAM write buffer and how background cleaning yields to the
// host. The defaults switch everything off: the device behaves as without a
// controller model (every request dispatched on arrival, no buffer).
enum class Scheduling : std::uint8_t { kFifo, kReadsFirst };
const char* scheduling_name(Scheduling scheduling);

// NVMe submission queues and their arbitration (sim/controller/host_queue.h;
// NVMe Base Specification 2.0, §3.4.4 "Command Arbitration" and the
// Arbitration feature, FID 01h). Without `queues`, the host has one queue,
// as before.
enum class Arbitration : std::uint8_t { kRoundRobin, kWeighted };
const char* arbitration_name(Arbitration arbitration);
// Weighted round robin's classes: urgent is served first (strict priority),
// high, medium and low share what is left by their weights.
enum class QueuePriority : std::uint8_t { kUrgent, kHigh, kMedium, kLow };
const char* queue_priority_name(QueuePriority priority);
struct SubmissionQueueConfig {
  // Commands of this queue outstanding at once (in the queue or in the
  // device), as a blk-mq hardware queue's tags bound them; more wait at the
  // host. 0: no bound of its own.
  std::uint32_t depth = 0;
  QueuePriority priority = QueuePriority::kMedium;  // weighted arbitration only
  bool operator==(const SubmissionQueueConfig&) const = default;
};
struct HostQueuesConfig {
  std::vector<SubmissionQueueConfig> queues;  // empty: one queue without a bound
  Arbitration arbitration = Arbitration::kRoundRobin;
  std::uint32_t burst = 1;  // commands a queue gives per turn (Arbitration Burst)
  // Weighted: commands per round of the high, medium and low classes.
  std::uint32_t weight_high = 4, weight_medium = 2, weight_low = 1;
  bool several() const { return queues.size() > 1; }
};

// A namespace: a logical range of its own (NVMe namespaces; [[namespace]]).
// Namespaces lie one after the other from logical byte 0; `overprovisioning`
// leaves a share of the namespace's size unexported behind it, which the
// FTL's spare (shared by all namespaces) gains.
struct NamespaceConfig {
  std::uint64_t size = 0;  // bytes, whole logical pages
  double overprovisioning = 0;
  bool operator==(const NamespaceConfig&) const = default;
};

struct ControllerConfig {
  // Requests the device accepts at once (NCQ depth; with several submission
  // queues, the controller's command slots, filled by arbitration); more
  // wait in the host queues. 0: unlimited (every request dispatched on
  // arrival).
  std::uint32_t queue_depth = 0;
  Scheduling scheduling = Scheduling::kFifo;  // which waiting request of a queue goes next
  HostQueuesConfig host_queues;
  std::uint64_t write_buffer_bytes = 0;       // DRAM write buffer; 0: off
  bool write_through = false;                 // else write-back
  // Write-back: flushing starts when dirty data exceeds `flush_high_water`
  // of the buffer (1: only when a write does not fit) and takes the oldest
  // pages down to `flush_low_water`.
  double flush_high_water = 1.0;
  double flush_low_water = 0.5;
  // Host <-> DRAM transfer of a buffered write or a read hit; default
  // 300 MB/s, a SATA 3 Gb/s link (the paper gives no host interface speed).
  std::int64_t buffer_ps_per_byte = 3333;
  // Power-loss runs (--power-cut-at): a capacitor holds the device up after a
  // cut until the buffer's pages, and every flash command already started,
  // are on flash; false: the buffer's acknowledged writes are lost.
  bool buffer_power_protected = false;
  // Background cleaning yields to host requests between page moves and
  // erases; false: a round runs to completion once started.
  bool preempt_background_cleaning = false;
  // Which queued command a die takes next (flash/scheduler.h): the oldest,
  // or by class (host reads, host writes, cleaning).
  flash::DispatchOrder dispatch_order;
  // With ftl.cleaning_blocks_writes: which part of a write waits for the
  // cleaning it triggers: the part on the packages that clean (Agrawal §4.1),
  // or the whole request.
  flash::HostWait cleaning_wait = flash::HostWait::kPackage;
  // The PCIe link to the host ([host.link]; off by default) and the
  // controller's firmware time per command before it reaches the flash
  // (host.firmware_us; 0 by default). host_link_config.h.
  HostLinkConfig link;
  // The host's log-structured layer over a zoned device ([host.log]; off by
  // default). host_log_config.h, sim/controller/host_log.h.
  HostLogConfig host_log;
  TimeNs firmware_ns = 0;
  // The firmware's cores ([controller.firmware]) and the data path
  // ([controller.data_path]); both off by default. controller_limits_config.h.
  FirmwareCoresConfig firmware;
  DataPathConfig data_path;
  ThermalConfig thermal;  // [controller.thermal]; off by default
};

struct DeviceConfig {
  std::string source;  // the file it came from
  std::string name;    // [device] name
  flash::Geometry geometry;
  flash::Timing timing;
  flash::SuspendTiming suspend;  // timing.suspend, suspend_us, resume_us, suspend_limit
  ftl::FtlConfig ftl;
  ControllerConfig controller;
  std::vector<NamespaceConfig> namespaces;  // empty: the whole logical space, as one
  std::uint32_t sector_size = 512;  // host sector: offsets and sizes are multiples of it
  ReadErrorsConfig errors;  // [errors]: flash read errors, off by default
  flash::NandPower power;   // [power]: the NAND's currents (flash/nand_power.h)
  // A registered part's own keys, by their type (a ConfigPart's read hook
  // stores them; sim/config/config_part.h): none but a registered part's.
  TypedValues parts;
};

// Loads and validates `path`, applying each "table.key=value" override first
// (the value is TOML: numbers, true/false, "strings", [arrays]).
DeviceConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});

// The config that to_json() echoed (as summary.json and checkpoints hold
// it), loaded and validated again; `origin` names it in errors.
DeviceConfig config_from_json(const nlohmann::json& json, const std::string& origin);

// The config as JSON (echoed into summary.json).
nlohmann::json to_json(const DeviceConfig& config);

struct SpareCapacity;  // sim/config/capacity.h

// Human-readable derived geometry: capacity (with the spare it leaves in
// fact), pages, blocks, pools, latencies.
std::string describe(const DeviceConfig& config, const SpareCapacity& spare);

}  // namespace ssdlab::sim
