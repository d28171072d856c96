#pragma once
// The virtual tensile test of Volino & Thalmann 2005 sec. 2.2.3 (Fig. 3): a square sample clamped along
// two opposite edges (x = 0 and x = width) is stretched along x to static equilibrium at each strain;
// the force on the moving clamp per unit width is compared with the material's curves. The weave runs
// at angle_deg from the pull direction (the material's weave angle is replaced).
#include <vector>

#include "sim/material.h"
#include "sim/mesh.h"

namespace weft::lab {

struct TensilePoint {
  double strain = 0;         // clamp elongation / width
  double force_per_width = 0;  // measured, N/m
  double homogeneous = 0;    // the model's continuum answer for a uniform stretch diag(1 + e, 1), N/m
  int newton_iterations = 0;
  bool converged = false;
};

// The paper's test material: one nonlinear isotropic curve (sampled from 100 e + 1000 e^3 N/m every 5 %
// to +-80 % and interpolated by the monotone cubic), the shear curve half of it, no damping.
Material paper_tensile_material(Membrane membrane = Membrane::WeftWarp);

std::vector<TensilePoint> run_tensile_test(const Mesh& sample, Material material, float angle_deg,
                                           const std::vector<double>& strains);

// The homogeneous answer: d psi / d lambda for F = diag(lambda, 1) with the weave at angle theta, where
// psi is the model's energy per unit rest area (Eq. 4 strains, the curves' integrals; with the isotropic
// membrane the weft curve at e for any angle).
double homogeneous_tensile_force(const WeaveMaterial& weave, double angle_rad, double strain);

}  // namespace weft::lab
