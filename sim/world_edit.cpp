// World::edit and World::queue_edit: a cut, removal or rest-shape scaling (sim/cloth_edit.h). The model is
// fixed while the world runs except here. A cut or removal is built by build_edit (sim/edit_build.h: the new
// model and what derives from its topology), on this thread (edit) or on the edit worker while the world
// steps on (queue_edit, landing at a fixed step); land_edit then carries every vertex-indexed thing in the
// model and the state over to the new vertices and swaps the build in.
#include <cmath>
#include <algorithm>
#include <exception>
#include <thread>

#include "sim/mesh_cut.h"
#include "sim/mesh_edit.h"
#include "sim/mesh_remove.h"
#include "sim/rest_ramp.h"
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

EditBase World::edit_base() const {
  return {&model_.cloth, &model_.rest_scale, &model_.pins, nullptr};
}

EditReport World::edit(const ClothEdit& e) {
  EditReport report;
  report.kind = e.kind;
  const auto t0 = WallClock::now();
  auto refuse = [&](const char* why) {
    report.refused = why;
    ++edits_refused_;
    return report;
  };
  if (!finite(e.from) || !finite(e.to) || !std::isfinite(e.radius) || !std::isfinite(e.factor))
    return refuse("the edit has a NaN or infinite value");
  land_queued_edits();  // an edit applies to the cloth as the queued ones leave it
  if (editor_) editor_->forget_base();  // the model changes behind the worker's back
  // A topology edit starts from the rest shape a scaling under way is going to (sim/rest_ramp.h).
  if (e.kind != EditKind::Scale && finish_rest_ramp(rest_ramp_, model_.cloth, model_.rest_scale)) rest_shape_changed();
  if (e.kind == EditKind::Scale) {
    // Scaling changes the rest shape only: the model is rescaled in place, and of what derives from it only
    // the flat pieces and the tethers (rest path lengths) are rebuilt; the topology, masses, integrator and
    // self-collision hierarchy stay.
    std::vector<float> scale = model_.rest_scale;
    if (!(e.radius > 0.f)) return refuse("the brush radius must be positive");
    if (!(e.factor > 0.f)) return refuse("the scale factor must be positive");
    // A dab during the ramp of another scales on from where that one is going (sim/rest_ramp.h).
    if (rest_ramp_.active()) scale = rest_ramp_.target;
    if (scale_in_brush(model_.cloth, state_.cloth.position.data(), e.from, e.radius, e.factor, scale) == 0)
      return refuse("nothing inside the brush");
    start_rest_ramp(rest_ramp_, model_.rest_scale, std::move(scale), rest_ramp_ticks());
    energy_cached_ = false;
    report.applied = true;
    ++edits_applied_;
    report.rebuild_ms = ms_between(t0, WallClock::now());
    landed_ = report;
    return report;
  }
  const std::vector<uint32_t> leaf_order = self_collision_ ? self_collision_->leaf_order() : std::vector<uint32_t>{};
  EditBase base = edit_base();
  if (self_collision_) base.leaf_order = &leaf_order;
  EditBuild build;
  build_edit(e, base, model_.config, state_.cloth.position.data(), std::thread::hardware_concurrency() >= 2, build);
  if (!build.report.applied) return refuse(build.report.refused);
  EditReport::Landing landing;
  land_edit(build, landing);
  ++edits_applied_;
  report = build.report;
  report.kind = e.kind;
  report.stage_ms.state += landing.state;
  report.stage_ms.adjacency += landing.tables;
  report.stage_ms.tethers += landing.tethers;
  report.landing_ms = landing;
  report.rebuild_ms = ms_between(t0, WallClock::now());
  landed_ = report;
  return report;
}

EditReport World::queue_edit(const ClothEdit& e) {
  if (e.kind == EditKind::Scale || !finite(e.from) || !finite(e.to) || !std::isfinite(e.radius) ||
      !std::isfinite(e.factor))
    return edit(e);  // a scaling costs what a landing would (no new topology); a NaN is refused now
  // A scaling under way reaches its rest shape first: the worker reads the model, which a ramp rewrites each
  // tick (none starts while a job is queued: a scaling lands the queued edits first).
  if (finish_rest_ramp(rest_ramp_, model_.cloth, model_.rest_scale)) rest_shape_changed();
  if (!editor_) editor_ = std::make_unique<EditWorker>();
  auto job = std::make_unique<EditJob>();
  job->edit = e;
  job->due_step = state_.cloth.step_count + kEditLandingSteps;
  job->generation = topology_generation_;
  job->x = state_.cloth.position;
  job->config = model_.config;
  job->world = edit_base();
  if (self_collision_ && editor_->empty()) {
    // (read by the worker only with nothing queued before: then no landing replaces the hierarchy first)
    queued_leaf_order_ = self_collision_->leaf_order();
    job->world.leaf_order = &queued_leaf_order_;
  }
  EditReport report;
  report.kind = e.kind;
  report.queued = true;
  report.landing_step = job->due_step;
  editor_->submit(std::move(job));
  return report;
}

void World::land_queued_edits() { land_due_edits(true); }

void World::delay_edit_worker(double ms) {
  if (!editor_) editor_ = std::make_unique<EditWorker>();
  editor_->delay_ms = ms;
}

void World::land_due_edits(bool all) {
  while (editor_ && !editor_->empty() && (all || editor_->front_due() <= state_.cloth.step_count)) {
    const auto t0 = WallClock::now();
    std::unique_ptr<EditJob> job = editor_->take_front();
    EditReport::Landing landing;
    landing.wait = ms_between(t0, WallClock::now());
    EditReport& report = job->build.report;
    ++queued_landed_;
    if (report.applied) {
      land_edit(job->build, landing);
      ++edits_applied_;
      ++queued_applied_;
    } else {
      ++edits_refused_;
    }
    landing.total = ms_between(t0, WallClock::now());
    report.kind = job->edit.kind;
    report.queued = true;
    report.landing_step = state_.cloth.step_count;
    report.worker_ms = job->worker_ms;
    report.landing_ms = landing;
    landed_ = report;
    editor_->retire(std::move(job));  // the worker frees the old cloth's structures
  }
}

void World::land_edit(EditBuild& build, EditReport::Landing& ms) {
  auto lap = [last = WallClock::now()](double& into) mutable {
    const auto now = WallClock::now();
    into += ms_between(last, now);
    last = now;
  };
  const MeshEdit& me = build.me;
  EditBuild::Retired& retired = build.retired;
  retired.cloth = std::move(model_.cloth);
  const ClothModel& old_cloth = retired.cloth;
  model_.cloth = std::move(build.cloth);
  model_.rest_scale = std::move(build.rest_scale);
  const ClothModel& cloth = model_.cloth;
  const size_t n = cloth.vertex_count();
  const std::vector<uint32_t>& to_new = build.to_new;
  auto mapped = [&](uint32_t i) { return i < to_new.size() ? to_new[i] : UINT32_MAX; };

  // The cloth's state: interpolated where a vertex was made on an edge; contacts carried by vertex.
  retired.state = std::move(state_.cloth);
  const ClothState& old = retired.state;
  ClothState& c = state_.cloth;
  c = std::move(build.state);  // make_rest_state(cloth), made by the build
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
    f.body.push_back(old.contact_filter.body_of(k));
  }
  if (!c.plastic_strain.empty() && old.plastic_strain.size() == old_cloth.triangle_count())
    for (size_t t = 0; t < c.plastic_strain.size(); ++t) c.plastic_strain[t] = old.plastic_strain[me.triangle_parent[t]];
  if (!c.hinge_rest_angle.empty())
    carry_hinge_angles(old_cloth.weft_warp, old.hinge_rest_angle, cloth.weft_warp, me, c.hinge_rest_angle);

  // What the devices hold (a removed vertex drops out of its grasp), the elastic pins and the seams.
  // Every copy of a held or pinned vertex stays held: a cut through a grip leaves both lips in the hand.
  const std::vector<uint32_t>& next_copy = build.next_copy;
  ElasticSet carried;
  for (ElasticSet& set : state_.held) {
    carry_elastic_set(set, to_new, next_copy, carried);
    set.vertex.reserve(n);
    set.offset.reserve(n);
    set.weight.reserve(n);
  }
  model_.pins = std::move(build.pins);  // (carried by the build the same way)
  // A cut's twins (sim/cut_twins.h): the new ones the build found, and the old live twins carried (every
  // copy of each side).
  std::vector<std::array<uint32_t, 2>> twins;
  if (self_collision_) {
    for (const auto& [p, q] : self_collision_->cut_twins().live())
      for (uint32_t u = mapped(p); u != UINT32_MAX; u = next_copy[u])
        for (uint32_t w = mapped(q); w != UINT32_MAX; w = next_copy[w]) twins.push_back({u, w});
    twins.insert(twins.end(), build.twins.begin(), build.twins.end());
  }
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
  // What the build made from the topology: adjacency, flat pieces, pin tethers, the integrator (its colouring
  // and multigrid hierarchy) and the self-collision hierarchy; the scratch sized for the new cloth.
  std::swap(model_.adjacency, build.adjacency);
  std::swap(model_.flat_pieces, build.flat_pieces);
  std::swap(model_.pin_tethers, build.pin_tethers);
  retired.adjacency = std::move(build.adjacency);
  retired.flat_pieces = std::move(build.flat_pieces);
  retired.pin_tethers = std::move(build.pin_tethers);
  scratch_.last_contact_filter.clear();  // its entries name old vertices: cleared while its table still fits them
  scratch_.resize(cloth);
  scratch_.elastic.clear();
  if (model_.config.make_custom_integrator) {
    integrator_ = model_.config.make_custom_integrator(cloth, model_.config.solver);
  } else {
    std::swap(integrator_, build.integrator);
    retired.integrator = std::move(build.integrator);
  }
  if (self_collision_) {
    build.self->carry_overlaps(*self_collision_, me.triangle_parent);
    build.self->set_cut_twins(cloth, twins);
    std::swap(self_collision_, build.self);
    retired.self = std::move(build.self);
    self_collision_->request_tangle_scan();
  }
  seams_changed();  // the seams' vertex numbers changed: self-collision's seam neighbours follow
  ++topology_generation_;
  lap(ms.tables);
  for (int d = 0; d < kDeviceCount; ++d) {
    state_.tethers[d].anchor.resize(n);
    state_.tethers[d].length.resize(n);
    if (state_.held[d].vertex.empty()) state_.tethers[d].active = false;
    else rebuild_tethers(d);
  }
  energy_cached_ = false;
  lap(ms.tethers);
  ms.total = ms.state + ms.tables + ms.tethers;
}

}  // namespace weft
