// The second descriptor set (set 1) of the GPU step: the force models beyond springs (Volino's triangles,
// the weft/warp triangles and hinges, air), built once from the model by gpu/gpu_force_stage.cpp. Per
// element kernels write their results per element; per vertex and per link kernels gather them in element
// order through fixed tables (no atomics), as the CPU's passes add them in element order.
layout(std430, set = 1, binding = 0) readonly buffer ForceParams {
  uint ntri, nhinge, nedge, flags;  // flags: kVolino, kGeneralMass, kWeftWarp, kAir, kLift, kPlastic*
  float alpha, min_det, drag, lift; // Volino's alpha and determinant floor; K_D, K_L (Kang & Cho Eq. 31-34)
  vec4 wind;                        // m/s
  uvec4 curve_off;                  // weft, warp, shear stress curves: knots at curves[off .. off + n)
  uvec4 curve_n;                    //   then stresses at off + n, Hermite slopes at off + 2n
  vec4 viscosity;                   // weft, warp, shear, N s/m
  vec4 plasticity;                  // relaxation times (hinges, strains), s; yield strain, shear yield strain
} fp;
layout(std430, set = 1, binding = 1) readonly buffer Tri { uvec4 tri[]; };           // corners (ntri)
layout(std430, set = 1, binding = 2) readonly buffer TriCoef { vec4 tri_coef[]; };   // 2 per triangle: Volino
                                                                                     // L (3), R/L (3); weave ru, area | rv
layout(std430, set = 1, binding = 3) readonly buffer Hinge { uvec4 hinge[]; };       // x0 x1 x2 x3 (nhinge)
layout(std430, set = 1, binding = 4) readonly buffer HingeK { float hinge_k[]; };    // N m (nhinge), then the
                                                                                     // original rest angles and
                                                                                     // yield angles (nhinge each)
layout(std430, set = 1, binding = 5) buffer Plastic { float plastic[]; };  // hinge rest angles (nhinge), then 3
                                                                           // strains per triangle (in-plane
                                                                           // plasticity), then plasticity.comp's gate
layout(std430, set = 1, binding = 6) readonly buffer Curves { float curves[]; };
layout(std430, set = 1, binding = 7) buffer ElemForce { vec4 elem_force[]; };  // per triangle corner (3 ntri), then
                                                                               // per hinge corner (4 nhinge); Volino: x = tension
layout(std430, set = 1, binding = 8) buffer ElemBlock { vec4 elem_block[]; };  // 2 per pair: triangles' 3, hinges' 6
layout(std430, set = 1, binding = 9) readonly buffer VGatherOff { uint vg_off[]; };  // n + 1
layout(std430, set = 1, binding = 10) readonly buffer VGather { uint vg[]; };        // elem_force index, element order
layout(std430, set = 1, binding = 11) readonly buffer LGatherOff { uint lg_off[]; }; // nlink + 1
layout(std430, set = 1, binding = 12) readonly buffer LGather { uint lg[]; };        // elem_block pair (Volino:
                                                                                     // elem_force slot), element order
layout(std430, set = 1, binding = 13) buffer Air { vec4 air[]; };              // air force, w: drag coefficient (n)
layout(std430, set = 1, binding = 14) readonly buffer VArea { float varea[]; };  // lumped rest area (n), m^2

const uint kVolino = 1u, kGeneralMass = 2u, kWeftWarp = 4u, kAir = 8u, kLift = 16u;
const uint kPlasticHinges = 32u, kPlasticStrain = 64u;  // plasticity.comp updates the hinges', the triangles' part

void put_block(uint p, float xx, float xy, float xz, float yy, float yz, float zz) {
  elem_block[2 * p] = vec4(xx, xy, xz, yy);
  elem_block[2 * p + 1] = vec4(yz, zz, 0.0, 0.0);
}
