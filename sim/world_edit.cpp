// World::edit: a cut, removal or rest-shape scaling applied between ticks (sim/cloth_edit.h). The model is
// fixed while the world runs except here: the cloth model is rebuilt from the edited rest mesh, what
// derives from it is rebuilt, and every vertex-indexed thing in the model and the state is carried over
// (remap_after_edit).
#include <cmath>
#include <algorithm>
#include <exception>
#include <thread>
#include <tuple>

#include "sim/mesh_cut.h"
#include "sim/mesh_edit.h"
#include "sim/mesh_remove.h"
#include "sim/rest_scale.h"
#include "sim/wall_time.h"
#include "sim/world.h"

namespace weft {
namespace {

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// The hinge on the edge (a, b) of the old model, looked up by the old vertices the new ones came from: the
// rest angles plasticity set carry over.
void carry_hinge_angles(const WeftWarpModel& old_w, const std::vector<float>& old_angles, const WeftWarpModel& new_w,
                        const MeshEdit& edit, std::vector<float>& angles) {
  if (old_angles.empty() || angles.size() != new_w.hinge_count()) return;
  auto key = [](uint32_t a, uint32_t b) { return a < b ? (uint64_t(a) << 32 | b) : (uint64_t(b) << 32 | a); };
  std::vector<std::pair<uint64_t, uint32_t>> old_keys(old_w.hinge_count());
  for (uint32_t h = 0; h < old_w.hinge_count(); ++h) old_keys[h] = {key(old_w.hinge[h][0], old_w.hinge[h][1]), h};
  std::sort(old_keys.begin(), old_keys.end());
  for (size_t h = 0; h < new_w.hinge_count(); ++h) {
    const VertexOrigin& a = edit.origin[new_w.hinge[h][0]];
    const VertexOrigin& b = edit.origin[new_w.hinge[h][1]];
    if (a.t != 0.f || b.t != 0.f) continue;  // a split edge: keeps the material's angle
    const auto it = std::lower_bound(old_keys.begin(), old_keys.end(), std::make_pair(key(a.a, b.a), 0u));
    if (it != old_keys.end() && it->first == key(a.a, b.a)) angles[h] = old_angles[it->second];
  }
}

}  // namespace

EditReport World::edit(const ClothEdit& e) {
  EditReport report;
  const auto t0 = WallClock::now();
  auto refuse = [&](const char* why) {
    report.refused = why;
    ++edits_refused_;
    return report;
  };
  if (!finite(e.from) || !finite(e.to) || !std::isfinite(e.radius) || !std::isfinite(e.factor))
    return refuse("the edit has a NaN or infinite value");
  // A topology edit starts from the rest shape a scaling under way is going to (sim/rest_ramp.h).
  if (e.kind != EditKind::Scale && finish_rest_ramp(rest_ramp_, model_.cloth, model_.rest_scale)) rest_shape_changed();
  const ClothModel& old = model_.cloth;
  const Mesh rest{old.rest_position, old.material_coord, old.triangle};
  const glm::vec3* x = state_.cloth.position.data();
  MeshEdit me;
  std::vector<float> scale = model_.rest_scale;
  const char* why = nullptr;
  if (e.kind == EditKind::Cut) {
    why = cut_mesh(rest, old.topology, x, e.from, e.to, e.radius, me);
  } else if (e.kind == EditKind::Remove) {
    why = remove_in_brush(rest, x, e.from, e.radius, me);
  } else {
    // Scaling changes the rest shape only: the model is rescaled in place, and of what derives from it only
    // the flat pieces and the tethers (rest path lengths) are rebuilt; the topology, masses, integrator and
    // self-collision hierarchy stay.
    if (!(e.radius > 0.f)) return refuse("the brush radius must be positive");
    if (!(e.factor > 0.f)) return refuse("the scale factor must be positive");
    // A dab during the ramp of another scales on from where that one is going (sim/rest_ramp.h).
    if (rest_ramp_.active()) scale = rest_ramp_.target;
    if (scale_in_brush(old, x, e.from, e.radius, e.factor, scale) == 0) return refuse("nothing inside the brush");
    start_rest_ramp(rest_ramp_, model_.rest_scale, std::move(scale), rest_ramp_ticks());
    energy_cached_ = false;
    report.applied = true;
    ++edits_applied_;
    report.rebuild_ms = ms_between(t0, WallClock::now());
    return report;
  }
  if (why) return refuse(why);
  auto lap = [last = t0](double& into) mutable {
    const auto now = WallClock::now();
    into += ms_between(last, now);
    last = now;
  };
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
  std::vector<float> new_scale(me.triangle_parent.size());
  for (size_t t = 0; t < new_scale.size(); ++t) new_scale[t] = scale[me.triangle_parent[t]];
  // The crease lines again, those still on an interior edge (a removal may have taken a whole one).
  std::vector<CreaseLine> creases;
  if (!old.creases.empty()) {
    const Topology topo = build_topology(me.mesh);
    for (const CreaseLine& line : old.creases)
      for (size_t e = 0; e < topo.edges.size(); ++e)
        if (topo.edge_triangles[e][1] >= 0 &&
            edge_on_crease(line, me.mesh.material[topo.edges[e][0]], me.mesh.material[topo.edges[e][1]])) {
          creases.push_back(line);
          break;
        }
  }
  ClothModel cloth;
  try {
    cloth = build_cloth_model(me.mesh, material, pins, creases);
  } catch (const std::exception&) {
    return refuse("the edited cloth would not be a valid model");
  }
  apply_rest_scale(cloth, new_scale);
  lap(report.stage_ms.model);

  report.mass_removed = e.kind == EditKind::Remove || crumbs > 0 ? std::max(0.f, old.total_mass() - cloth.total_mass()) : 0.f;
  report.vertices_added = me.vertices_added;
  report.vertices_removed = me.vertices_removed;
  report.triangles_added = me.triangles_added;
  report.triangles_removed = me.triangles_removed;
  ClothModel old_cloth = std::move(model_.cloth);
  model_.cloth = std::move(cloth);
  model_.rest_scale = std::move(new_scale);
  remap_after_edit(me, old_cloth, report.stage_ms);
  report.applied = true;
  ++edits_applied_;
  report.rebuild_ms = ms_between(t0, WallClock::now());
  return report;
}

void World::remap_after_edit(const MeshEdit& me, const ClothModel& old_cloth, EditReport::Stages& ms) {
  auto lap = [last = WallClock::now()](double& into) mutable {
    const auto now = WallClock::now();
    into += ms_between(last, now);
    last = now;
  };
  const ClothModel& cloth = model_.cloth;
  const size_t n = cloth.vertex_count();
  const std::vector<uint32_t> to_new = primary_copies(me, old_cloth.vertex_count());
  auto mapped = [&](uint32_t i) { return i < to_new.size() ? to_new[i] : UINT32_MAX; };

  // The self-collision hierarchy depends on the new model only: it is built on a second thread while this
  // one remaps the state and builds the rest (the same either way, so the results do not depend on the
  // machine). Its leaf order is the old one carried through the edit (bvh.h).
  std::unique_ptr<SelfCollision> self;
  std::exception_ptr self_failed;
  // (The old hierarchy is only read, and replaced after the join.)
  auto build_self = [&] {
    const auto start = WallClock::now();
    try {
      self = std::make_unique<SelfCollision>(cloth, model_.config.self_collision,
                                             carry_triangle_order(me, self_collision_->leaf_order()));
    } catch (...) {
      self_failed = std::current_exception();
    }
    ms.self_collision = ms_between(start, WallClock::now());
  };
  struct Joined {  // joined on every way out, an exception included
    std::thread thread;
    ~Joined() {
      if (thread.joinable()) thread.join();
    }
  } helper;
  if (self_collision_ && std::thread::hardware_concurrency() >= 2) helper.thread = std::thread(build_self);

  // The cloth's state: interpolated where a vertex was made on an edge; contacts carried by vertex.
  ClothState old = std::move(state_.cloth);
  ClothState& c = state_.cloth;
  c = make_rest_state(cloth);
  for (size_t i = 0; i < n; ++i) {
    const VertexOrigin& o = me.origin[i];
    c.position[i] = glm::mix(old.position[o.a], old.position[o.b], o.t);
    c.velocity[i] = glm::mix(old.velocity[o.a], old.velocity[o.b], o.t);
  }
  // Without self-collision the lips of a cut part a little at once (each copy toward its own side's
  // triangles). With it they stay where they were cut: the twins are exempt from self-contact with each other
  // until they part (sim/cut_twins.h); parting them by half the thickness stretched the edges round each copy
  // 12 % on a 1.7 cm grid and set the lips moving at 0.15 m/s into contacts beside the exemption.
  if (!self_collision_) {
    std::vector<uint8_t> copies(old_cloth.vertex_count(), 0);
    for (size_t i = 0; i < n; ++i)
      if (me.origin[i].t == 0.f && copies[me.origin[i].a] < 2) ++copies[me.origin[i].a];
    std::vector<glm::vec3> toward(n, glm::vec3(0.f));
    std::vector<float> count(n, 0.f);
    for (const auto& tri : cloth.triangle) {
      const glm::vec3 centroid = (c.position[tri[0]] + c.position[tri[1]] + c.position[tri[2]]) / 3.f;
      for (uint32_t v : tri)
        if (me.origin[v].t == 0.f && copies[me.origin[v].a] > 1) toward[v] += centroid, count[v] += 1.f;
    }
    const float gap = 5e-4f;
    for (size_t i = 0; i < n; ++i) {
      if (count[i] == 0.f) continue;
      const glm::vec3 d = toward[i] / count[i] - c.position[i];
      const float len = glm::length(d);
      if (len > 0.f) c.position[i] += std::min(gap, 0.25f * len) / len * d;
    }
  }
  c.time = old.time;
  c.step_count = old.step_count;
  c.contact_axes = old.contact_axes;
  for (size_t k = 0; k < old.contact_filter.size(); ++k) {
    const uint32_t v = mapped(old.contact_filter.vertex[k]);
    if (v == UINT32_MAX) continue;
    ContactFilter& f = c.contact_filter;
    f.entry_of_vertex[v] = uint32_t(f.vertex.size());
    f.vertex.push_back(v);
    f.normal.push_back(old.contact_filter.normal[k]);
    f.dv_normal.push_back(old.contact_filter.dv_normal[k]);
    f.friction.push_back(old.contact_filter.friction[k]);
    f.slip.push_back(old.contact_filter.slip[k]);
    f.impulse.push_back(old.contact_filter.impulse[k]);
    f.distance.push_back(k < old.contact_filter.distance.size() ? old.contact_filter.distance[k] : 0.f);
  }
  if (!c.plastic_strain.empty() && old.plastic_strain.size() == old_cloth.triangle_count())
    for (size_t t = 0; t < c.plastic_strain.size(); ++t) c.plastic_strain[t] = old.plastic_strain[me.triangle_parent[t]];
  if (!c.hinge_rest_angle.empty())
    carry_hinge_angles(old_cloth.weft_warp, old.hinge_rest_angle, cloth.weft_warp, me, c.hinge_rest_angle);

  // What the devices hold (a removed vertex drops out of its grasp), the elastic pins and the seams.
  // Every copy of a held or pinned vertex stays held: a cut through a grip leaves both lips in the hand.
  std::vector<uint32_t> next_copy(n, UINT32_MAX);  // the next copy of the same old vertex, a chain from the primary
  {
    std::vector<uint32_t> last(to_new);
    for (uint32_t i = 0; i < n; ++i) {
      const VertexOrigin& o = me.origin[i];
      if (o.t != 0.f || to_new[o.a] == i) continue;
      next_copy[last[o.a]] = i;
      last[o.a] = i;
    }
  }
  ElasticSet carried;
  auto remap_set = [&](ElasticSet& set) {
    carried.clear();
    for (size_t k = 0; k < set.size(); ++k)
      for (uint32_t v = mapped(set.vertex[k]); v != UINT32_MAX; v = next_copy[v]) {
        carried.vertex.push_back(v);
        carried.offset.push_back(set.offset[k]);
        carried.weight.push_back(set.weight[k]);
      }
    set.vertex.assign(carried.vertex.begin(), carried.vertex.end());
    set.offset.assign(carried.offset.begin(), carried.offset.end());
    set.weight.assign(carried.weight.begin(), carried.weight.end());
    set.vertex.reserve(n);
    set.offset.reserve(n);
    set.weight.reserve(n);
  };
  // A cut's twins (sim/cut_twins.h): the copies of one old vertex or of one point on an old edge, and the
  // old live twins carried (every copy of each side).
  std::vector<std::array<uint32_t, 2>> twins;
  if (self_collision_) {
    for (const auto& [p, q] : self_collision_->cut_twins().live())
      for (uint32_t u = mapped(p); u != UINT32_MAX; u = next_copy[u])
        for (uint32_t w = mapped(q); w != UINT32_MAX; w = next_copy[w]) twins.push_back({u, w});
    struct Key {
      uint32_t a, b;
      float t;
      uint32_t v;
    };
    std::vector<Key> keys;
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
        for (size_t q = p + 1; q < j; ++q) twins.push_back({keys[p].v, keys[q].v});
      i = j;
    }
  }
  for (ElasticSet& set : state_.held) remap_set(set);
  remap_set(model_.pins);
  // Seams (the scene's in the model, those now in the state): a pair with a removed vertex goes.
  auto remap_seams = [&](SeamSet& seams) {
    size_t kept = 0;
    for (size_t k = 0; k < seams.size(); ++k) {
      const uint32_t a = mapped(seams.a[k]), b = mapped(seams.b[k]), cc = mapped(seams.c[k]);
      if (a == UINT32_MAX || b == UINT32_MAX || cc == UINT32_MAX) continue;
      seams.a[kept] = a, seams.b[kept] = b, seams.c[kept] = cc;
      seams.w[kept] = seams.w[k], seams.sewn[kept] = seams.sewn[k];
      ++kept;
    }
    seams.a.resize(kept), seams.b.resize(kept), seams.c.resize(kept), seams.w.resize(kept), seams.sewn.resize(kept);
  };
  remap_seams(model_.seams);
  remap_seams(state_.seams);
  state_.seam_driven.clear();
  state_.seam_driven.reserve(n);
  state_.elastic_held.clear();
  state_.elastic_held.reserve(n);

  // The world model's derived tables, the scratch, the integrator (its colouring and multigrid hierarchy)
  // and the self-collision's hierarchy.
  model_.is_fixed.assign(n, 0);
  model_.fixed.clear();
  for (uint32_t i = 0; i < n; ++i)
    if (cloth.pinned[i]) model_.is_fixed[i] = 1, model_.fixed.push_back(i);
  for (uint32_t i : model_.pins.vertex)
    if (!model_.is_fixed[i]) model_.is_fixed[i] = 1, model_.fixed.push_back(i);
  lap(ms.state);
  model_.adjacency = build_adjacency(cloth);
  model_.flat_pieces = find_flat_pieces(cloth, model_.adjacency);
  model_.pin_tethers.anchor.resize(n);
  model_.pin_tethers.length.resize(n);
  scratch_.last_contact_filter.clear();  // its entries name old vertices: cleared while its table still fits them
  scratch_.resize(cloth);
  scratch_.elastic.clear();
  lap(ms.adjacency);
  integrator_ = make_integrator(model_.config.integrator, cloth, model_.config.solver);
  lap(ms.integrator);
  for (int d = 0; d < kDeviceCount; ++d) {
    state_.tethers[d].anchor.resize(n);
    state_.tethers[d].length.resize(n);
    if (state_.held[d].vertex.empty()) state_.tethers[d].active = false;
    else rebuild_tethers(d);
  }
  rebuild_pin_tethers();
  energy_cached_ = false;
  lap(ms.tethers);
  if (helper.thread.joinable()) helper.thread.join();
  else if (self_collision_) build_self();
  if (self_failed) std::rethrow_exception(self_failed);
  if (self_collision_) {
    self->carry_overlaps(*self_collision_, me.triangle_parent);
    self->set_cut_twins(cloth, twins);
    self_collision_ = std::move(self);
    self_collision_->request_tangle_scan();
  }
  seams_changed();  // the seams' vertex numbers changed: self-collision's seam neighbours follow
}

}  // namespace weft
