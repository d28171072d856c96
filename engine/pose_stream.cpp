#include "engine/pose_stream.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <fstream>
#include <limits>

#include "engine/json_reader.h"

namespace weft {
namespace {

constexpr const char* kFormat = "weft-pose-stream";
// How long a session may run on after its last record (a user watching the cloth settle), and the most
// its samples' clock may disagree with the header's tick rate: beyond these the file is not a recording.
constexpr double kMaxIdleSeconds = 3600;
constexpr double kMaxClockMismatchSeconds = 1.0;

std::string seconds_text(double s) {
  char buf[64];
  if (s < 1e5) std::snprintf(buf, sizeof buf, "%.1f s", s);
  else std::snprintf(buf, sizeof buf, "%.3g days", s / 86400);
  return buf;
}

// JSON has no NaN or Inf; tracker noise does. They are written as the strings "nan", "inf", "-inf".
void put_number(std::FILE* f, double v, int digits) {
  if (std::isnan(v)) std::fputs("\"nan\"", f);
  else if (std::isinf(v)) std::fputs(v > 0 ? "\"inf\"" : "\"-inf\"", f);
  else std::fprintf(f, "%.*g", digits, v);
}
void put_float(std::FILE* f, float v) { put_number(f, v, 9); }  // 9 digits: a float round-trips

void put_pose(std::FILE* f, const Pose& p) {
  std::fputs(",\"p\":[", f);
  for (int k = 0; k < 3; ++k) {
    if (k) std::fputc(',', f);
    put_float(f, p.position[k]);
  }
  std::fputs("],\"q\":[", f);
  const float q[4] = {p.orientation.w, p.orientation.x, p.orientation.y, p.orientation.z};
  for (int k = 0; k < 4; ++k) {
    if (k) std::fputc(',', f);
    put_float(f, q[k]);
  }
  std::fputc(']', f);
}

void put_point(std::FILE* f, const char* key, const glm::vec3& v) {
  std::fprintf(f, ",\"%s\":[", key);
  for (int k = 0; k < 3; ++k) {
    if (k) std::fputc(',', f);
    put_float(f, v[k]);
  }
  std::fputc(']', f);
}

const char* hand_name(Device d) { return d == Device::LeftHand ? "left" : "right"; }

struct LineReader {
  const std::string& file;
  size_t line;

  [[noreturn]] void fail(const std::string& problem) const { throw PoseStreamError(file, line, problem); }

  const nlohmann::json& field(const nlohmann::json& j, const char* key) const {
    auto it = j.find(key);
    if (it == j.end()) fail(std::string("missing field '") + key + "'");
    return *it;
  }
  double number(const nlohmann::json& v, const char* key) const {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
      if (s == "inf") return std::numeric_limits<double>::infinity();
      if (s == "-inf") return -std::numeric_limits<double>::infinity();
    }
    fail(std::string("field '") + key + "' is not a number");
  }
  double number(const nlohmann::json& j, const char* key, double fallback) const {
    auto it = j.find(key);
    return it == j.end() ? fallback : number(*it, key);
  }
  uint64_t count(const nlohmann::json& j, const char* key) const {
    const nlohmann::json& v = field(j, key);
    if (!v.is_number_unsigned()) fail(std::string("field '") + key + "' is not a non-negative integer");
    return v.get<uint64_t>();
  }
  std::string text(const nlohmann::json& j, const char* key) const {
    const nlohmann::json& v = field(j, key);
    if (!v.is_string()) fail(std::string("field '") + key + "' is not a string");
    return v.get<std::string>();
  }
  void vector(const nlohmann::json& j, const char* key, float* out, size_t n) const {
    const nlohmann::json& v = field(j, key);
    if (!v.is_array() || v.size() != n)
      fail(std::string("field '") + key + "' is not an array of " + std::to_string(n) + " numbers");
    for (size_t k = 0; k < n; ++k) out[k] = float(number(v[k], key));
  }
  Pose pose(const nlohmann::json& j) const {
    Pose p;
    float q[4];
    vector(j, "p", &p.position.x, 3);
    vector(j, "q", q, 4);
    p.orientation = glm::quat(q[0], q[1], q[2], q[3]);
    return p;
  }
  Device device(const std::string& name) const {
    for (int d = 0; d < kDeviceCount; ++d)
      if (name == device_name(Device(d))) return Device(d);
    fail("unknown device '" + name + "'");
  }
  Device hand(const nlohmann::json& j) const {
    const std::string h = text(j, "hand");
    if (h == "left") return Device::LeftHand;
    if (h == "right") return Device::RightHand;
    fail("unknown hand '" + h + "' (left or right)");
  }
};

}  // namespace

const char* device_name(Device d) {
  switch (d) {
    case Device::LeftHand: return "left";
    case Device::RightHand: return "right";
    case Device::Tracker0: return "tracker0";
    case Device::Tracker1: return "tracker1";
    case Device::Tracker2: return "tracker2";
    case Device::Tracker3: return "tracker3";
    case Device::Head: return "head";
  }
  return "?";
}

PoseStreamWriter::PoseStreamWriter(const std::string& path, const PoseStreamHeader& header) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw std::runtime_error("cannot write pose stream '" + path + "'");
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016" PRIx64, header.scene_hash);
  nlohmann::json h = {{"format", kFormat},          {"version", header.version},
                      {"scene", header.scene},      {"scene_file", header.scene_file},
                      {"scene_hash", hash},         {"solver", header.solver},
                      {"tick_hz", header.tick_hz},  {"source", header.source}};
  if (header.threads > 0) h["threads"] = header.threads;
  if (!header.device.empty()) h["device"] = header.device;
  std::fprintf(file_, "%s\n", h.dump().c_str());
}

PoseStreamWriter::~PoseStreamWriter() {
  if (file_) std::fclose(file_);
}

void PoseStreamWriter::write(const StreamRecord& r) {
  std::FILE* f = file_;
  std::fprintf(f, "{\"tick\":%" PRIu64, r.tick);
  switch (r.kind) {
    case StreamRecordKind::Pose:
      std::fprintf(f, ",\"type\":\"pose\",\"device\":\"%s\",\"t\":", device_name(r.sample.device));
      put_number(f, r.sample.time, 17);
      put_pose(f, r.sample.pose);
      std::fprintf(f, ",\"valid\":%s,\"squeeze\":", r.sample.valid ? "true" : "false");
      put_float(f, r.squeeze);
      std::fputs(",\"trigger\":", f);
      put_float(f, r.trigger);
      std::fprintf(f, ",\"buttons\":%u", r.buttons);
      break;
    case StreamRecordKind::Grab:
      std::fprintf(f, ",\"type\":\"grab\",\"hand\":\"%s\"", hand_name(r.sample.device));
      put_pose(f, r.sample.pose);
      std::fputs(",\"radius\":", f);
      put_float(f, r.radius);
      break;
    case StreamRecordKind::Release:
      std::fprintf(f, ",\"type\":\"release\",\"hand\":\"%s\"", hand_name(r.sample.device));
      break;
    case StreamRecordKind::Reset: std::fputs(",\"type\":\"reset\"", f); break;
    case StreamRecordKind::Attach:
      std::fprintf(f, ",\"type\":\"attach\",\"device\":\"%s\"", device_name(r.sample.device));
      put_pose(f, r.sample.pose);
      std::fputs(",\"radius\":", f);
      put_float(f, r.radius);
      break;
    case StreamRecordKind::Detach:
      std::fprintf(f, ",\"type\":\"detach\",\"device\":\"%s\"", device_name(r.sample.device));
      break;
    case StreamRecordKind::Edit:
      std::fprintf(f, ",\"type\":\"edit\",\"edit\":\"%s\"", tool_action_name(r.tool.kind));
      put_point(f, "from", r.tool.a_from);
      put_point(f, "to", r.tool.a_to);
      std::fputs(",\"radius\":", f);
      put_float(f, r.tool.radius);
      std::fputs(",\"factor\":", f);
      put_float(f, r.tool.factor);
      break;
    case StreamRecordKind::Sew:
      std::fputs(",\"type\":\"sew\"", f);
      put_point(f, "a_from", r.tool.a_from);
      put_point(f, "a_to", r.tool.a_to);
      put_point(f, "b_from", r.tool.b_from);
      put_point(f, "b_to", r.tool.b_to);
      break;
  }
  std::fputs("}\n", f);
  ++records_;
}

void PoseStreamWriter::finish(const PoseStreamFooter& footer) {
  if (finished_) return;
  finished_ = true;
  std::fprintf(file_, "{\"type\":\"end\",\"ticks\":%" PRIu64 ",\"records\":%" PRIu64 ",\"hash\":\"%016" PRIx64 "\"}\n",
               footer.ticks, records_, footer.hash);
  if (std::fflush(file_) != 0 || std::ferror(file_)) throw std::runtime_error("error writing pose stream '" + path_ + "'");
}

PoseStream read_pose_stream(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw PoseStreamError(path, 0, "cannot open file");
  return parse_pose_stream(in, path);
}

PoseStream parse_pose_stream(std::istream& in, const std::string& name) {
  PoseStream s;
  std::string text;
  size_t line = 0;
  bool have_header = false, have_end = false;
  uint64_t last_tick = 0, reset_tick = 0;
  // Per pose record: its sample time minus the sim time its tick implies (the clock restarts at a reset).
  std::vector<double> clock_offset;
  size_t offset_example_line = 0;
  double offset_example = 0;
  while (std::getline(in, text)) {
    ++line;
    LineReader r{name, line};
    if (text.empty() || text.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (have_end) r.fail("content after the end record");
    nlohmann::json j;
    try {  // a number beyond a double (1e999) is refused here too, with its line
      j = JsonDocument::parse(text, name, line).take_root();
    } catch (const JsonError& e) {
      r.fail(e.problem());
    }
    if (!j.is_object()) r.fail("a line must be a JSON object");
    if (!have_header) {
      auto f = j.find("format");
      if (f == j.end() || !f->is_string() || f->get<std::string>() != kFormat)
        r.fail(std::string("first line is not a pose stream header (\"format\": \"") + kFormat + "\")");
      s.header.version = int(r.count(j, "version"));
      if (s.header.version == 1)
        r.fail("version 1 stream (recorded before streams named their scene): record it again with this weft");
      if (s.header.version != 2) r.fail("unsupported version " + std::to_string(s.header.version));
      s.header.scene = r.text(j, "scene");
      s.header.scene_file = r.text(j, "scene_file");
      const std::string h = r.text(j, "scene_hash");
      size_t used = 0;
      try {
        s.header.scene_hash = std::stoull(h, &used, 16);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != h.size() || h.empty()) r.fail("scene_hash '" + h + "' is not hexadecimal");
      s.header.solver = r.text(j, "solver");
      if (j.contains("threads")) {  // optional: streams recorded before it was written ran the scene's
        const uint64_t threads = r.count(j, "threads");
        if (threads != 1 && threads != 2) r.fail("threads must be 1 or 2");
        s.header.threads = int(threads);
      }
      if (j.contains("device")) {  // optional: written only for the GPU step
        s.header.device = r.text(j, "device");
        if (s.header.device != "gpu" && s.header.device != "cpu") r.fail("device must be cpu or gpu");
      }
      s.header.tick_hz = r.number(r.field(j, "tick_hz"), "tick_hz");
      if (!(s.header.tick_hz >= 60 && s.header.tick_hz <= 2000)) r.fail("tick_hz out of range 60..2000");
      if (j.contains("source") && j["source"].is_string()) s.header.source = j["source"].get<std::string>();
      have_header = true;
      continue;
    }
    const std::string type = r.text(j, "type");
    if (type == "end") {
      s.footer.ticks = r.count(j, "ticks");
      const uint64_t n = r.count(j, "records");
      if (n != s.records.size())
        r.fail("end record counts " + std::to_string(n) + " records, the file has " + std::to_string(s.records.size()));
      if (s.footer.ticks < last_tick) r.fail("end record's ticks is before the last record's tick");
      const double idle = double(s.footer.ticks - last_tick) / s.header.tick_hz;
      if (idle > kMaxIdleSeconds)
        r.fail("end record claims " + std::to_string(s.footer.ticks) + " ticks (" +
               seconds_text(double(s.footer.ticks) / s.header.tick_hz) + " at " +
               std::to_string(int(s.header.tick_hz)) + " Hz), but the last record is at tick " +
               std::to_string(last_tick) + ": " + seconds_text(idle) + " with no input, more than the " +
               seconds_text(kMaxIdleSeconds) + " a recording runs on after its last input");
      const std::string h = r.text(j, "hash");
      size_t used = 0;
      try {
        s.footer.hash = std::stoull(h, &used, 16);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != h.size() || h.empty()) r.fail("hash '" + h + "' is not hexadecimal");
      have_end = true;
      continue;
    }
    StreamRecord rec;
    rec.tick = r.count(j, "tick");
    if (rec.tick < last_tick) r.fail("tick " + std::to_string(rec.tick) + " goes back (previous " + std::to_string(last_tick) + ")");
    last_tick = rec.tick;
    if (type == "pose") {
      rec.kind = StreamRecordKind::Pose;
      rec.sample.device = r.device(r.text(j, "device"));
      rec.sample.time = r.number(r.field(j, "t"), "t");
      rec.sample.pose = r.pose(j);
      const nlohmann::json& valid = r.field(j, "valid");
      if (!valid.is_boolean()) r.fail("field 'valid' is not true or false");
      rec.sample.valid = valid.get<bool>();
      rec.squeeze = float(r.number(j, "squeeze", 0.0));
      rec.trigger = float(r.number(j, "trigger", 0.0));
      rec.buttons = j.contains("buttons") ? uint32_t(r.count(j, "buttons")) : 0u;
      if (std::isfinite(rec.sample.time)) {
        const double off = rec.sample.time - double(rec.tick - reset_tick) / s.header.tick_hz;
        clock_offset.push_back(off);
        if (std::abs(off) > std::abs(offset_example)) offset_example = off, offset_example_line = line;
      }
    } else if (type == "grab") {
      rec.kind = StreamRecordKind::Grab;
      rec.sample.device = r.hand(j);
      rec.sample.pose = r.pose(j);
      rec.radius = float(r.number(r.field(j, "radius"), "radius"));
    } else if (type == "release") {
      rec.kind = StreamRecordKind::Release;
      rec.sample.device = r.hand(j);
    } else if (type == "reset") {
      rec.kind = StreamRecordKind::Reset;
    } else if (type == "attach") {
      rec.kind = StreamRecordKind::Attach;
      rec.sample.device = r.device(r.text(j, "device"));
      rec.sample.pose = r.pose(j);
      rec.radius = float(r.number(r.field(j, "radius"), "radius"));
    } else if (type == "detach") {
      rec.kind = StreamRecordKind::Detach;
      rec.sample.device = r.device(r.text(j, "device"));
    } else if (type == "edit") {
      rec.kind = StreamRecordKind::Edit;
      const std::string e = r.text(j, "edit");
      if (e == "cut") rec.tool.kind = ToolActionKind::Cut;
      else if (e == "remove") rec.tool.kind = ToolActionKind::Remove;
      else if (e == "scale") rec.tool.kind = ToolActionKind::Scale;
      else r.fail("unknown edit '" + e + "' (cut, remove or scale)");
      r.vector(j, "from", &rec.tool.a_from.x, 3);
      r.vector(j, "to", &rec.tool.a_to.x, 3);
      rec.tool.radius = float(r.number(r.field(j, "radius"), "radius"));
      rec.tool.factor = float(r.number(r.field(j, "factor"), "factor"));
    } else if (type == "sew") {
      rec.kind = StreamRecordKind::Sew;
      rec.tool.kind = ToolActionKind::Sew;
      r.vector(j, "a_from", &rec.tool.a_from.x, 3);
      r.vector(j, "a_to", &rec.tool.a_to.x, 3);
      r.vector(j, "b_from", &rec.tool.b_from.x, 3);
      r.vector(j, "b_to", &rec.tool.b_to.x, 3);
    } else {
      r.fail("unknown record type '" + type + "'");
    }
    if (rec.kind == StreamRecordKind::Reset) reset_tick = rec.tick;  // the sim clock restarts
    s.records.push_back(rec);
  }
  if (!have_header) throw PoseStreamError(name, line + 1, "empty file: no pose stream header");
  if (!have_end) throw PoseStreamError(name, line + 1, "file ends without an end record (truncated)");
  // The header's tick rate against the samples' own clock: the median offset, so noisy timestamps do not
  // count, must be small.
  if (!clock_offset.empty()) {
    auto mid = clock_offset.begin() + std::ptrdiff_t(clock_offset.size() / 2);
    std::nth_element(clock_offset.begin(), mid, clock_offset.end());
    if (std::abs(*mid) > kMaxClockMismatchSeconds) {
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "the samples' times disagree with the header's tick_hz %g: their median is %.3g s off tick / "
                    "tick_hz (line %zu: %.3g s)",
                    s.header.tick_hz, *mid, offset_example_line, offset_example);
      throw PoseStreamError(name, 1, buf);
    }
  }
  return s;
}

}  // namespace weft
