// nbdkit-ssdlab-plugin.so: the simulated SSD as a Network Block Device
// (docs/live-device.md). nbdkit handles the protocol and the connections;
// every request is served by the LiveDevice (live_device.h), which holds
// its reply until the request's simulated completion.
//
//   nbdkit build/sim/nbdkit-ssdlab-plugin.so config=configs/tiny.toml io-log=out/live
//
// Thread model parallel: requests of one connection (fio at QD32) and of
// several connections are in flight together, as on a real device; the
// model serialises them itself on its one thread, in arrival order.
#define NBDKIT_API_VERSION 2
#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL
#include <nbdkit-plugin.h>

#include <cerrno>
#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "sim/live/live_device.h"
#include "sim/live/live_options.h"

namespace {

using ssdlab::sim::LiveDevice;

ssdlab::sim::LiveOptions options;
std::unique_ptr<LiveDevice> device;
// The model's sector: requests are widened to it for the model (the data
// store takes them as they are).
constexpr std::uint64_t kSector = 512;

struct Connection {
  std::uint32_t stream;
};

// Runs `body`, turning an exception into nbdkit's error and -1: logged
// through nbdkit, the errno of the reply a RequestError's (ENOSPC at the
// end of life), else EIO. Nothing a request does ends the server.
template <class Body>
int guarded(Body body) {
  try {
    body();
    return 0;
  } catch (const ssdlab::sim::RequestError& error) {
    nbdkit_error("%s", error.what());
    nbdkit_set_error(error.code());
    return -1;
  } catch (const std::exception& error) {
    nbdkit_error("%s", error.what());
    nbdkit_set_error(EIO);
    return -1;
  } catch (...) {
    nbdkit_error("ssdlab: an unknown exception");
    nbdkit_set_error(EIO);
    return -1;
  }
}

int config(const char* key, const char* value) {
  return guarded([&] { ssdlab::sim::set_live_key(options, key, value); });
}

int config_complete() {
  return guarded([] { ssdlab::sim::check_live_options(options); });
}

// After nbdkit forks into the background: the model thread must live in the
// serving process.
int after_fork() {
  return guarded([] {
    device = std::make_unique<LiveDevice>(options, std::cerr, [](const std::string& warning) {
      nbdkit_debug("%s", warning.c_str());
      std::cerr << "nbdkit: " << warning << '\n';
    });
  });
}

void cleanup() {
  if (!device) return;
  guarded([] { device->finish(); });
}

void unload() { device.reset(); }

void* open_connection(int /*readonly*/) {
  return new Connection{device->connect()};
}

void close_connection(void* handle) { delete static_cast<Connection*>(handle); }

int64_t get_size(void*) { return static_cast<int64_t>(device->bytes()); }

void serve(void* handle, ssdlab::IoMode mode, uint32_t count, uint64_t offset) {
  const std::uint64_t first = offset / kSector * kSector;
  const std::uint64_t end = (offset + count + kSector - 1) / kSector * kSector;
  device->serve(static_cast<Connection*>(handle)->stream, mode, first,
                static_cast<std::uint32_t>(end - first));
}

// Each request is admitted (refused at once after the end of life or a
// failure of the model), then served; a write's data goes to the store once
// the model has served it, so that a write that fails changes no data. (The
// reply leaves after both: a later request of the client sees the data.)
int pread(void* handle, void* buffer, uint32_t count, uint64_t offset, uint32_t) {
  return guarded([&] {
    device->admit(ssdlab::IoMode::kRead, offset, count);
    serve(handle, ssdlab::IoMode::kRead, count, offset);
    device->data().read(buffer, count, offset);
  });
}

int pwrite(void* handle, const void* buffer, uint32_t count, uint64_t offset, uint32_t) {
  return guarded([&] {
    device->admit(ssdlab::IoMode::kWrite, offset, count);
    serve(handle, ssdlab::IoMode::kWrite, count, offset);
    device->data().write(buffer, count, offset);
  });
}

// A write of zeros: the device writes them as any data.
int zero(void* handle, uint32_t count, uint64_t offset, uint32_t) {
  return guarded([&] {
    device->admit(ssdlab::IoMode::kWrite, offset, count);
    serve(handle, ssdlab::IoMode::kWrite, count, offset);
    device->data().zero(count, offset);
  });
}

int trim(void* handle, uint32_t count, uint64_t offset, uint32_t) {
  return guarded([&] {
    device->admit(ssdlab::IoMode::kTrim, offset, count);
    serve(handle, ssdlab::IoMode::kTrim, count, offset);
    device->data().zero(count, offset);
  });
}

int flush(void*, uint32_t) {
  return guarded([] { device->flush(); });
}

int yes(void*) { return 1; }

nbdkit_plugin make_plugin() {
  nbdkit_plugin plugin{};
  plugin.name = "ssdlab";
  plugin.longname = "ssdlab simulated SSD";
  plugin.description = "The ssdlab SSD model as a block device, replies at simulated times";
  plugin.version = SSDLAB_VERSION;
  plugin.config_help = ssdlab::sim::kLiveKeysHelp;
  plugin.config = config;
  plugin.config_complete = config_complete;
  plugin.after_fork = after_fork;
  plugin.cleanup = cleanup;
  plugin.unload = unload;
  plugin.open = open_connection;
  plugin.close = close_connection;
  plugin.get_size = get_size;
  plugin.pread = pread;
  plugin.pwrite = pwrite;
  plugin.zero = zero;
  plugin.trim = trim;
  plugin.flush = flush;
  plugin.can_write = yes;
  plugin.can_flush = yes;
  plugin.can_trim = yes;
  plugin.can_zero = yes;
  plugin.can_multi_conn = yes;
  return plugin;
}

nbdkit_plugin plugin = make_plugin();

}  // namespace

NBDKIT_REGISTER_PLUGIN(plugin)
