#pragma once
// What a piece of code writes to stderr (a runtime's load warnings), through a file in the build folder.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace weft::test {

template <class F>
std::string stderr_of(F&& f) {
  const std::string path = std::string(WEFT_BINARY_DIR) + "/runtime_load_stderr.txt";
  std::fflush(stderr);
  const int saved = dup(2);
  std::FILE* file = std::fopen(path.c_str(), "w");
  dup2(fileno(file), 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::fclose(file);
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

}  // namespace weft::test
