#include "sim/freed_relaxation.h"

#include <cmath>

#include "sim/cloth_model.h"
#include "sim/contact_filter.h"
#include "sim/sym3.h"

namespace weft {
namespace {

// Phi_i(y) of one vertex with its neighbours where they are (the header's formula), J, in double: the
// changes sought are a few microjoules on top of millijoules.
double local_potential(const ClothModel& model, const std::vector<uint32_t>& links, uint32_t i, const glm::dvec3& y,
                       const glm::dvec3& target, double inertia, const glm::vec3* x) {
  const glm::dvec3 d = y - target;
  double phi = 0.5 * inertia * glm::dot(d, d);
  for (uint32_t l : links) {
    const uint32_t a = model.link[l][0], b = model.link[l][1];
    if (a != i && b != i) continue;
    const double s = glm::length(y - glm::dvec3(x[a == i ? b : a])) - double(model.rest_length[l]);
    phi += 0.5 * double(model.stiffness[l]) * s * s;
  }
  return phi;
}

// Kinetic, gravitational and link energy of `vertices` and their links at positions x, J; the velocities
// per vertex (v) or per entry of `vertices` (v_entry).
double set_energy(const ClothModel& model, const std::vector<uint32_t>& vertices, const std::vector<uint32_t>& links,
                  const glm::vec3* x, const glm::vec3* v, const glm::vec3* v_entry) {
  double e = 0;
  const glm::dvec3 g(model.material.gravity);
  for (size_t k = 0; k < vertices.size(); ++k) {
    const uint32_t i = vertices[k];
    const glm::dvec3 vi(v ? v[i] : v_entry[k]);
    e += double(model.mass[i]) * (0.5 * glm::dot(vi, vi) - glm::dot(g, glm::dvec3(x[i])));
  }
  for (uint32_t l : links) {
    const double s = double(glm::length(x[model.link[l][1]] - x[model.link[l][0]])) - double(model.rest_length[l]);
    e += 0.5 * double(model.stiffness[l]) * s * s;
  }
  return e;
}

}  // namespace

void FreedRelaxation::resize(size_t vertex_count, size_t link_count) {
  freed.reserve(vertex_count);
  vertices.reserve(vertex_count);
  in_set.assign(vertex_count, 0);
  links.reserve(link_count);
  v_start.reserve(vertex_count);
}

size_t relax_freed(const ClothModel& model, const std::vector<uint32_t>& vertices, const std::vector<uint32_t>& links,
                   const uint8_t* kinematic, const ContactFilter* filter, const glm::vec3* x0, const glm::vec3* v0,
                   float h, int sweeps, glm::vec3* x, glm::vec3* v) {
  // Only where the solve raised the energy of the vertices and their links (kinetic, gravity, elastic) from
  // the step's start: elsewhere the linear step did not overshoot, and a relaxed vertex's new velocity
  // (its position over h) came back as a kinetic rise one tick later (`weft stress` tracker_circle all,
  // 0.84 mJ taken by the fail-safe).
  if (set_energy(model, vertices, links, x, v, nullptr) <= set_energy(model, vertices, links, x0, nullptr, v0)) return 0;
  const double inv_h2 = 1.0 / (double(h) * double(h));
  const glm::dvec3 hhg = double(h) * double(h) * glm::dvec3(model.material.gravity);
  size_t moved = 0;
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (size_t k = 0; k < vertices.size(); ++k) {
      const uint32_t i = vertices[k];
      if (kinematic[i]) continue;
      if (filter && filter->entry_of_vertex.size() > i && filter->entry_of_vertex[i] != ContactFilter::kNone) continue;
      const double inertia = double(model.mass[i]) * inv_h2;
      const glm::dvec3 target = glm::dvec3(x0[i]) + double(h) * glm::dvec3(v0[k]) + hhg;
      glm::dvec3 y(x[i]);
      bool changed = false;
      for (int newton = 0; newton < 3; ++newton) {
        // gradient and Hessian of Phi_i, the links' transverse term kept only where stretched (PSD)
        glm::dvec3 grad = inertia * (y - target);
        Sym3 H = Sym3::identity(float(inertia));
        for (uint32_t l : links) {
          const uint32_t a = model.link[l][0], b = model.link[l][1];
          if (a != i && b != i) continue;
          const glm::dvec3 d = y - glm::dvec3(x[a == i ? b : a]);
          const double len = glm::length(d);
          if (!(len > 0.0)) continue;
          const glm::dvec3 u = d / len;
          const double kl = model.stiffness[l], rest = model.rest_length[l];
          grad += kl * (len - rest) * u;
          const double transverse = len > rest ? kl * (1.0 - rest / len) : 0.0;
          H += Sym3::outer(glm::vec3(u), float(kl - transverse));
          H.add_diagonal(float(transverse));
        }
        const glm::dvec3 step = -glm::dvec3(H.inverse() * glm::vec3(grad));
        if (!(glm::dot(step, step) > 1e-18)) break;
        const double phi = local_potential(model, links, i, y, target, inertia, x);
        double alpha = 1.0;
        bool lowered = false;
        for (int halving = 0; halving < 6 && !lowered; ++halving) {
          lowered = local_potential(model, links, i, y + alpha * step, target, inertia, x) < phi;
          if (!lowered) alpha *= 0.5;
        }
        if (!lowered) break;
        y += alpha * step;
        changed = true;
      }
      if (!changed) continue;
      x[i] = glm::vec3(y);
      v[i] = (x[i] - x0[i]) / h;
      ++moved;
    }
  return moved;
}

void note_held_vertices(const std::vector<uint32_t>& elastic_held, FreedRelaxation& r) {
  r.freed.assign(elastic_held.begin(), elastic_held.end());
}

bool begin_freed_relaxation(const ClothModel& model, const std::vector<uint32_t>& adjacency_offset,
                            const std::vector<uint32_t>& adjacency_neighbour, const uint8_t* kinematic,
                            const glm::vec3* v, FreedRelaxation& r) {
  size_t kept = 0;
  for (uint32_t i : r.freed)
    if (!kinematic[i]) r.freed[kept++] = i;
  r.freed.resize(kept);
  if (r.freed.empty()) return false;
  r.vertices.clear();
  auto add = [&](uint32_t i) {
    if (r.in_set[i]) return;
    r.in_set[i] = 1;
    r.vertices.push_back(i);
  };
  for (uint32_t i : r.freed) add(i);
  for (uint32_t i : r.freed)
    for (uint32_t k = adjacency_offset[i]; k < adjacency_offset[i + 1]; ++k) add(adjacency_neighbour[k]);
  r.links.clear();
  for (uint32_t l = 0; l < model.link_count_total(); ++l)
    if (r.in_set[model.link[l][0]] || r.in_set[model.link[l][1]]) r.links.push_back(l);
  r.v_start.clear();
  for (uint32_t i : r.vertices) {
    r.v_start.push_back(v[i]);
    r.in_set[i] = 0;
  }
  return true;
}

}  // namespace weft
