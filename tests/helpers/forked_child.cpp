#include "tests/helpers/forked_child.hpp"

#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sched.h>

#include <cerrno>
#include <cstring>

namespace quadpool::test {

std::string in_child(const std::function<std::string()>& body) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return "pipe failed";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipe_fds[0]);
    const std::string said = body();
    (void)!::write(pipe_fds[1], said.data(), said.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  std::string said;
  char buffer[512];
  ssize_t got = 0;
  while ((got = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0) {
    said.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? said : std::string();
}

std::string mount_private_tmpfs(const std::filesystem::path& folder, const char* size) {
  if (::unshare(CLONE_NEWNS) != 0) {
    return std::string("skip: no mount namespace (") + std::strerror(errno) + ")";
  }
  const std::string options = std::string("size=") + size;
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      ::mount("tmpfs", folder.c_str(), "tmpfs", 0, options.c_str()) != 0) {
    return std::string("skip: cannot mount a tmpfs (") + std::strerror(errno) + ")";
  }
  return {};
}

std::string remount_read_only(const std::filesystem::path& folder) {
  if (::mount(nullptr, folder.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) != 0) {
    return std::string("cannot remount the tmpfs read-only (") + std::strerror(errno) + ")";
  }
  return {};
}

}  // namespace quadpool::test
