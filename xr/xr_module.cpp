// Placeholder translation unit until the OpenXR layer lands (issue 6).
namespace weft::xr {}
