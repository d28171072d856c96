// `weft mesh`: generate a cloth mesh (grid, irregular grid, annulus or disc) to OBJ, or check an OBJ file (engine/mesh_check.h:
// degenerate and sliver, non-manifold, flipped and overlapping triangles, with counts and line numbers).
#include <chrono>
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "engine/gltf_mesh.h"
#include "engine/mesh_check.h"
#include "engine/mesh_io.h"
#include "sim/cloth_model.h"
#include "sim/intersection_count.h"
#include "sim/mesh_generators.h"
#include "sim/topology.h"

namespace weft::app {

void register_mesh(CLI::App& app) {
  struct Args {
    std::string type = "irregular";
    std::string out, check;
    float width = 1.f, height = 1.f;
    uint32_t columns = 24, rows = 24, seed = 1;
    bool json = false;
    bool folded_over = false;
    float gap = 0.004f, amplitude = 0.01f;
    float radius = 0.4f, inner_radius = 0.1f, edge = 0.03f;
    float top_radius = 0.14f;
    uint32_t rings = 12;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("mesh", "Generate a cloth mesh as OBJ, or check an OBJ file");
  cmd->add_option("--type", args->type, "grid | irregular | annulus | disc (concentric rings zipped by triangles) | cone-panel (an irregular garment panel wrapped half-way round a cone)")
      ->check(CLI::IsMember({"grid", "irregular", "annulus", "disc", "cone-panel"}));
  cmd->add_option("--out", args->out, "Write the generated mesh to this OBJ file (glTF 2.0 when it ends in .gltf or .glb)");
  cmd->add_option("--check", args->check,
                  "Load and check this OBJ file: statistics, then degenerate/sliver, non-manifold, flipped and "
                  "overlapping triangles with counts and first examples (file lines); exit 1 if any");
  cmd->add_flag("--json", args->json, "With --check: print the report as JSON on stdout");
  cmd->add_option("--width", args->width, "Width, m")->check(CLI::Range(1e-3, 100.0));
  cmd->add_option("--height", args->height, "Height, m")->check(CLI::Range(1e-3, 100.0));
  cmd->add_option("--columns", args->columns, "Quads along x")->check(CLI::Range(1, 1024));
  cmd->add_option("--rows", args->rows, "Quads along y")->check(CLI::Range(1, 1024));
  cmd->add_option("--seed", args->seed, "Irregular mesh seed");
  cmd->add_option("--radius", args->radius, "annulus, disc: outer radius; cone-panel: the cone's radius at the bottom edge, m")
      ->check(CLI::Range(1e-3, 50.0));
  cmd->add_option("--top-radius", args->top_radius, "cone-panel: the cone's radius at the top edge, m")
      ->check(CLI::Range(1e-3, 50.0));
  cmd->add_option("--inner-radius", args->inner_radius, "annulus: inner radius, m (below --radius)")
      ->check(CLI::Range(1e-3, 50.0));
  cmd->add_option("--rings", args->rings, "annulus, disc: rings of triangles")->check(CLI::Range(1, 1024));
  cmd->add_option("--edge", args->edge, "annulus, disc: edge length along a ring, m")->check(CLI::Range(1e-4, 10.0));
  cmd->add_flag("--folded-over", args->folded_over,
                "Grid folded in half onto itself with a wavy upper half whose troughs cross the lower half "
                "(overlapping layers, a tangled mesh for self-collision); see --gap, --amplitude");
  cmd->add_option("--gap", args->gap, "--folded-over: height of the upper half, m")->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--amplitude", args->amplitude,
                  "--folded-over: waviness of the upper half, m (above --gap the layers cross; below, they do not)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->callback([args] {
    if (args->out.empty() == args->check.empty()) throw CLI::ValidationError("mesh", "give exactly one of --out or --check");
    Mesh mesh;
    std::vector<uint32_t> lines;
    if (!args->check.empty()) {
      try {
        // checked below, every problem counted (a glTF file the loader refuses is reported as it refuses it)
        mesh = is_gltf_path(args->check) ? load_gltf_mesh(args->check) : load_obj_mesh(args->check, &lines, false);
      } catch (const MeshFileError& e) {
        std::fprintf(stderr, "weft mesh: %s\n", e.what());
        throw CLI::RuntimeError(1);
      }
      const auto start = std::chrono::steady_clock::now();
      const MeshCheckReport report = check_mesh(mesh, lines);
      const double check_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      const std::string usable = validate_mesh(mesh);
      if (args->json) {
        nlohmann::json out = {{"file", args->check},
                              {"vertices", mesh.vertex_count()},
                              {"triangles", mesh.triangle_count()},
                              {"simulator_accepts", usable.empty()},
                              {"simulator_error", usable},
                              {"check_ms", check_ms}};
        for (const MeshIssue& i : report.issues) out["issues"][i.kind] = {{"count", i.count}, {"examples", i.examples}};
        std::cout << out.dump(2) << "\n";
      } else {
        std::printf("%s: %zu vertices, %zu triangles (checked in %.0f ms)\n", args->check.c_str(), mesh.vertex_count(),
                    mesh.triangle_count(), check_ms);
        for (const MeshIssue& i : report.issues) {
          std::printf("  %-18s %zu\n", i.kind.c_str(), i.count);
          for (const std::string& e : i.examples) std::printf("      %s\n", e.c_str());
        }
        if (!usable.empty()) std::printf("the simulator refuses it: %s\n", usable.c_str());
      }
      if (report.total() > 0 || !usable.empty()) throw CLI::RuntimeError(1);
      if (args->json) return;
    } else if (args->folded_over) {
      if (args->columns % 2 != 0) throw CLI::ValidationError("mesh", "--folded-over needs an even --columns");
      mesh = make_folded_over({.grid = {.width = args->width, .height = args->height, .columns = args->columns,
                                        .rows = args->rows},
                               .gap = args->gap,
                               .amplitude = args->amplitude});
      const IntersectionCount crossing = count_self_intersections(build_cloth_model(mesh, Material{}), mesh.positions);
      std::printf("folded over: %llu pairs of triangles cross\n", (unsigned long long)crossing.triangle_pairs);
    } else if (args->type == "annulus" || args->type == "disc") {
      const float inner = args->type == "disc" ? 0.f : args->inner_radius;
      if (inner >= args->radius) throw CLI::ValidationError("mesh", "--inner-radius must be below --radius");
      if (2.0 * 3.14159265 * args->radius / args->edge > 1e6)
        throw CLI::ValidationError("mesh", "--edge is too small for --radius (over a million vertices a ring)");
      mesh = make_annulus({.inner_radius = inner, .outer_radius = args->radius, .rings = args->rings,
                           .edge = args->edge, .seed = args->seed});
    } else if (args->type == "cone-panel") {
      if (args->width >= 3.14159265f * args->radius)
        throw CLI::ValidationError("mesh", "cone-panel: --width must be below half the bottom circumference (pi --radius)");
      mesh = make_cone_panel({.sheet = {.width = args->width, .height = args->height, .columns = args->columns,
                                        .rows = args->rows, .seed = args->seed},
                              .bottom_radius = args->radius,
                              .top_radius = args->top_radius});
    } else if (args->type == "grid") {
      mesh = make_grid({.width = args->width, .height = args->height, .columns = args->columns, .rows = args->rows});
    } else {
      mesh = make_irregular({.width = args->width, .height = args->height, .columns = args->columns,
                             .rows = args->rows, .seed = args->seed});
    }
    float amin = INFINITY, amax = 0;
    for (size_t t = 0; t < mesh.triangle_count(); ++t) {
      amin = std::min(amin, triangle_area(mesh, t));
      amax = std::max(amax, triangle_area(mesh, t));
    }
    const Topology topo = build_topology(mesh);
    std::printf("%zu vertices, %zu triangles, %zu edges, %zu bending pairs, triangle area ratio %.2f\n",
                mesh.vertex_count(), mesh.triangle_count(), topo.edges.size(), topo.bend_pairs.size(), amax / amin);
    if (!args->out.empty()) {
      if (is_gltf_path(args->out)) save_gltf_mesh(mesh, args->out);
      else save_obj_mesh(mesh, args->out);
      std::printf("wrote %s\n", args->out.c_str());
    }
  });
}

}  // namespace weft::app
