#pragma once
// The immutable description of one cloth: topology, rest shape, masses and baked material
// coefficients. Built once; every step reads it through a const reference.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/material.h"
#include "sim/mesh.h"
#include "sim/topology.h"
#include "sim/weft_warp_model.h"

namespace weft {

struct ClothModel {
  // --- vertices (nvert)
  std::vector<glm::vec3> rest_position;  // rest position per vertex, m
  std::vector<glm::vec2> material_coord; // material (weft, warp) coordinate per vertex, m
  std::vector<float> mass;               // lumped mass per vertex, kg
  std::vector<float> inv_mass;           // 1 / mass per vertex
  std::vector<float> vertex_area;        // lumped rest area per vertex (area / 3 per triangle), m^2
  std::vector<uint8_t> pinned;           // 1 if the vertex is pinned at its rest position (scene pins)
  std::vector<uint32_t> link_count;      // number of links per vertex, n_i of Kang Eq. 26

  // --- links (nlink): structural edges first [0, nedge), then bending pairs [nedge, nlink)
  std::vector<std::array<uint32_t, 2>> link;  // vertex pair per link
  std::vector<uint32_t> link_first;           // link[l][0] as its own array, for the vectorised passes
  std::vector<uint32_t> link_second;          // link[l][1], likewise
  std::vector<float> rest_length;             // l0 per link, m
  std::vector<float> stiffness;               // spring constant per link, N/m (for Volino edges: the
                                              // axial stiffness used in the Jacobian only)
  size_t edge_count = 0;                      // nedge
  size_t bend_count = 0;                      // nbend

  // --- triangles (ntri)
  std::vector<std::array<uint32_t, 3>> triangle;        // vertex indices
  std::vector<std::array<uint32_t, 3>> triangle_edge;   // link index of the edge opposite each corner
  std::vector<std::array<float, 3>> triangle_rest_edge; // L_i, rest length opposite corner i, m
  std::vector<std::array<float, 3>> triangle_strength;  // R_i / L_i, Volino Eq. 3, N/m
  std::vector<float> rest_area;                         // rest area per triangle, m^2

  WeftWarpModel weft_warp;  // weave triangles and hinges (empty unless material.stretch_model is WeftWarp)

  Material material;
  Topology topology;
  std::vector<CreaseLine> creases;  // the crease lines it was built with (World::edit builds again with them)

  size_t vertex_count() const { return rest_position.size(); }
  size_t link_count_total() const { return link.size(); }
  size_t triangle_count() const { return triangle.size(); }
  float total_mass() const;
};

// Builds the model from a validated mesh. Pins are vertex indices fixed at their rest position. Crease
// lines (crease_line.h) set the rest angle of the weft/warp hinges on them; they need a WeftWarp material.
// Throws std::invalid_argument naming the problem when the mesh, the material or a crease is unusable.
ClothModel build_cloth_model(const Mesh& mesh, const Material& material, const std::vector<uint32_t>& pins = {},
                             const std::vector<CreaseLine>& creases = {});

// Checks material parameters; empty when usable.
std::string validate_material(const Material& material);

}  // namespace weft
