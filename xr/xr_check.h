#pragma once
// One checking path for every XrResult: a failure becomes an XrError that names the call, the
// result and where it was made, so a log line from a user's headset is enough to find the call.
#include <stdexcept>
#include <string>

#include <openxr/openxr.h>

namespace weft::xr {

// Enum names from the registry (openxr_reflection.h), usable without an instance.
const char* result_name(XrResult result);
const char* session_state_name(XrSessionState state);

class XrError : public std::runtime_error {
 public:
  XrError(XrResult result, const std::string& expression, const char* file, int line);
  XrResult result() const { return result_; }
  const std::string& expression() const { return expression_; }
  const std::string& where() const { return where_; }  // "file:line"

 private:
  XrResult result_;
  std::string expression_, where_;
};

// Returns the result when it is a success code (XR_SUCCESS, XR_SESSION_LOSS_PENDING, ...), throws otherwise.
XrResult check_xr(XrResult result, const char* expression, const char* file, int line);

}  // namespace weft::xr

#define XR_CHECK(expr) ::weft::xr::check_xr((expr), #expr, __FILE__, __LINE__)

namespace weft::xr {
// A zeroed OpenXR struct with its type tag set (plain `T{XR_TYPE_...}` trips -Wmissing-field-initializers).
template <typename T>
T xr_struct(XrStructureType type) {
  T t{};
  t.type = type;
  return t;
}
}  // namespace weft::xr
