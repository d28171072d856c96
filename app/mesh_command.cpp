// `weft mesh`: generate a cloth mesh (regular or irregular) to OBJ, or check an OBJ file.
#include <cstdio>

#include "app/commands.h"
#include "engine/mesh_io.h"
#include "sim/mesh_generators.h"
#include "sim/topology.h"

namespace weft::app {

void register_mesh(CLI::App& app) {
  struct Args {
    std::string type = "irregular";
    std::string out, check;
    float width = 1.f, height = 1.f;
    uint32_t columns = 24, rows = 24, seed = 1;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("mesh", "Generate a cloth mesh as OBJ, or check an OBJ file");
  cmd->add_option("--type", args->type, "grid | irregular")->check(CLI::IsMember({"grid", "irregular"}));
  cmd->add_option("--out", args->out, "Write the generated mesh to this OBJ file");
  cmd->add_option("--check", args->check, "Load and validate this OBJ file, print its statistics");
  cmd->add_option("--width", args->width, "Width, m")->check(CLI::Range(1e-3, 100.0));
  cmd->add_option("--height", args->height, "Height, m")->check(CLI::Range(1e-3, 100.0));
  cmd->add_option("--columns", args->columns, "Quads along x")->check(CLI::Range(1, 1024));
  cmd->add_option("--rows", args->rows, "Quads along y")->check(CLI::Range(1, 1024));
  cmd->add_option("--seed", args->seed, "Irregular mesh seed");
  cmd->callback([args] {
    if (args->out.empty() == args->check.empty()) throw CLI::ValidationError("mesh", "give exactly one of --out or --check");
    Mesh mesh;
    if (!args->check.empty()) {
      try {
        mesh = load_obj_mesh(args->check);
      } catch (const MeshFileError& e) {
        std::fprintf(stderr, "weft mesh: %s\n", e.what());
        throw CLI::RuntimeError(1);
      }
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
      save_obj_mesh(mesh, args->out);
      std::printf("wrote %s\n", args->out.c_str());
    }
  });
}

}  // namespace weft::app
