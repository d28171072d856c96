// build_edit: the new cloth model of a cut or removal and what derives from its topology (sim/edit_build.h).
#include "sim/edit_build.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <tuple>

#include "sim/mesh_cut.h"
#include "sim/mesh_remove.h"
#include "sim/rest_scale.h"
#include "sim/wall_time.h"

namespace weft {

void carry_elastic_set(ElasticSet& set, const std::vector<uint32_t>& to_new, const std::vector<uint32_t>& next_copy,
                       ElasticSet& carried) {
  carried.clear();
  for (size_t k = 0; k < set.size(); ++k)
    for (uint32_t v = set.vertex[k] < to_new.size() ? to_new[set.vertex[k]] : UINT32_MAX; v != UINT32_MAX;
         v = next_copy[v]) {
      carried.vertex.push_back(v);
      carried.offset.push_back(set.offset[k]);
      carried.weight.push_back(set.weight[k]);
    }
  set.vertex.assign(carried.vertex.begin(), carried.vertex.end());
  set.offset.assign(carried.offset.begin(), carried.offset.end());
  set.weight.assign(carried.weight.begin(), carried.weight.end());
}

void build_edit(const ClothEdit& e, const EditBase& base, const WorldConfig& config, const glm::vec3* x,
                bool self_on_thread, EditBuild& out) {
  EditReport& report = out.report;
  const auto t0 = WallClock::now();
  auto lap = [last = t0](double& into) mutable {
    const auto now = WallClock::now();
    into += ms_between(last, now);
    last = now;
  };
  const ClothModel& old = *base.cloth;
  const Mesh rest{old.rest_position, old.material_coord, old.triangle};
  MeshEdit& me = out.me;
  const char* why = e.kind == EditKind::Cut ? cut_mesh(rest, old.topology, x, e.from, e.to, e.radius, me)
                                            : remove_in_brush(rest, x, e.from, e.radius, me);
  if (why) {
    report.refused = why;
    return;
  }
  lap(report.stage_ms.mesh);
  // Crumbs the edit cut loose, under half the mean triangle's area, go with it.
  double rest_area = 0;
  for (size_t t = 0; t < rest.triangle_count(); ++t) rest_area += triangle_area(rest, t);
  const size_t crumbs = drop_crumbs(me, float(0.5 * rest_area / double(rest.triangle_count())));

  // The new model: same areal density (a total mass given in the scene is what the cloth had as loaded),
  // the scene's pins on every copy of a pinned vertex, each triangle's rest scale from the one it came from.
  Material material = old.material;
  if (material.total_mass > 0.f) {
    material.areal_density = float(double(old.total_mass()) / rest_area);
    material.total_mass = 0.f;
  }
  std::vector<uint32_t> pins;
  for (uint32_t i = 0; i < me.origin.size(); ++i)
    if (me.origin[i].t == 0.f && old.pinned[me.origin[i].a]) pins.push_back(i);
  const std::vector<float>& scale = *base.rest_scale;
  out.rest_scale.resize(me.triangle_parent.size());
  for (size_t t = 0; t < out.rest_scale.size(); ++t) out.rest_scale[t] = scale[me.triangle_parent[t]];
  // The crease lines again, those still on an interior edge (a removal may have taken a whole one).
  std::vector<CreaseLine> creases;
  if (!old.creases.empty()) {
    const Topology topo = build_topology(me.mesh);
    for (const CreaseLine& line : old.creases)
      for (size_t k = 0; k < topo.edges.size(); ++k)
        if (topo.edge_triangles[k][1] >= 0 &&
            edge_on_crease(line, me.mesh.material[topo.edges[k][0]], me.mesh.material[topo.edges[k][1]])) {
          creases.push_back(line);
          break;
        }
  }
  try {
    out.cloth = build_cloth_model(me.mesh, material, pins, creases);
  } catch (const std::exception&) {
    report.refused = "the edited cloth would not be a valid model";
    return;
  }
  apply_rest_scale(out.cloth, out.rest_scale);
  const ClothModel& cloth = out.cloth;
  const size_t n = cloth.vertex_count();
  lap(report.stage_ms.model);

  report.mass_removed =
      e.kind == EditKind::Remove || crumbs > 0 ? std::max(0.f, old.total_mass() - cloth.total_mass()) : 0.f;
  report.vertices_added = me.vertices_added;
  report.vertices_removed = me.vertices_removed;
  report.triangles_added = me.triangles_added;
  report.triangles_removed = me.triangles_removed;

  // The self-collision hierarchy depends on the new model only: a second thread builds it while this one
  // builds the rest. Its leaf order is the old one carried through the edit (bvh.h).
  std::exception_ptr self_failed;
  auto build_self = [&] {
    const auto start = WallClock::now();
    try {
      out.self = std::make_unique<SelfCollision>(cloth, config.self_collision,
                                                 carry_triangle_order(me, *base.leaf_order));
    } catch (...) {
      self_failed = std::current_exception();
    }
    report.stage_ms.self_collision = ms_between(start, WallClock::now());
  };
  struct Joined {  // joined on every way out, an exception included
    std::thread thread;
    ~Joined() {
      if (thread.joinable()) thread.join();
    }
  } helper;
  const bool self = base.leaf_order != nullptr;
  if (self && self_on_thread) helper.thread = std::thread(build_self);

  // Old vertex -> its copies: the primary, then a chain through next_copy.
  out.to_new = primary_copies(me, old.vertex_count());
  out.next_copy.assign(n, UINT32_MAX);
  {
    std::vector<uint32_t> last(out.to_new);
    for (uint32_t i = 0; i < n; ++i) {
      const VertexOrigin& o = me.origin[i];
      if (o.t != 0.f || out.to_new[o.a] == i) continue;
      out.next_copy[last[o.a]] = i;
      last[o.a] = i;
    }
  }
  if (self) {  // the cut's twins: new vertices with one origin (the same old vertex, or point on an old edge)
    struct Key {
      uint32_t a, b;
      float t;
      uint32_t v;
    };
    std::vector<Key> keys;
    keys.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      VertexOrigin o = me.origin[i];
      if (o.t == 0.f) o.b = o.a;
      else if (o.a > o.b) std::swap(o.a, o.b), o.t = 1.f - o.t;
      keys.push_back({o.a, o.b, o.t, i});
    }
    auto less = [](const Key& l, const Key& r) { return std::tie(l.a, l.b, l.t, l.v) < std::tie(r.a, r.b, r.t, r.v); };
    std::sort(keys.begin(), keys.end(), less);
    for (size_t i = 0; i < keys.size();) {
      size_t j = i + 1;
      while (j < keys.size() && keys[j].a == keys[i].a && keys[j].b == keys[i].b && keys[j].t == keys[i].t) ++j;
      for (size_t p = i; p < j; ++p)
        for (size_t q = p + 1; q < j; ++q) out.twins.push_back({keys[p].v, keys[q].v});
      i = j;
    }
  }
  out.pins = *base.pins;
  ElasticSet carried;
  carry_elastic_set(out.pins, out.to_new, out.next_copy, carried);
  out.adjacency = build_adjacency(cloth);
  out.flat_pieces = find_flat_pieces(cloth, out.adjacency);
  lap(report.stage_ms.adjacency);
  // An integrator made outside sim/ (the GPU step) owns device resources and is made and freed on the sim
  // thread, at the landing (World::land_edit); the CPU's is built here.
  if (!config.make_custom_integrator) out.integrator = make_integrator(config.integrator, cloth, config.solver);
  lap(report.stage_ms.integrator);
  // Pin tethers: the scene's pinned vertices and the elastic pins are the sources (World::rebuild_pin_tethers).
  TetherScratch tether;
  tether.resize(cloth);
  for (uint32_t i = 0; i < n; ++i)
    if (cloth.pinned[i]) tether.sources.push_back(i);
  for (uint32_t i : out.pins.vertex)
    if (i < n && !cloth.pinned[i]) tether.sources.push_back(i);
  out.pin_tethers.anchor.resize(n);
  out.pin_tethers.length.resize(n);
  if (tether.sources.empty()) {
    out.pin_tethers.active = false;
  } else {
    build_tethers(cloth, out.adjacency, tether.sources.data(), tether.sources.size(), tether, out.pin_tethers);
    if (config.interaction.straight_tethers) straighten_tethers(cloth, out.flat_pieces, out.pin_tethers);
  }
  out.state = make_rest_state(cloth);
  lap(report.stage_ms.tethers);
  if (helper.thread.joinable()) helper.thread.join();
  else if (self) build_self();
  if (self_failed) std::rethrow_exception(self_failed);
  report.applied = true;
  report.rebuild_ms = ms_between(t0, WallClock::now());
}

}  // namespace weft
