#pragma once
// The error of every JSON file reader (engine/json_reader.h): the file, the line, the JSON pointer and the
// problem, so that a message reads `scene.json:12: /colliders/1/radius: value -1 out of range [0.0001, 100]`.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace weft {

// A problem in a file: where (file, 1-based line, column for syntax errors, JSON pointer) and what.
// what() is "file:line: /pointer: problem"; an empty file, an unknown line (0) or an empty pointer is
// left out.
class JsonError : public std::runtime_error {
 public:
  JsonError(std::string file, size_t line, std::string pointer, std::string problem, size_t column = 0);
  const std::string& file() const { return file_; }
  size_t line() const { return line_; }
  size_t column() const { return column_; }
  const std::string& pointer() const { return pointer_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string file_, pointer_, problem_;
  size_t line_, column_;
};

}  // namespace weft
