#pragma once
// Starts a private Xvfb for a window test: it picks a free display itself (-displayfd), DISPLAY is set
// for the process, and the server is killed when the object goes away.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace weft::test {

inline bool xvfb_installed() { return std::system("command -v Xvfb >/dev/null 2>&1") == 0; }

class XvfbServer {
 public:
  XvfbServer() {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      close(fds[0]);
      const int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, STDERR_FILENO);
      dup2(devnull, STDOUT_FILENO);
      const std::string fd = std::to_string(fds[1]);
      execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset",
             static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    std::string number;
    pollfd p{fds[0], POLLIN, 0};
    while (number.find('\n') == std::string::npos && poll(&p, 1, 10000) > 0) {
      char buf[16];
      const ssize_t n = read(fds[0], buf, sizeof(buf));
      if (n <= 0) break;
      number.append(buf, size_t(n));
    }
    close(fds[0]);
    if (number.empty() || number.find('\n') == std::string::npos) {
      stop();
      throw std::runtime_error("Xvfb did not report a display number");
    }
    char name[32];
    std::snprintf(name, sizeof(name), ":%d", std::atoi(number.c_str()));
    display_ = name;
    setenv("DISPLAY", display_.c_str(), 1);
  }
  ~XvfbServer() { stop(); }
  XvfbServer(const XvfbServer&) = delete;
  XvfbServer& operator=(const XvfbServer&) = delete;
  const std::string& display() const { return display_; }

 private:
  void stop() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }
  pid_t pid_ = -1;
  std::string display_;
};

}  // namespace weft::test
