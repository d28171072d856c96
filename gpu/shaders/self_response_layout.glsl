// Stage 5's response's descriptor set (gpu/gpu_self_response.h): the search's contact slots (gpu/gpu_self_contacts.h)
// answered as sim/self_collision.cpp's position and velocity passes answer its contacts, but per contact then per
// vertex (Jacobi) instead of contact after contact (Gauss-Seidel): each live slot writes its four corners'
// corrections into its own entries; each vertex sums its entries in slot order (a table sorted by slot, built each
// search: integer atomics count and place, the sort fixes the order) and moves by their mean. No float atomics.
layout(std430, set = 0, binding = 0) readonly buffer RespParams {
  uint n, ntri, nedge, cap_vt;  // vertices, triangles, edges; slots per triangle
  uint cap_ee, slots, passes, velocity_passes;  // slots per edge; all slots (ntri cap_vt + nedge cap_ee); the passes
  float thickness, max_move, friction, h;       // m; m (max_move x thickness); Coulomb's mu; s
} rp;
layout(std430, set = 0, binding = 1) buffer RX { vec4 x[]; };     // positions, corrected in place (the search's x) (n)
layout(std430, set = 0, binding = 2) buffer RV { vec4 v[]; };     // velocities, corrected in place (n)
layout(std430, set = 0, binding = 3) readonly buffer RIm { float im[]; };  // 1 / m, 0: held (kinematic, on a collider)
layout(std430, set = 0, binding = 4) buffer RX0 { vec4 x0[]; };   // positions before the passes (n)
layout(std430, set = 0, binding = 5) buffer RV0 { vec4 v0[]; };   // velocities before the velocity passes (n)
layout(std430, set = 0, binding = 6) readonly buffer RVtCount { uint vt_count[]; };  // the search's (ntri)
struct SelfContactOut {
  uvec4 v;
  vec4 w;
  vec4 n;
};
layout(std430, set = 0, binding = 7) readonly buffer RVtOut { SelfContactOut vt_out[]; };
layout(std430, set = 0, binding = 8) readonly buffer REeCount { uint ee_count[]; };  // (nedge)
layout(std430, set = 0, binding = 9) readonly buffer REeOut { SelfContactOut ee_out[]; };
layout(std430, set = 0, binding = 10) buffer RSlot { vec4 slot[]; };  // per slot: sum w^2 / m bounded, pushed (m),
                                                                      // 1 if live, unused
layout(std430, set = 0, binding = 11) buffer RDelta { vec4 delta[]; };  // per slot and corner: its correction
layout(std430, set = 0, binding = 12) buffer RVCount { uint vcount[]; };  // per vertex: entries, then cursor (n)
layout(std430, set = 0, binding = 13) buffer RVStart { uint vstart[]; };  // n + 1
layout(std430, set = 0, binding = 14) buffer RVList { uint vlist[]; };    // slot x 4 + corner, by vertex (4 slots)
layout(std430, set = 0, binding = 15) buffer RGlobal { uint global_u[]; };  // 0: largest violation left (float
                                                                            // bits), 1: live contacts, 2: largest
                                                                            // violation per pass, max (bits)
layout(push_constant) uniform RespPush {
  uint pass;    // the velocity pass (0: the first, with friction)
  uint target;  // self_response_move: 0 positions, 1 velocities
} push;

// Slot s's contact, or false where the slot holds none (past its feature's count, or past the slots).
bool contact_of(uint s, out SelfContactOut c) {
  const uint vt_slots = rp.ntri * rp.cap_vt;
  if (s < vt_slots) {
    const uint t = s / rp.cap_vt;
    if (s - t * rp.cap_vt >= vt_count[t]) return false;
    c = vt_out[s];
    return true;
  }
  if (s >= rp.slots) return false;
  const uint k = s - vt_slots, e = k / rp.cap_ee;
  if (k - e * rp.cap_ee >= ee_count[e]) return false;
  c = ee_out[k];
  return true;
}
