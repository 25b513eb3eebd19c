// A real file or block device to run workloads against (`ssdlab probe`):
// opened with O_DIRECT so that the page cache stays out of the measurement,
// read and written at offsets the plan chose, with buffers aligned as O_DIRECT
// requires.
#pragma once

#include <cstdint>
#include <string>

#include "workloads/device_runner.h"

namespace ssdlab::workloads {

struct TargetOptions {
  std::string path;
  std::uint64_t create_bytes = 0;  // create a missing FILE of this size (0: it must exist)
  // Writing destroys the data of a block device, or of an existing file that
  // probe did not create (kCreatedMark): allowed only with this.
  bool allow_destroy = false;
  bool buffered = false;           // without O_DIRECT (filesystems that lack it)
};

// The extended attribute that marks a file as created by probe --size, set
// once the file is filled: such a file may be written again without
// --allow-destroy. Any other existing file holds data that is not probe's
// (a config, a user's image): it is opened read-only unless allow_destroy.
// A filesystem without user extended attributes cannot hold the mark; a
// rerun there needs --allow-destroy.
inline constexpr const char* kCreatedMark = "user.ssdlab.probe-target";

class RealTarget final : public IoTarget {
 public:
  // Opens (or creates, fills and marks) the target; throws ssdlab::Error
  // naming the path and what is wrong. A block device, or an existing file
  // without kCreatedMark, opens read-only unless allow_destroy, and so does
  // an existing file that the OS lets only be read (a read-only
  // filesystem); require_writable() then refuses writes clearly.
  explicit RealTarget(const TargetOptions& options);
  ~RealTarget();
  RealTarget(const RealTarget&) = delete;
  RealTarget& operator=(const RealTarget&) = delete;

  const std::string& path() const { return path_; }
  std::uint64_t bytes() const override { return bytes_; }
  // Offsets and sizes must be multiples of this (O_DIRECT's alignment).
  std::uint32_t sector_size() const { return sector_size_; }
  bool block_device() const { return block_device_; }
  bool direct() const { return direct_; }
  bool created() const { return created_; }

  // Throws unless writes are allowed (files probe created and the OS lets
  // be written, or anything with allow_destroy that the OS lets be written).
  void require_writable(const std::string& why) const;

  // Whole-buffer I/O; `buffer` aligned to kBufferAlignment. Throw
  // ssdlab::Error with the offset, size and the system's reason.
  void read(std::uint64_t offset, void* buffer, std::uint32_t size) const override;
  void write(std::uint64_t offset, const void* buffer, std::uint32_t size) const override;
  // Trims (discards) the range: BLKDISCARD on a block device, a punched hole
  // (the size kept) in a file. Throws ssdlab::Error naming the target if the
  // device or the filesystem cannot.
  void trim(std::uint64_t offset, std::uint32_t size) const override;

  static constexpr std::size_t kBufferAlignment = 4096;

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t bytes_ = 0;
  std::uint32_t sector_size_ = 512;
  bool block_device_ = false;
  bool writable_ = false;
  std::string read_only_reason_;  // why a file opened read-only ("Read-only file system")
  bool direct_ = true;
  bool created_ = false;
};

// An aligned buffer for O_DIRECT I/O.
class AlignedBuffer {
 public:
  explicit AlignedBuffer(std::size_t size);
  ~AlignedBuffer();
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  AlignedBuffer(AlignedBuffer&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
  }
  unsigned char* data() { return data_; }
  std::size_t size() const { return size_; }

 private:
  unsigned char* data_;
  std::size_t size_;
};

}  // namespace ssdlab::workloads
