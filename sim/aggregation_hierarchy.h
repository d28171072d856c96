#pragma once
// The coarse levels of the multigrid solver (multigrid_solver.h): vertices grouped into aggregates (a
// vertex and its free neighbours, the plain aggregation of Vanek et al. 1996), aggregates into coarser
// aggregates, down to a few dozen nodes. Depends only on the mesh's links, so it is built once per mesh;
// the coarse matrices are re-assembled from the fine one every step (multigrid_solver.cpp).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft {

// One coarsening: fine nodes -> coarse nodes, fine links -> coarse links.
struct AggregationLevel {
  uint32_t fine_count = 0, coarse_count = 0;
  std::vector<uint32_t> aggregate;                    // coarse node of each fine node (fine_count)
  std::vector<std::array<uint32_t, 2>> coarse_link;   // distinct coarse node pairs joined by a fine link
  std::vector<int32_t> link_map;                      // per fine link: its coarse link, -1 inside an aggregate
};

struct AggregationHierarchy {
  std::vector<AggregationLevel> levels;  // levels[0] coarsens the mesh's vertices
};

// Links of node i as a CSR list (both directions), used by the smoothers and the aggregation. Each
// node's entries are sorted by the other node, so [offset[i], upper[i]) are its lower neighbours
// (other < i) and [upper[i], offset[i + 1]) its upper ones.
struct NodeAdjacency {
  std::vector<uint32_t> offset;  // entries of node i: [offset[i], offset[i + 1]) (n + 1)
  std::vector<uint32_t> upper;   // first entry of node i whose other node is above i (n)
  std::vector<uint32_t> other;   // the node at the other end
  std::vector<uint32_t> link;    // the link index
};
NodeAdjacency node_adjacency(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links);

// Coarsens until a level has at most `coarsest` nodes (or stops shrinking). The first level aggregates
// over the first `aggregation_links` links only (the structural edges: bending pairs reach two rings out
// and would make the aggregates too large); all links are mapped.
AggregationHierarchy build_aggregation_hierarchy(uint32_t node_count, const std::vector<std::array<uint32_t, 2>>& links,
                                                 size_t aggregation_links, uint32_t coarsest = 48);

}  // namespace weft
