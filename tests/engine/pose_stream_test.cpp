#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "engine/pose_stream.h"

namespace weft {
namespace {

const std::string kHeader =
    R"({"format":"weft-pose-stream","version":2,"scene":"table","scene_file":"assets/scenes/table.json","scene_hash":"00000000000000ff","solver":"cg","tick_hz":240})" "\n";
const std::string kPose =
    R"({"tick":0,"type":"pose","device":"left","t":0,"p":[0,1,0],"q":[1,0,0,0],"valid":true})" "\n";
const std::string kEnd = R"({"type":"end","ticks":10,"records":1,"hash":"00000000000000ab"})" "\n";

size_t error_line(const std::string& text, std::string* problem = nullptr) {
  std::istringstream in(text);
  try {
    parse_pose_stream(in, "s.jsonl");
  } catch (const PoseStreamError& e) {
    if (problem) *problem = e.problem();
    CHECK(std::string(e.what()).find("s.jsonl:") == 0);
    return e.line();
  }
  return 0;
}

}  // namespace

TEST_CASE("pose stream: a written stream reads back exactly, NaN and Inf included") {
  const std::string path = std::string(WEFT_BINARY_DIR) + "/pose_stream_test.jsonl";
  PoseStreamHeader h;
  h.scene = "tracker corner";
  h.scene_file = "assets/scenes/tracker_corner.json";
  h.scene_hash = 0x0123456789abcdefull;
  h.solver = "approx";
  h.threads = 2;
  h.device = "gpu";
  {
    PoseStreamWriter w(path, h);
    StreamRecord r;
    r.tick = 3;
    r.sample.time = 0.1234567890123;
    r.sample.device = Device::Tracker2;
    r.sample.pose.position = glm::vec3(0.1f, std::nanf(""), -INFINITY);
    r.sample.pose.orientation = glm::quat(0.9f, 0.1f, 0.2f, 0.3f);
    r.squeeze = 0.75f;
    r.buttons = 5;
    w.write(r);
    StreamRecord g;
    g.tick = 4, g.kind = StreamRecordKind::Grab, g.sample.device = Device::RightHand, g.radius = 0.05f;
    g.sample.pose.position = glm::vec3(1.f / 3.f);
    w.write(g);
    StreamRecord rel;
    rel.tick = 9, rel.kind = StreamRecordKind::Release, rel.sample.device = Device::RightHand;
    w.write(rel);
    StreamRecord reset;
    reset.tick = 9, reset.kind = StreamRecordKind::Reset;
    w.write(reset);
    w.finish({20, 0xdeadbeef12345678ull});
  }
  const PoseStream s = read_pose_stream(path);
  CHECK(s.header.scene == "tracker corner");
  CHECK(s.header.scene_file == "assets/scenes/tracker_corner.json");
  CHECK(s.header.scene_hash == 0x0123456789abcdefull);
  CHECK(s.header.solver == "approx");
  CHECK(s.header.threads == 2);
  CHECK(s.header.device == "gpu");
  REQUIRE(s.records.size() == 4);
  const StreamRecord& r = s.records[0];
  CHECK(r.tick == 3);
  CHECK(r.sample.time == 0.1234567890123);
  CHECK(r.sample.device == Device::Tracker2);
  CHECK(r.sample.pose.position.x == 0.1f);
  CHECK(std::isnan(r.sample.pose.position.y));
  CHECK(std::isinf(r.sample.pose.position.z));
  CHECK(r.sample.pose.orientation.z == 0.3f);
  CHECK(r.squeeze == 0.75f);
  CHECK(r.buttons == 5);
  CHECK(s.records[1].kind == StreamRecordKind::Grab);
  CHECK(s.records[1].sample.pose.position.y == 1.f / 3.f);
  CHECK(s.records[1].radius == 0.05f);
  CHECK(s.records[2].kind == StreamRecordKind::Release);
  CHECK(s.records[3].kind == StreamRecordKind::Reset);
  CHECK(s.footer.ticks == 20);
  CHECK(s.footer.hash == 0xdeadbeef12345678ull);
  std::remove(path.c_str());
  CHECK_THROWS_AS(read_pose_stream(path), PoseStreamError);  // missing file
}

TEST_CASE("pose stream: every corrupt or truncated file is reported with its line") {
  std::string problem;
  CHECK(error_line(kHeader + kPose + kEnd) == 0);
  CHECK(error_line("") == 1);                                         // empty
  CHECK(error_line(kPose + kEnd) == 1);                               // no header
  CHECK(error_line(kHeader + kPose) == 3);                            // truncated: no end record
  CHECK(error_line(kHeader + kPose.substr(0, 30) + "\n" + kEnd, &problem) == 2);  // cut mid-line
  CHECK(problem.find("JSON") != std::string::npos);
  CHECK(error_line(kHeader + "[1,2]\n" + kEnd) == 2);                 // not an object
  // a coordinate beyond a double: nlohmann's number overflow, with the file and the line (issue 34)
  std::istringstream overflow(kHeader + kPose + R"({"tick":1,"type":"pose","device":"left","t":0,"p":[1e999,1,0],"q":[1,0,0,0],"valid":true})" "\n" + kEnd);
  CHECK_THROWS_WITH_AS(parse_pose_stream(overflow, "s.jsonl"), "s.jsonl:3: number overflow parsing '1e999'", PoseStreamError);
  CHECK(error_line(kHeader + R"({"tick":0,"type":"pose","device":"left","t":0,"p":[0,1],"q":[1,0,0,0],"valid":true})" "\n" + kEnd, &problem) == 2);
  CHECK(problem.find("'p'") != std::string::npos);                    // wrong array length
  CHECK(error_line(kHeader + R"({"tick":0,"type":"pose","device":"nose","t":0,"p":[0,1,0],"q":[1,0,0,0],"valid":true})" "\n" + kEnd, &problem) == 2);
  CHECK(problem.find("unknown device") != std::string::npos);
  CHECK(error_line(kHeader + R"({"tick":0,"type":"pose","device":"left","p":[0,1,0],"q":[1,0,0,0],"valid":true})" "\n" + kEnd, &problem) == 2);
  CHECK(problem.find("missing field 't'") != std::string::npos);
  CHECK(error_line(kHeader + R"({"tick":0,"type":"pose","device":"left","t":"soon","p":[0,1,0],"q":[1,0,0,0],"valid":true})" "\n" + kEnd) == 2);
  CHECK(error_line(kHeader + R"({"tick":-1,"type":"reset"})" "\n" + kEnd) == 2);       // negative tick
  CHECK(error_line(kHeader + R"({"tick":0,"type":"dance"})" "\n" + kEnd, &problem) == 2);
  CHECK(problem.find("unknown record type") != std::string::npos);
  CHECK(error_line(kHeader + R"({"tick":0,"type":"grab","hand":"middle","p":[0,1,0],"q":[1,0,0,0],"radius":0.1})" "\n" + kEnd) == 2);
  CHECK(error_line(kHeader + R"({"tick":5,"type":"reset"})" "\n" R"({"tick":4,"type":"reset"})" "\n" + kEnd, &problem) == 3);
  CHECK(problem.find("goes back") != std::string::npos);
  CHECK(error_line(kHeader + kPose + kEnd + kPose) == 4);             // content after the end
  CHECK(error_line(kHeader + kPose + kPose + kEnd, &problem) == 4);   // record count mismatch
  CHECK(error_line(kHeader + kPose + R"({"type":"end","ticks":10,"records":1,"hash":"xyz"})" "\n") == 3);
  CHECK(error_line(R"({"format":"weft-pose-stream","version":3,"scene":"table","scene_file":"","scene_hash":"ff","solver":"cg","tick_hz":240})" "\n" + kEnd) == 1);
  CHECK(error_line(R"({"format":"weft-pose-stream","version":2,"scene":"table","scene_file":"","scene_hash":"ff","solver":"cg","tick_hz":5})" "\n" + kEnd) == 1);
  CHECK(error_line(R"({"format":"weft-pose-stream","version":2,"scene":"table","scene_file":"","scene_hash":"zz","solver":"cg","tick_hz":240})" "\n" + kEnd, &problem) == 1);
  CHECK(problem.find("scene_hash") != std::string::npos);
  // threads is optional (older streams ran the scene's), and 1 or 2 when given.
  std::istringstream without(kHeader + kPose + kEnd);
  CHECK(parse_pose_stream(without, "s.jsonl").header.threads == 0);
  CHECK(error_line(R"({"format":"weft-pose-stream","version":2,"scene":"table","scene_file":"","scene_hash":"ff","solver":"mg","threads":4294967297,"tick_hz":240})" "\n" + kEnd, &problem) == 1);
  CHECK(problem.find("threads") != std::string::npos);
  // device is optional (written only for the GPU step), cpu or gpu when given.
  std::istringstream cpu_stream(kHeader + kPose + kEnd);
  CHECK(parse_pose_stream(cpu_stream, "s.jsonl").header.device.empty());
  CHECK(error_line(R"({"format":"weft-pose-stream","version":2,"scene":"table","scene_file":"","scene_hash":"ff","solver":"mg","device":"tpu","tick_hz":240})" "\n" + kEnd, &problem) == 1);
  CHECK(problem.find("device") != std::string::npos);
  // A version 1 stream (before streams named their scene) is refused with a reason.
  CHECK(error_line(R"({"format":"weft-pose-stream","version":1,"scene":"table","quads":8,"cloth_size":0.5,"tick_hz":240})" "\n" + kEnd, &problem) == 1);
  CHECK(problem.find("record it again") != std::string::npos);
}

// Issue 16, item 5: the header and the end line are cross-checked against the samples.
TEST_CASE("pose stream: an end line claiming 10^12 ticks or a tick rate the samples contradict is rejected") {
  std::string problem;
  CHECK(error_line(kHeader + kPose + R"({"type":"end","ticks":1000000000000,"records":1,"hash":"00000000000000ab"})" "\n",
                   &problem) == 3);
  INFO(problem);
  CHECK(problem.find("1000000000000 ticks") != std::string::npos);
  CHECK(problem.find("last record is at tick 0") != std::string::npos);
  // an hour of silence after the last record is still a recording
  CHECK(error_line(kHeader + kPose + R"({"type":"end","ticks":864000,"records":1,"hash":"00000000000000ab"})" "\n") == 0);
  // samples 1 s apart at consecutive ticks: the header's 240 Hz is not their clock
  std::string body;
  for (int k = 0; k < 5; ++k)
    body += R"({"tick":)" + std::to_string(k) + R"(,"type":"pose","device":"left","t":)" + std::to_string(2 * k) +
            R"(,"p":[0,1,0],"q":[1,0,0,0],"valid":true})" "\n";
  CHECK(error_line(kHeader + body + R"({"type":"end","ticks":10,"records":5,"hash":"00000000000000ab"})" "\n",
                   &problem) == 1);
  CHECK(problem.find("tick_hz") != std::string::npos);
  // the clock restarts at a reset: times after it count from the reset's tick
  CHECK(error_line(kHeader + R"({"tick":1000,"type":"reset"})" "\n" +
                   R"({"tick":1240,"type":"pose","device":"left","t":1,"p":[0,1,0],"q":[1,0,0,0],"valid":true})" "\n" +
                   R"({"type":"end","ticks":1300,"records":2,"hash":"00000000000000ab"})" "\n") == 0);
}

}  // namespace weft

namespace weft {

TEST_CASE("pose stream: edit and sew records read back exactly - a bad one names its line") {
  const std::string path = std::string(WEFT_BINARY_DIR) + "/pose_stream_tools_test.jsonl";
  PoseStreamHeader h;
  h.scene = "table";
  {
    PoseStreamWriter w(path, h);
    StreamRecord cut;
    cut.tick = 2, cut.kind = StreamRecordKind::Edit;
    cut.tool.kind = ToolActionKind::Cut;
    cut.tool.a_from = glm::vec3(1.f / 3.f, 0.7f, -0.1f);
    cut.tool.a_to = glm::vec3(0.5f, 0.7f, 2.f / 3.f);
    cut.tool.radius = 0.015f;
    w.write(cut);
    StreamRecord shrink;
    shrink.tick = 3, shrink.kind = StreamRecordKind::Edit;
    shrink.tool.kind = ToolActionKind::Scale;
    shrink.tool.a_from = shrink.tool.a_to = glm::vec3(0.1f);
    shrink.tool.radius = 0.04f;
    shrink.tool.factor = 0.87f;
    w.write(shrink);
    StreamRecord remove = shrink;
    remove.tool.kind = ToolActionKind::Remove;
    w.write(remove);
    StreamRecord sew;
    sew.tick = 4, sew.kind = StreamRecordKind::Sew;
    sew.tool.kind = ToolActionKind::Sew;
    sew.tool.a_from = glm::vec3(1, 2, 3), sew.tool.a_to = glm::vec3(4, 5, 6);
    sew.tool.b_from = glm::vec3(7, 8, 9), sew.tool.b_to = glm::vec3(0.1f, 0.2f, 0.3f);
    w.write(sew);
    w.finish({10, 1});
  }
  const PoseStream s = read_pose_stream(path);
  std::remove(path.c_str());
  REQUIRE(s.records.size() == 4);
  const ToolAction& c = s.records[0].tool;
  CHECK(s.records[0].kind == StreamRecordKind::Edit);
  CHECK(c.kind == ToolActionKind::Cut);
  CHECK(c.a_from == glm::vec3(1.f / 3.f, 0.7f, -0.1f));  // 9 digits: floats round-trip bit for bit
  CHECK(c.a_to == glm::vec3(0.5f, 0.7f, 2.f / 3.f));
  CHECK(c.radius == 0.015f);
  CHECK(s.records[1].tool.kind == ToolActionKind::Scale);
  CHECK(s.records[1].tool.factor == 0.87f);
  CHECK(s.records[2].tool.kind == ToolActionKind::Remove);
  const ToolAction& w = s.records[3].tool;
  CHECK(s.records[3].kind == StreamRecordKind::Sew);
  CHECK(w.kind == ToolActionKind::Sew);
  CHECK(w.b_from == glm::vec3(7, 8, 9));
  CHECK(w.b_to == glm::vec3(0.1f, 0.2f, 0.3f));

  std::string problem;
  CHECK(error_line(kHeader + R"({"tick":0,"type":"edit","edit":"fold","from":[0,1,0],"to":[0,1,0],"radius":0.1,"factor":1})" "\n" + kEnd, &problem) == 2);
  CHECK(problem.find("unknown edit 'fold'") != std::string::npos);
  CHECK(error_line(kHeader + R"({"tick":0,"type":"edit","edit":"cut","from":[0,1,0],"radius":0.1,"factor":1})" "\n" + kEnd, &problem) == 2);
  CHECK(problem.find("missing field 'to'") != std::string::npos);
  CHECK(error_line(kHeader + R"({"tick":0,"type":"sew","a_from":[0,1,0],"a_to":[0,1,0],"b_from":[0,1],"b_to":[0,1,0]})" "\n" + kEnd, &problem) == 2);
  CHECK(problem.find("'b_from'") != std::string::npos);
}

}  // namespace weft
