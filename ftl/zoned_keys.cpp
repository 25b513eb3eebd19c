// The zoned FTL's own [ftl] keys (zoned.h): read and checked, echoed, and
// described for `ssdlab config`; its factory and registry hooks.
#include <fmt/format.h>

#include <iterator>

#include "common/toml_keys.h"
#include "common/units.h"
#include "ftl/zoned.h"

namespace ssdlab::ftl {
namespace {

// The reference's rows (ftl_keys.h) of its keys (docs/zns.md).
constexpr KeyDoc kZonedKeys[] = {
    {"zone_width",
     "dies a zone stripes over, dividing the dies, 0 to the device's dies; 0, the default: "
     "every die ([Zoned namespaces](../zns.md))"},
    {"zone_size",
     "bytes, whole block rows over its dies, 0 to 2^50; 0, the default: one block on each "
     "plane of its dies"},
    {"zone_capacity",
     "writable bytes, whole pages, at most the zone size; 0, the default: the zone size"},
    {"max_open_zones",
     "zones open at once, 0 to 2^24; 0, the default: no limit; at most `max_active_zones`"},
    {"max_active_zones", "zones open or closed at once, 0 to 2^24; 0, the default: no limit"},
    {"zone_finish",
     "`mark`, the default: the zone is full, no flash; `pad`: the rest of its capacity "
     "programmed with filler (a zone never written: none), as a ZN540 pays it, see "
     "[Finish](../zns.md#finish)"},
    {"zone_command_us",
     "0.001 to 10^6; default 1: a command that touches no flash, or a refusal; no datasheet "
     "gives the figure"},
    {"zrwa_size",
     "bytes of a zone random write area, whole pages, at most half the zone capacity; 0, the "
     "default: none; a zone opened explicitly gets one ([The zone random write "
     "area](../zns.md#the-zone-random-write-area))"},
    {"zrwa_flush_granularity", "bytes, whole pages dividing `zrwa_size`; 0, the default: one page"},
    {"max_zrwa_zones", "ZRWAs at once (NUMZRWA), 0 to 2^24; 0, the default: no limit"},
};

bool parse_zone_finish(const std::string& name, ZoneFinish& out) {
  if (name == "mark") out = ZoneFinish::kMark;
  else if (name == "pad") out = ZoneFinish::kPad;
  else return false;
  return true;
}
const char* zone_finish_name(ZoneFinish finish) {
  return finish == ZoneFinish::kPad ? "pad" : "mark";
}

std::uint64_t row_bytes(const flash::Geometry& g, std::uint32_t width) {
  return std::uint64_t{g.pages_per_block} * g.page_size * width * g.planes_per_die;
}

// An [ftl] size key of whole `page`-byte pages, 0 to `most`.
void read_whole_pages(KeyReader& r, const char* key, std::uint64_t& value, std::uint64_t most,
                      std::uint32_t page) {
  r.size("ftl", key, value, 0, most);
  if (const auto [node, dotted] = r.find("ftl", key); node && value % page)
    r.fail(dotted, node, fmt::format("{} is not a whole number of {}-byte pages", value, page));
}

void read_zoned_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& config) {
  ZonedKeys& keys = config.keys.emplace<ZonedKeys>();
  // 0 for zone_width, zone_size and zone_capacity is their default (every
  // die, one block row, the zone size), as the config echo writes it: a
  // checkpoint's or summary's echo reads back (issue 51, M3).
  r.integer("ftl", "zone_width", keys.zone_width, 0, g.dies());
  if (const auto [node, dotted] = r.find("ftl", "zone_width");
      node && keys.zone_width && g.dies() % keys.zone_width)
    r.fail(dotted, node, fmt::format("{} does not divide the device's {} dies", keys.zone_width,
                                     g.dies()));
  const std::uint32_t width = keys.zone_width ? keys.zone_width : g.dies();
  const std::uint64_t row = row_bytes(g, width);
  r.size("ftl", "zone_size", keys.zone_size, 0, std::uint64_t{1} << 50);
  if (const auto [node, dotted] = r.find("ftl", "zone_size"); node && keys.zone_size % row)
    r.fail(dotted, node,
           fmt::format("{} is not a whole number of block rows: a zone {} dies wide takes one "
                       "block of each of its {} planes at a time ({})",
                       format_size(keys.zone_size), width, width * g.planes_per_die,
                       format_size(row)));
  const std::uint64_t size = keys.zone_size ? keys.zone_size : row;
  read_whole_pages(r, "zone_capacity", keys.zone_capacity, size, g.page_size);
  r.integer("ftl", "max_open_zones", keys.max_open_zones, 0, 1 << 24);
  r.integer("ftl", "max_active_zones", keys.max_active_zones, 0, 1 << 24);
  if (keys.max_active_zones && keys.max_open_zones > keys.max_active_zones) {
    const auto [node, dotted] = r.find("ftl", "max_open_zones");
    r.fail(dotted, node, fmt::format("{} is more than max_active_zones ({}): an open zone is active",
                                     keys.max_open_zones, keys.max_active_zones));
  }
  r.real("ftl", "zone_command_us", keys.command_us, 0.001, 1e6);
  r.named("ftl", "zone_finish", keys.finish, zone_finish_name(keys.finish), parse_zone_finish,
          "a finish (allowed: mark, pad)");
  const std::uint64_t capacity = keys.zone_capacity ? keys.zone_capacity : size;
  read_whole_pages(r, "zrwa_size", keys.zrwa_size, capacity / 2, g.page_size);
  r.size("ftl", "zrwa_flush_granularity", keys.zrwa_flush_granularity, 0, keys.zrwa_size);
  if (const auto [node, dotted] = r.find("ftl", "zrwa_flush_granularity");
      node && (keys.zrwa_flush_granularity % g.page_size ||
               (keys.zrwa_flush_granularity && keys.zrwa_size % keys.zrwa_flush_granularity)))
    r.fail(dotted, node,
           fmt::format("{} must be whole {}-byte pages dividing zrwa_size ({})",
                       keys.zrwa_flush_granularity, g.page_size, keys.zrwa_size));
  r.integer("ftl", "max_zrwa_zones", keys.max_zrwa_zones, 0, 1 << 24);
}

void echo_zoned_keys(const FtlConfig& config, nlohmann::json& ftl_table) {
  const ZonedKeys& keys = config.keys.get<ZonedKeys>();
  ftl_table["zone_width"] = keys.zone_width;
  ftl_table["zone_size"] = keys.zone_size;
  ftl_table["zone_capacity"] = keys.zone_capacity;
  ftl_table["max_open_zones"] = keys.max_open_zones;
  ftl_table["max_active_zones"] = keys.max_active_zones;
  ftl_table["zone_finish"] = zone_finish_name(keys.finish);
  ftl_table["zone_command_us"] = keys.command_us;
  ftl_table["zrwa_size"] = keys.zrwa_size;
  ftl_table["zrwa_flush_granularity"] = keys.zrwa_flush_granularity;
  ftl_table["max_zrwa_zones"] = keys.max_zrwa_zones;
}

void describe_zoned(const FtlDescription& d, std::string& out) {
  const ZonedKeys& keys = d.config.keys.get<ZonedKeys>();
  const flash::Geometry& g = d.geometry;
  const std::uint32_t width = keys.zone_width ? keys.zone_width : g.dies();
  const std::uint64_t size = keys.zone_size ? keys.zone_size : row_bytes(g, width);
  const std::uint64_t capacity = keys.zone_capacity ? keys.zone_capacity : size;
  const auto limit = [](std::uint32_t n) { return n ? fmt::format("{}", n) : std::string("no"); };
  auto it = std::back_inserter(out);
  fmt::format_to(it, "  zones       {} zones of {} (capacity {}), {} dies wide\n",
                 d.logical_pages * g.page_size / size, format_size(size), format_size(capacity),
                 width);
  fmt::format_to(it, "  limits      {} open, {} active zones; finish {}\n",
                 limit(keys.max_open_zones), limit(keys.max_active_zones),
                 zone_finish_name(keys.finish));
  fmt::format_to(it, "  spare       {:.1f}% of each plane's blocks replace worn ones\n",
                 100.0 * d.config.overprovisioning);
  if (keys.zrwa_size)
    fmt::format_to(
        it, "  ZRWA        {} per explicitly opened zone, flushed in {}, {} at once\n",
        format_size(keys.zrwa_size),
        format_size(keys.zrwa_flush_granularity ? keys.zrwa_flush_granularity : g.page_size),
        limit(keys.max_zrwa_zones));
}

}  // namespace

std::unique_ptr<Ftl> make_zoned_ftl(const FtlContext& context) {
  return std::make_unique<ZonedFtl>(context);
}

extern const FtlKeyHooks zoned_ftl_keys{&read_zoned_keys, &echo_zoned_keys, &describe_zoned,
                                        /*parts=*/{}, kZonedKeys};

}  // namespace ssdlab::ftl
