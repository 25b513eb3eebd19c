#include "sim/live/data_store.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace ssdlab::sim {
namespace {

class MemoryStore final : public DataStore {
 public:
  explicit MemoryStore(std::uint64_t bytes) : bytes_(bytes) {
    // MAP_NORESERVE: pages cost memory only once written.
    void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
      throw make_error("data=memory: cannot map {} bytes: {} (give data=sparse-file:PATH)", bytes,
                       std::strerror(errno));
    base_ = static_cast<unsigned char*>(base);
  }
  ~MemoryStore() override { ::munmap(base_, bytes_); }
  void read(void* buffer, std::uint32_t size, std::uint64_t offset) override {
    std::memcpy(buffer, base_ + offset, size);
  }
  void write(const void* buffer, std::uint32_t size, std::uint64_t offset) override {
    std::memcpy(base_ + offset, buffer, size);
  }
  void zero(std::uint32_t size, std::uint64_t offset) override {
    // Whole pages go back to the kernel (and read as zeros); the edges are cleared.
    const std::uint64_t page = 4096, end = offset + size;
    const std::uint64_t first = (offset + page - 1) / page * page, last = end / page * page;
    if (first >= last) return static_cast<void>(std::memset(base_ + offset, 0, size));
    std::memset(base_ + offset, 0, first - offset);
    ::madvise(base_ + first, last - first, MADV_DONTNEED);
    std::memset(base_ + last, 0, end - last);
  }
  std::string describe() const override { return "memory"; }

 private:
  unsigned char* base_ = nullptr;
  std::uint64_t bytes_;
};

class SparseFileStore final : public DataStore {
 public:
  SparseFileStore(std::string path, std::uint64_t bytes, bool allow_destroy)
      : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw make_error("data=sparse-file:{}: cannot open: {}", path_, std::strerror(errno));
    struct stat status {};
    if (::fstat(fd_, &status) != 0 || !S_ISREG(status.st_mode)) {
      ::close(fd_);
      throw make_error("data=sparse-file:{}: not a regular file", path_);
    }
    const auto size = static_cast<std::uint64_t>(status.st_size);
    if (size != 0 && size != bytes && !allow_destroy) {
      ::close(fd_);
      throw make_error(
          "data=sparse-file:{}: holds {} bytes and the device {}: a file the plugin did not make "
          "for this device (resizing it would {} {} bytes); give another file, or "
          "allow-destroy=true to resize it",
          path_, size, bytes, size > bytes ? "cut off its last" : "add",
          size > bytes ? size - bytes : bytes - size);
    }
    if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) {
      const int error = errno;
      ::close(fd_);
      throw make_error("data=sparse-file:{}: cannot size it to {} bytes: {}", path_, bytes,
                       std::strerror(error));
    }
  }
  ~SparseFileStore() override { ::close(fd_); }
  void read(void* buffer, std::uint32_t size, std::uint64_t offset) override {
    transfer(size, offset, [&](std::uint32_t done) {
      return ::pread(fd_, static_cast<char*>(buffer) + done, size - done, offset + done);
    });
  }
  void write(const void* buffer, std::uint32_t size, std::uint64_t offset) override {
    transfer(size, offset, [&](std::uint32_t done) {
      return ::pwrite(fd_, static_cast<const char*>(buffer) + done, size - done, offset + done);
    });
  }
  void zero(std::uint32_t size, std::uint64_t offset) override {
    if (::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                    size) != 0)
      throw make_error("data=sparse-file:{}: cannot punch a hole at {}: {}", path_, offset,
                       std::strerror(errno));
  }
  std::string describe() const override { return "sparse-file:" + path_; }

 private:
  template <class Step>
  void transfer(std::uint32_t size, std::uint64_t offset, Step step) {
    for (std::uint32_t done = 0; done < size;) {
      const ssize_t n = step(done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw make_error("data=sparse-file:{}: I/O of {} bytes at {} failed: {}", path_, size,
                         offset, n < 0 ? std::strerror(errno) : "end of file");
      done += static_cast<std::uint32_t>(n);
    }
  }
  std::string path_;
  int fd_ = -1;
};

class NoStore final : public DataStore {
 public:
  void read(void* buffer, std::uint32_t size, std::uint64_t) override {
    std::memset(buffer, 0, size);
  }
  void write(const void*, std::uint32_t, std::uint64_t) override {}
  void zero(std::uint32_t, std::uint64_t) override {}
  std::string describe() const override { return "none"; }
};

}  // namespace

std::unique_ptr<DataStore> make_data_store(const std::string& spec, std::uint64_t bytes,
                                           bool allow_destroy) {
  if (spec == "memory") return std::make_unique<MemoryStore>(bytes);
  if (spec == "none") return std::make_unique<NoStore>();
  constexpr std::string_view kFile = "sparse-file:";
  if (spec.starts_with(kFile) && spec.size() > kFile.size())
    return std::make_unique<SparseFileStore>(spec.substr(kFile.size()), bytes, allow_destroy);
  throw make_error("data={}: not a data store (memory, sparse-file:PATH or none)", spec);
}

}  // namespace ssdlab::sim
