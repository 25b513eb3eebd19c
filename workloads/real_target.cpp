#include "workloads/real_target.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "common/error.h"
#include "common/rng.h"
#include "common/units.h"

namespace ssdlab::workloads {
namespace {

std::string reason(int error) {
  return std::strerror(error);
}

// O_DIRECT's alignment for a file: what the filesystem reports (statx
// STATX_DIOALIGN, Linux 6.1), else the usual 512-byte logical block.
std::uint32_t direct_alignment(int fd) {
#if defined(STATX_DIOALIGN)
  struct statx info {};
  if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &info) == 0 &&
      (info.stx_mask & STATX_DIOALIGN) && info.stx_dio_offset_align > 0)
    return std::max<std::uint32_t>(512, info.stx_dio_offset_align);
#else
  (void)fd;
#endif
  return 512;
}

// Whether `path` carries kCreatedMark (a file probe --size created).
bool has_created_mark(const std::string& path) {
  char value[64];
  return ::getxattr(path.c_str(), kCreatedMark, value, sizeof value) > 0;
}

}  // namespace

AlignedBuffer::AlignedBuffer(std::size_t size) : size_(size) {
  const std::size_t rounded = (size + RealTarget::kBufferAlignment - 1) /
                              RealTarget::kBufferAlignment * RealTarget::kBufferAlignment;
  data_ = static_cast<unsigned char*>(std::aligned_alloc(RealTarget::kBufferAlignment, rounded));
  if (!data_) throw std::bad_alloc();
}

AlignedBuffer::~AlignedBuffer() {
  std::free(data_);
}

RealTarget::RealTarget(const TargetOptions& options)
    : path_(options.path), direct_(!options.buffered) {
  if (path_.empty()) throw make_error("--target: empty path");
  struct stat info {};
  const bool exists = ::stat(path_.c_str(), &info) == 0;
  if (!exists && errno != ENOENT) throw make_error("{}: {}", path_, reason(errno));
  block_device_ = exists && S_ISBLK(info.st_mode);
  if (exists && !block_device_ && !S_ISREG(info.st_mode))
    throw make_error("{}: not a regular file or block device", path_);
  if (!exists && options.create_bytes == 0)
    throw make_error("{}: no such file; give --size to create it", path_);
  if (exists && !block_device_ && options.create_bytes &&
      static_cast<std::uint64_t>(info.st_size) != options.create_bytes)
    throw make_error("{}: exists with {} bytes, but --size asks for {}", path_, info.st_size,
                     options.create_bytes);

  writable_ = options.allow_destroy || !exists || (!block_device_ && has_created_mark(path_));
  int flags = (writable_ ? O_RDWR : O_RDONLY) | O_CLOEXEC | (direct_ ? O_DIRECT : 0);
  if (!exists) flags |= O_CREAT | O_EXCL;
  fd_ = ::open(path_.c_str(), flags, 0644);
  if (fd_ < 0 && exists && writable_ && (errno == EROFS || errno == EACCES || errno == EPERM)) {
    // A file that may only be read (a read-only filesystem): enough for a
    // workload that only reads; require_writable() refuses the others.
    read_only_reason_ = reason(errno);
    writable_ = false;
    fd_ = ::open(path_.c_str(), (flags & ~O_RDWR) | O_RDONLY, 0644);
  }
  if (fd_ < 0) {
    const int error = errno;
    if (error == EINVAL && direct_)
      throw make_error(
          "{}: the filesystem does not support O_DIRECT (tmpfs?); put the target on a disk, or "
          "give --buffered to measure through the page cache",
          path_);
    if (error == EACCES || error == EPERM)
      throw make_error("{}: {} (probe needs {} access)", path_, reason(error),
                       writable_ ? "read-write" : "read");
    throw make_error("{}: {}", path_, reason(error));
  }
  if (block_device_) {
    std::uint64_t size = 0;
    int sector = 0;
    if (ioctl(fd_, BLKGETSIZE64, &size) != 0 || ioctl(fd_, BLKSSZGET, &sector) != 0)
      throw make_error("{}: cannot read the device's size: {}", path_, reason(errno));
    bytes_ = size;
    sector_size_ = static_cast<std::uint32_t>(std::max(sector, 512));
  } else {
    sector_size_ = direct_ ? direct_alignment(fd_) : 512;
    bytes_ = exists ? static_cast<std::uint64_t>(info.st_size) : options.create_bytes;
  }
  if (!exists) {
    created_ = true;
    if (bytes_ % (1 << 20) != 0) {
      ::unlink(path_.c_str());
      throw make_error("{}: --size {} is not a whole number of MiB", path_, bytes_);
    }
    // Written, not sparse: reads of holes would not touch the device.
    AlignedBuffer chunk(1 << 20);
    Rng rng(0xf111);
    for (std::size_t i = 0; i < chunk.size(); ++i)
      chunk.data()[i] = static_cast<unsigned char>(rng.next());
    try {
      for (std::uint64_t offset = 0; offset < bytes_; offset += chunk.size())
        write(offset, chunk.data(), static_cast<std::uint32_t>(chunk.size()));
      if (::fsync(fd_) != 0) throw make_error("{}: fsync: {}", path_, reason(errno));
      // Not fatal: without the mark, a rerun asks for --allow-destroy.
      static constexpr char kMarkValue[] = "created by ssdlab probe --size";
      ::fsetxattr(fd_, kCreatedMark, kMarkValue, sizeof kMarkValue - 1, 0);
    } catch (...) {
      ::unlink(path_.c_str());
      throw;
    }
  }
  if (bytes_ == 0) throw make_error("{}: empty target", path_);
}

RealTarget::~RealTarget() {
  if (fd_ >= 0) ::close(fd_);
}

void RealTarget::require_writable(const std::string& why) const {
  if (writable_) return;
  if (!read_only_reason_.empty())
    throw make_error("{}: {} would write to it, but it opens only for reading ({})", path_, why,
                     read_only_reason_);
  if (block_device_)
    throw make_error(
        "{}: is a block device and {} would overwrite its data; give --allow-destroy if that is "
        "what you want",
        path_, why);
  throw make_error(
      "{}: was not created by ssdlab probe --size; give --allow-destroy if {} may overwrite its "
      "data",
      path_, why);
}

void RealTarget::read(std::uint64_t offset, void* buffer, std::uint32_t size) const {
  const ssize_t done = ::pread(fd_, buffer, size, static_cast<off_t>(offset));
  if (done == static_cast<ssize_t>(size)) return;
  if (done < 0)
    throw make_error("{}: read of {} bytes at {}: {}", path_, size, offset, reason(errno));
  throw make_error("{}: read of {} bytes at {}: only {} bytes", path_, size, offset, done);
}

void RealTarget::write(std::uint64_t offset, const void* buffer, std::uint32_t size) const {
  const ssize_t done = ::pwrite(fd_, buffer, size, static_cast<off_t>(offset));
  if (done == static_cast<ssize_t>(size)) return;
  if (done < 0)
    throw make_error("{}: write of {} bytes at {}: {}", path_, size, offset, reason(errno));
  throw make_error("{}: write of {} bytes at {}: only {} bytes", path_, size, offset, done);
}

void RealTarget::trim(std::uint64_t offset, std::uint32_t size) const {
  int result = 0;
  if (block_device_) {
    const std::uint64_t range[2] = {offset, size};
    result = ::ioctl(fd_, BLKDISCARD, range);
  } else {
    result = ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                         static_cast<off_t>(offset), static_cast<off_t>(size));
  }
  if (result != 0)
    throw make_error("{}: trim of {} bytes at {}: {}", path_, size, offset, reason(errno));
}

}  // namespace ssdlab::workloads
