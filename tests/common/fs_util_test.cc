// Reading files a user names: regular files within their limit are read; FIFOs, devices, folders, /proc
// files and files over the limit are refused with a typed error, without being read and without blocking.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <future>

#include "src/common/error.h"
#include "src/common/fs_util.h"
#include "src/common/toml_file.h"

namespace eok {
namespace {

namespace fs = std::filesystem;

class ReadRegularFile : public ::testing::Test {
 protected:
  ReadRegularFile() : dir_(fs::temp_directory_path(), "eok-fs-util-test-") {}
  fs::path write(const std::string& name, const std::string& text) {
    const fs::path p = dir_.path() / name;
    write_file_atomic(p, text);
    return p;
  }
  // The message of the ConfigError that reading `path` throws ("" and a test failure when none is thrown).
  static std::string refusal(const fs::path& path, uintmax_t max_bytes = kKernelSourceMaxBytes) {
    try {
      read_regular_file(path, max_bytes, "kernel source");
    } catch (const ConfigError& e) {
      return e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "expected a ConfigError for " << path << ", got: " << e.what();
      return "";
    }
    ADD_FAILURE() << path << " was read";
    return "";
  }

  TempDir dir_;
};

TEST_F(ReadRegularFile, ReadsARegularFileAndALinkToOne) {
  const fs::path p = write("k.c", "void k(void) {}\n");
  EXPECT_EQ(read_regular_file(p, kKernelSourceMaxBytes, "kernel source"), "void k(void) {}\n");
  fs::create_symlink(p, dir_.path() / "link.c");
  EXPECT_EQ(read_regular_file(dir_.path() / "link.c", kKernelSourceMaxBytes, "kernel source"), "void k(void) {}\n");
  EXPECT_EQ(read_regular_file(write("empty.c", ""), kKernelSourceMaxBytes, "kernel source"), "");
}

TEST_F(ReadRegularFile, AFileOfExactlyTheLimitIsReadOneByteMoreIsRefused) {
  EXPECT_EQ(read_regular_file(write("at.c", std::string(1024, 'x')), 1024, "kernel source").size(), 1024u);
  const std::string why = refusal(write("over.c", std::string(1025, 'x')), 1024);
  EXPECT_NE(why.find("over.c is 1025 bytes, over eok's limit of 1 KiB"), std::string::npos) << why;
  EXPECT_NE(why.find("check that the path names the file you meant"), std::string::npos) << why;
}

TEST_F(ReadRegularFile, DevZeroIsRefusedWithoutBeingRead) {
  const std::string why = refusal("/dev/zero");
  EXPECT_NE(why.find("kernel source /dev/zero is a character device, not a regular file"), std::string::npos) << why;
  // Also through a link, and with no limit at all.
  fs::create_symlink("/dev/zero", dir_.path() / "zero.c");
  EXPECT_NE(refusal(dir_.path() / "zero.c").find("character device"), std::string::npos);
  EXPECT_THROW(read_file("/dev/zero"), ConfigError);
}

TEST_F(ReadRegularFile, AFifoIsRefusedWithoutBlocking) {
  const fs::path fifo = dir_.path() / "pipe.c";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const bool bounded : {true, false}) {
    auto reading = std::async(std::launch::async, [&] {
      try {
        bounded ? read_regular_file(fifo, kKernelSourceMaxBytes, "kernel source") : read_file(fifo);
      } catch (const ConfigError& e) {
        return std::string(e.what());
      }
      return std::string("read");
    });
    if (reading.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
      // Free the blocked reader (a writer end lets its open return) before failing.
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd >= 0) ::close(fd);
      FAIL() << "reading a FIFO blocked";
    }
    const std::string why = reading.get();
    EXPECT_NE(why.find("is a FIFO (named pipe), not a regular file"), std::string::npos) << why;
  }
}

TEST_F(ReadRegularFile, AFolderIsRefused) {
  const std::string why = refusal(dir_.path());
  EXPECT_NE(why.find("is a folder, not a regular file"), std::string::npos) << why;
  EXPECT_THROW(read_file(dir_.path()), ConfigError);
}

TEST_F(ReadRegularFile, ProcFilesAreRefused) {
  // /proc files call themselves regular and have no size; what they hold is made up when read.
  const std::string why = refusal("/proc/self/status");
  EXPECT_NE(why.find("/proc or /sys"), std::string::npos) << why;
}

TEST_F(ReadRegularFile, AMissingFileIsNotFound) {
  EXPECT_THROW(read_regular_file(dir_.path() / "none.c", kKernelSourceMaxBytes, "kernel source"), NotFoundError);
  try {
    read_regular_file(dir_.path() / "none.c", kKernelSourceMaxBytes, "kernel source");
  } catch (const NotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("none.c (the kernel source)"), std::string::npos) << e.what();
  }
}

TEST_F(ReadRegularFile, TomlFilesGoThroughTheSameChecks) {
  EXPECT_THROW(parse_toml_file("/dev/zero", "settings file"), ConfigError);
  EXPECT_THROW(parse_toml_file(write("big.toml", "# " + std::string(kSettingsFileMaxBytes, 'x') + "\n")), ConfigError);
  const toml::table t = parse_toml_file(write("ok.toml", "[search]\niterations = 3\n"));
  EXPECT_EQ(t["search"]["iterations"].value_or(0), 3);
}

TEST(ByteSizeText, ReadsAsPeopleWriteSizes) {
  EXPECT_EQ(byte_size_text(1), "1 byte");
  EXPECT_EQ(byte_size_text(512), "512 bytes");
  EXPECT_EQ(byte_size_text(kKernelSourceMaxBytes), "256 KiB");
  EXPECT_EQ(byte_size_text(kDocumentMaxBytes), "32 MiB");
  EXPECT_EQ(byte_size_text(1536), "1.5 KiB");
}

}  // namespace
}  // namespace eok
