#pragma once
// A folder of a test's own under the system's temporary folder, and the two ways tests look at
// files in it.

#include <filesystem>
#include <string>
#include <vector>

namespace quadpool::test {

/// Creates (empty) <temp>/quadpool_<name>_<pid> and removes it with all it holds on
/// destruction. Permissions a test took away are given back first, so that removal works for a
/// user who is not root.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& name);
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

/// The whole contents of `file` ("" when it cannot be read).
std::string contents(const std::filesystem::path& file);

/// The names of the entries in `folder`, sorted.
std::vector<std::string> names_in(const std::filesystem::path& folder);

}  // namespace quadpool::test
