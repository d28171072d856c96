#include "sim/world_model.h"

namespace weft {

WorldModel make_world_model(ClothModel cloth, const WorldConfig& config) {
  WorldModel m;
  m.cloth = std::move(cloth);
  m.config = config;
  const size_t n = m.cloth.vertex_count();
  m.adjacency = build_adjacency(m.cloth);
  m.flat_pieces = find_flat_pieces(m.cloth, m.adjacency);
  m.rest_scale.assign(m.cloth.triangle_count(), 1.f);
  m.is_fixed.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i)
    if (m.cloth.pinned[i]) {
      m.fixed.push_back(i);
      m.is_fixed[i] = 1;
    }
  m.pin_tethers.anchor.resize(n);
  m.pin_tethers.length.resize(n);
  return m;
}

}  // namespace weft
