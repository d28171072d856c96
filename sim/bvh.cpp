#include "sim/bvh.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/connected_pieces.h"

namespace weft {
namespace {

bool overlap(const BvhNode& a, const BvhNode& b) {
  return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
         b.lo.z <= a.hi.z;
}

// Leaf pairs sharing an edge: skipped when their normals are closer than half the cone limit
// (cos > this). Pairs touching at one corner are judged by that corner's whole fan (fan_cone), not by
// their own two normals, which say nothing of the triangles between them (culling on those, the
// approximate-solver hand fold of `weft validate self-collision --reduced` ended with 6 crossings, and the
// 16k crumple with 89 at the full limit, 1 at half of it).
float adjacent_cos_for(float cone_limit) { return cone_limit < 0.f ? 2.f : std::cos(0.5f * cone_limit); }

bool share_edge(const std::array<uint32_t, 3>& p, const std::array<uint32_t, 3>& q) {
  int shared = 0;
  for (uint32_t v : p) shared += (v == q[0] || v == q[1] || v == q[2]) ? 1 : 0;
  return shared >= 2;
}

uint32_t find_root(std::vector<uint32_t>& parent, uint32_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

// Whether the triangles [begin, end) form one patch connected through shared edges.
bool edge_connected(const ClothModel& model, const uint32_t* begin, const uint32_t* end,
                    std::vector<int32_t>& slot, std::vector<uint32_t>& parent) {
  const size_t n = size_t(end - begin);
  parent.resize(n);
  std::iota(parent.begin(), parent.end(), 0u);
  for (size_t k = 0; k < n; ++k) slot[begin[k]] = int32_t(k);
  size_t groups = n;
  const auto& edge_tri = model.topology.edge_triangles;
  for (size_t k = 0; k < n; ++k)
    for (uint32_t e : model.triangle_edge[begin[k]])
      for (int32_t other : edge_tri[e]) {
        if (other < 0 || slot[size_t(other)] < 0) continue;
        const uint32_t ra = find_root(parent, uint32_t(k)), rb = find_root(parent, uint32_t(slot[size_t(other)]));
        if (ra != rb) { parent[ra] = rb; --groups; }
      }
  for (size_t k = 0; k < n; ++k) slot[begin[k]] = -1;
  return groups == 1;
}

}  // namespace

TriangleBvh::TriangleBvh(const ClothModel& model) : triangle_(model.triangle), normal_(model.triangle_count()) {
  std::vector<uint32_t> order(model.triangle_count());
  std::iota(order.begin(), order.end(), 0u);
  construct(model, order, false);
}

TriangleBvh::TriangleBvh(const ClothModel& model, std::vector<uint32_t> leaf_order)
    : triangle_(model.triangle), normal_(model.triangle_count()) {
  // Not a permutation of this model's triangles: the usual build.
  bool permutation = leaf_order.size() == model.triangle_count();
  std::vector<uint8_t> seen(permutation ? leaf_order.size() : 0, 0);
  for (size_t k = 0; permutation && k < leaf_order.size(); ++k) {
    const uint32_t t = leaf_order[k];
    permutation = t < seen.size() && !seen[t];
    if (permutation) seen[t] = 1;
  }
  if (!permutation) {
    leaf_order.resize(model.triangle_count());
    std::iota(leaf_order.begin(), leaf_order.end(), 0u);
  }
  construct(model, leaf_order, permutation);
}

std::vector<uint32_t> TriangleBvh::leaf_order() const {
  std::vector<uint32_t> order;
  order.reserve(leaf_of_triangle_.size());
  for (const BvhNode& node : nodes_)
    if (node.triangle >= 0) order.push_back(uint32_t(node.triangle));
  return order;
}

void TriangleBvh::construct(const ClothModel& model, std::vector<uint32_t>& order, bool ordered) {
  const size_t ntri = model.triangle_count();
  ordered_ = ordered;
  if (!ordered) {
    centroid_.resize(ntri);
    for (size_t t = 0; t < ntri; ++t) {
      const auto& tri = model.triangle[t];
      centroid_[t] = (model.rest_position[tri[0]] + model.rest_position[tri[1]] + model.rest_position[tri[2]]) / 3.f;
    }
  }
  // Connected pieces (through shared vertices), so that no node below a piece's root mixes pieces.
  const std::vector<uint32_t> piece = connected_pieces(model.vertex_count(), model.triangle);
  component_.resize(ntri);
  for (size_t t = 0; t < ntri; ++t) component_[t] = piece[model.triangle[t][0]];

  // Feature ownership: the first triangle that holds a vertex or an edge tests it.
  feature_mask_.assign(ntri, 0);
  std::vector<uint8_t> vertex_taken(model.vertex_count(), 0), edge_taken(model.edge_count, 0);
  for (size_t t = 0; t < ntri; ++t)
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = model.triangle[t][k], e = model.triangle_edge[t][k];
      if (!vertex_taken[v]) { vertex_taken[v] = 1; feature_mask_[t] |= uint8_t(1u << k); }
      if (!edge_taken[e]) { edge_taken[e] = 1; feature_mask_[t] |= uint8_t(1u << (3 + k)); }
    }

  nodes_.reserve(2 * ntri);
  order_begin_ = order.data();
  run_end_.resize(ntri);
  mark_runs(order.data(), order.data() + ntri);
  if (ntri > 0) build(model, order.data(), order.data() + ntri);

  // Connectivity flag per node (edge-connected patch), used by the curvature criterion. Bottom-up: each
  // shared edge joins its two triangles at the lowest node holding both, and a node is one patch when its
  // children's patch counts less the joins made there come to one. One union-find over every triangle
  // serves all nodes (children have higher indices, so a node's joins come after all of its subtree's,
  // and those only ever merged triangles of that subtree): O(n log n), where gathering each node's
  // triangles again took 28 of the 65 ms a 16k-vertex cloth's hierarchy took to build.
  const size_t nnode = nodes_.size();
  std::vector<int32_t> up(nnode, -1);
  std::vector<uint32_t> depth(nnode, 0), leaf(ntri, 0);
  for (size_t i = 0; i < nnode; ++i) {
    const BvhNode& node = nodes_[i];
    if (i > 0) depth[i] = depth[size_t(up[i])] + 1;
    if (node.triangle >= 0) leaf[size_t(node.triangle)] = uint32_t(i);
    else up[size_t(node.left)] = up[size_t(node.right)] = int32_t(i);
  }
  const auto& edge_tri = model.topology.edge_triangles;
  std::vector<uint32_t> join_start(nnode + 1, 0), join_edge;
  std::vector<uint32_t> lowest(edge_tri.size(), UINT32_MAX);
  for (size_t e = 0; e < edge_tri.size(); ++e) {
    const auto [ta, tb] = edge_tri[e];
    if (ta < 0 || tb < 0) continue;
    uint32_t a = leaf[size_t(ta)], b = leaf[size_t(tb)];
    while (a != b) {
      if (depth[a] < depth[b]) std::swap(a, b);
      a = uint32_t(up[a]);
    }
    lowest[e] = a;
    ++join_start[a + 1];
  }
  for (size_t i = 0; i < nnode; ++i) join_start[i + 1] += join_start[i];
  join_edge.resize(join_start[nnode]);
  std::vector<uint32_t> fill(join_start.begin(), join_start.end() - 1);
  for (size_t e = 0; e < edge_tri.size(); ++e)
    if (lowest[e] != UINT32_MAX) join_edge[fill[lowest[e]]++] = uint32_t(e);
  std::vector<uint32_t> dsu(ntri), patches(nnode, 1);
  std::iota(dsu.begin(), dsu.end(), 0u);
  for (size_t i = nnode; i-- > 0;) {
    BvhNode& node = nodes_[i];
    if (node.triangle >= 0) { node.connected = 1; continue; }
    uint32_t count = patches[size_t(node.left)] + patches[size_t(node.right)];
    for (uint32_t k = join_start[i]; k < join_start[i + 1]; ++k) {
      const auto [ta, tb] = edge_tri[join_edge[k]];
      const uint32_t ra = find_root(dsu, uint32_t(ta)), rb = find_root(dsu, uint32_t(tb));
      if (ra != rb) { dsu[ra] = rb; --count; }
    }
    patches[i] = count;
    node.connected = count == 1 ? 1 : 0;
  }
  centroid_ = {};
  component_ = {};
  run_end_ = {};
  build_boundaries(model);
  build_fans(model);
  leaf_of_triangle_.assign(ntri, 0);
  for (size_t i = nodes_.size(); i-- > 0;) {
    if (nodes_[i].triangle >= 0) leaf_of_triangle_[size_t(nodes_[i].triangle)] = int32_t(i);
    else inner_bottom_up_.push_back(int32_t(i));
  }
}

void TriangleBvh::build_boundaries(const ClothModel& model) {
  // Bottom-up: a node's (vertex, triangles of the node using it) list is the merge of its children's,
  // less the vertices all of whose triangles are inside the node (interior). The lists go one after the
  // other into one buffer (children before their parent): a vector per node was 64 k allocations and
  // frees at 16 k vertices, a third of the hierarchy's build.
  std::vector<uint32_t> valence(model.vertex_count(), 0);
  for (const auto& tri : model.triangle)
    for (uint32_t v : tri) ++valence[v];
  using Use = std::pair<uint32_t, uint32_t>;
  std::vector<Use> uses, out;
  uses.reserve(3 * nodes_.size());
  std::vector<uint32_t> at(nodes_.size(), 0), count(nodes_.size(), 0);
  for (size_t i = nodes_.size(); i-- > 0;) {
    const BvhNode& node = nodes_[i];
    out.clear();
    if (node.triangle >= 0) {
      for (uint32_t v : triangle_[size_t(node.triangle)]) out.push_back({v, 1});
      std::sort(out.begin(), out.end());
    } else {
      const Use* l = uses.data() + at[size_t(node.left)];
      const Use* le = l + count[size_t(node.left)];
      const Use* r = uses.data() + at[size_t(node.right)];
      const Use* re = r + count[size_t(node.right)];
      while (l != le || r != re) {
        if (r == re || (l != le && l->first < r->first)) out.push_back(*l++);
        else if (l == le || r->first < l->first) out.push_back(*r++);
        else {
          out.push_back({l->first, l->second + r->second});
          ++l;
          ++r;
        }
      }
    }
    std::erase_if(out, [&](const Use& u) { return u.second >= valence[u.first]; });
    at[i] = uint32_t(uses.size());
    count[i] = uint32_t(out.size());
    uses.insert(uses.end(), out.begin(), out.end());
  }
  boundary_start_.assign(nodes_.size() + 1, 0);
  for (size_t i = 0; i < nodes_.size(); ++i) boundary_start_[i + 1] = boundary_start_[i] + count[i];
  boundary_.resize(boundary_start_.back());
  for (size_t i = 0; i < nodes_.size(); ++i)
    for (uint32_t k = 0; k < count[i]; ++k) boundary_[boundary_start_[i] + k] = uses[at[i] + k].first;
}

int TriangleBvh::shared_boundary(int32_t a, int32_t b, uint32_t& vertex) const {
  const uint32_t* p = boundary_.data() + boundary_start_[size_t(a)];
  const uint32_t* pe = boundary_.data() + boundary_start_[size_t(a) + 1];
  const uint32_t* q = boundary_.data() + boundary_start_[size_t(b)];
  const uint32_t* qe = boundary_.data() + boundary_start_[size_t(b) + 1];
  int shared = 0;
  while (p != pe && q != qe) {
    if (*p < *q) ++p;
    else if (*q < *p) ++q;
    else {
      if (shared == 0) vertex = *p;
      if (++shared == 2) return 2;
      ++p;
      ++q;
    }
  }
  return shared;
}

void TriangleBvh::build_fans(const ClothModel& model) {
  const size_t n = model.vertex_count();
  fan_start_.assign(n + 1, 0);
  for (const auto& t : model.triangle)
    for (uint32_t v : t) ++fan_start_[v + 1];
  for (size_t i = 0; i < n; ++i) fan_start_[i + 1] += fan_start_[i];
  fan_.resize(fan_start_.back());
  std::vector<uint32_t> fill(fan_start_.begin(), fan_start_.end() - 1);
  for (uint32_t t = 0; t < model.triangle_count(); ++t)
    for (uint32_t v : model.triangle[t]) fan_[fill[v]++] = t;
  // One patch: the fan's triangles joined through the edges at the vertex.
  fan_connected_.assign(n, 0);
  std::vector<int32_t> slot(model.triangle_count(), -1);
  std::vector<uint32_t> parent;
  for (size_t v = 0; v < n; ++v) {
    const uint32_t* begin = fan_.data() + fan_start_[v];
    const uint32_t* end = fan_.data() + fan_start_[v + 1];
    fan_connected_[v] = begin != end && edge_connected(model, begin, end, slot, parent) ? 1 : 0;
  }
  fan_cone_.assign(n, FanCone{});
  fan_stamp_.assign(n, UINT32_MAX);
}

const FanCone& TriangleBvh::fan_cone(uint32_t v) {
  FanCone& cone = fan_cone_[v];
  if (fan_stamp_[v] == refits_) return cone;
  fan_stamp_[v] = refits_;
  cone.half_angle = 3.14159265f;
  if (!fan_connected_[v]) return cone;
  glm::vec3 sum(0.f);
  for (uint32_t k = fan_start_[v]; k < fan_start_[v + 1]; ++k) {
    const glm::vec3& n = normal_[fan_[k]];
    if (n == glm::vec3(0.f)) return cone;  // degenerate
    sum += n;
  }
  const float len = glm::length(sum);
  if (!(len > 0.f)) return cone;
  cone.axis = sum / len;
  float least_cos = 1.f;
  for (uint32_t k = fan_start_[v]; k < fan_start_[v + 1]; ++k) least_cos = std::min(least_cos, glm::dot(cone.axis, normal_[fan_[k]]));
  cone.half_angle = acos_upper(least_cos);
  return cone;
}

void TriangleBvh::mark_runs(const uint32_t* begin, const uint32_t* end) {
  const size_t b = size_t(begin - order_begin_), e = size_t(end - order_begin_);
  for (size_t k = e; k-- > b;)
    run_end_[k] = k + 1 < e && component_[order_begin_[k]] == component_[order_begin_[k + 1]] ? run_end_[k + 1] : uint32_t(k + 1);
}

int32_t TriangleBvh::build(const ClothModel& model, uint32_t* begin, uint32_t* end) {
  const int32_t index = int32_t(nodes_.size());
  nodes_.emplace_back();
  if (end - begin == 1) {
    nodes_[size_t(index)].triangle = int32_t(*begin);
    return index;
  }
  uint32_t* mid = nullptr;
  // run_end_: where the run of one piece starting at each position ends (capped at the range it was
  // computed over), so that this test is O(1) instead of a pass over the range at every node.
  const bool one_piece = run_end_[size_t(begin - order_begin_)] >= uint32_t(end - order_begin_);
  if (!one_piece) {
    // Split between pieces, at the piece boundary nearest the middle.
    std::stable_sort(begin, end, [&](uint32_t a, uint32_t b) { return component_[a] < component_[b]; });
    mark_runs(begin, end);
    uint32_t* half = begin + (end - begin) / 2;
    uint32_t* lo = half;
    while (lo > begin && component_[*(lo - 1)] == component_[*lo]) --lo;
    uint32_t* hi = half;
    while (hi < end && component_[*(hi - 1)] == component_[*hi]) ++hi;
    mid = (lo > begin && (hi == end || half - lo <= hi - half)) ? lo : hi;
  } else if (ordered_) {
    mid = begin + (end - begin) / 2;
  } else {
    glm::vec3 lo(INFINITY), hi(-INFINITY);
    for (uint32_t* t = begin; t != end; ++t) { lo = glm::min(lo, centroid_[*t]); hi = glm::max(hi, centroid_[*t]); }
    const glm::vec3 extent = hi - lo;
    const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2);
    mid = begin + (end - begin) / 2;
    std::nth_element(begin, mid, end, [&](uint32_t a, uint32_t b) { return centroid_[a][axis] < centroid_[b][axis]; });
  }
  const int32_t left = build(model, begin, mid);
  const int32_t right = build(model, mid, end);
  nodes_[size_t(index)].left = left;
  nodes_[size_t(index)].right = right;
  return index;
}

void TriangleBvh::refit(const ClothModel& model, const glm::vec3* x, const glm::vec3* xp, float margin) {
  ++refits_;
  constexpr float pi = 3.14159265358979f;
  const size_t ntri = leaf_of_triangle_.size();
  for (size_t t = 0; t < ntri; ++t) {
    const auto& tri = model.triangle[t];
    const glm::vec3 &a = x[tri[0]], &b = x[tri[1]], &c = x[tri[2]];
    const glm::vec3 &pa = xp[tri[0]], &pb = xp[tri[1]], &pc = xp[tri[2]];
    BvhNode& node = nodes_[size_t(leaf_of_triangle_[t])];
    node.lo = glm::min(glm::min(glm::min(a, b), glm::min(c, pa)), glm::min(pb, pc)) - margin;
    node.hi = glm::max(glm::max(glm::max(a, b), glm::max(c, pa)), glm::max(pb, pc)) + margin;
    const glm::vec3 area_normal = 0.5f * glm::cross(b - a, c - a);
    const float len = glm::length(area_normal);
    const bool degenerate = !(len > 0.f);
    node.normal_sum = area_normal;
    node.cone_axis = degenerate ? glm::vec3(0.f) : area_normal / len;
    node.cone_half_angle = degenerate ? pi : 0.f;
    normal_[t] = node.cone_axis;
  }
  for (const int32_t i : inner_bottom_up_) {
    BvhNode& node = nodes_[size_t(i)];
    const BvhNode& l = nodes_[size_t(node.left)];
    const BvhNode& r = nodes_[size_t(node.right)];
    node.lo = glm::min(l.lo, r.lo);
    node.hi = glm::max(l.hi, r.hi);
    node.normal_sum = l.normal_sum + r.normal_sum;
    const float len = glm::length(node.normal_sum);
    if (!(len > 0.f) || l.cone_half_angle >= pi || r.cone_half_angle >= pi) {
      node.cone_axis = glm::vec3(0.f);
      node.cone_half_angle = pi;
      continue;
    }
    node.cone_axis = node.normal_sum / len;
    // The merged cone contains both child cones: the angle to each child axis plus its half-angle.
    const float al = acos_upper(glm::dot(node.cone_axis, l.cone_axis)) + l.cone_half_angle;
    const float ar = acos_upper(glm::dot(node.cone_axis, r.cone_axis)) + r.cone_half_angle;
    node.cone_half_angle = std::min(pi, std::max(al, ar));
  }
}

void TriangleBvh::pairs_touching(const uint8_t* flagged, float cone_limit, std::vector<TrianglePair>& out,
                                 size_t max_pairs, bool fans) {
  // Which subtrees hold a flagged leaf (children come after their parent).
  node_flagged_.resize(nodes_.size());
  for (size_t i = nodes_.size(); i-- > 0;) {
    const BvhNode& node = nodes_[i];
    node_flagged_[i] = node.triangle >= 0 ? (flagged[size_t(node.triangle)] != 0)
                                          : (node_flagged_[size_t(node.left)] | node_flagged_[size_t(node.right)]);
  }
  traverse(cone_limit, out, max_pairs, node_flagged_.data(), fans);
}

void TriangleBvh::self_pairs(float cone_limit, std::vector<TrianglePair>& out, size_t max_pairs, bool fans) {
  out.clear();
  traverse(cone_limit, out, max_pairs, nullptr, fans);
}

void TriangleBvh::traverse(float cone_limit, std::vector<TrianglePair>& out, size_t max_pairs,
                           const uint8_t* node_flagged, bool fans) {
  stats_ = {};
  if (nodes_.empty()) return;
  const size_t first = out.size();
  const float adjacent_cos = adjacent_cos_for(cone_limit);
  // With flags, a node pair is only looked at when one side holds a flagged leaf.
  auto wanted = [node_flagged](int32_t a, int32_t b) {
    return !node_flagged || node_flagged[size_t(a)] || node_flagged[size_t(b)];
  };
  // Whether a's cone widened to hold b (the angle from a's axis to b's farthest normal: reach_b) and
  // vertex v's fan stays under the limit.
  auto joined_flat = [&](const BvhNode& a, float reach_b, uint32_t v, float limit) {
    if (!fans) return false;
    const FanCone& fan = fan_cone(v);
    if (fan.half_angle >= limit) return false;
    const float reach_fan = acos_upper(glm::dot(a.cone_axis, fan.axis)) + fan.half_angle;
    return std::max({a.cone_half_angle, reach_b, reach_fan}) < limit;
  };
  stack_.clear();
  if (wanted(0, 0)) stack_.push_back({0, 0});
  while (!stack_.empty()) {
    const auto [ia, ib] = stack_.back();
    stack_.pop_back();
    ++stats_.node_visits;
    const BvhNode& a = nodes_[size_t(ia)];
    if (ia == ib) {
      if (a.triangle >= 0) continue;
      if (a.connected && a.cone_half_angle < cone_limit) { ++stats_.cone_skips; continue; }
      if (wanted(a.left, a.left)) stack_.push_back({a.left, a.left});
      if (wanted(a.right, a.right)) stack_.push_back({a.right, a.right});
      if (wanted(a.left, a.right) && overlap(nodes_[size_t(a.left)], nodes_[size_t(a.right)]))
        stack_.push_back({a.left, a.right});
      continue;
    }
    const BvhNode& b = nodes_[size_t(ib)];  // pushed only when the boxes overlap
    // Two neighbouring flat-ish patches: the smallest cone holding both has half-angle
    // (angle between the axes + both half-angles) / 2.
    // Touching at one vertex only, they are one patch with that vertex's fan (both hold a triangle of
    // it): culled when a cone around a's axis holds all three. Along a draped cloth's folds the subtrees'
    // own cones are wide, and the traversal walked down to every corner neighbour across them.
    if ((a.triangle < 0 || b.triangle < 0) && a.connected && b.connected &&
        a.cone_half_angle + b.cone_half_angle < 2.f * cone_limit) {
      const float between = acos_upper(glm::dot(a.cone_axis, b.cone_axis));
      uint32_t v = 0;
      if (between + a.cone_half_angle + b.cone_half_angle < 2.f * cone_limit) {
        const int shared = shared_boundary(ia, ib, v);
        if (shared == 2 || (shared == 1 && joined_flat(a, between + b.cone_half_angle, v, cone_limit))) {
          ++stats_.adjacent_culled;
          continue;
        }
      }
    }
    if (a.triangle >= 0 && b.triangle >= 0) {
      const auto& ta = triangle_[size_t(a.triangle)];
      const auto& tb = triangle_[size_t(b.triangle)];
      if (glm::dot(a.cone_axis, b.cone_axis) > adjacent_cos && share_edge(ta, tb)) {
        ++stats_.adjacent_culled;
        continue;
      }
      // Corner neighbours: both in the corner's fan, culled when it is flat.
      if (cone_limit > 0.f && fans) {
        int32_t corner = -1;
        for (uint32_t u : ta)
          if (u == tb[0] || u == tb[1] || u == tb[2]) corner = int32_t(u);
        if (corner >= 0 && fan_cone(uint32_t(corner)).half_angle < cone_limit) {
          ++stats_.adjacent_culled;
          continue;
        }
      }
      if (out.size() >= max_pairs) {
        stats_.truncated = true;
        break;
      }
      out.push_back({uint32_t(a.triangle), uint32_t(b.triangle)});
      continue;
    }
    // Descend the inner node with the larger box (or the only inner one).
    const glm::vec3 ea = a.hi - a.lo, eb = b.hi - b.lo;
    const bool split_a = b.triangle >= 0 || (a.triangle < 0 && ea.x + ea.y + ea.z >= eb.x + eb.y + eb.z);
    if (split_a) {
      if (wanted(a.left, ib) && overlap(nodes_[size_t(a.left)], b)) stack_.push_back({a.left, ib});
      if (wanted(a.right, ib) && overlap(nodes_[size_t(a.right)], b)) stack_.push_back({a.right, ib});
    } else {
      if (wanted(ia, b.left) && overlap(a, nodes_[size_t(b.left)])) stack_.push_back({ia, b.left});
      if (wanted(ia, b.right) && overlap(a, nodes_[size_t(b.right)])) stack_.push_back({ia, b.right});
    }
  }
  stats_.leaf_pairs = out.size() - first;
}

}  // namespace weft
