// The rigid impact zones' descriptor set (gpu/gpu_impact_zones.h): Provot's zones after stage 5's position passes,
// as sim/self_collision.cpp's impact_zones and zone_crossings form and move them. The zones are the connected
// components of the free corners of the violated contacts (then of the pairs the crossing check finds): a
// union-find whose roots are hooked to the smaller root with integer atomicMin and whose paths are compressed
// between hooks, repeated a fixed number of times; whatever order the atomics ran in, each zone ends rooted at
// its smallest vertex. Each zone's momentum and mass are summed by its root over its members in vertex order
// (a table sorted per root), so no float atomics.
layout(std430, set = 0, binding = 0) readonly buffer ZoneParams {
  uint n, ntri, nedge, cap_vt;  // vertices, triangles, edges; contact slots per triangle
  uint cap_ee, slots, pair_cap, pad0;  // per edge; all contact slots; the crossing check's pairs per triangle
  float limit, h, pad1, pad2;   // a contact closer than this is violated (thickness (1 - zone_violation), m); s
} zp;
layout(std430, set = 0, binding = 1) buffer ZX { vec4 x[]; };                // positions (the search's) (n)
layout(std430, set = 0, binding = 2) buffer ZV { vec4 v[]; };                // velocities (the response's) (n)
layout(std430, set = 0, binding = 3) readonly buffer ZXP { vec4 xp[]; };     // the step's start (n)
layout(std430, set = 0, binding = 4) readonly buffer ZKin { uint kin[]; };   // 1: kinematic (n)
layout(std430, set = 0, binding = 5) readonly buffer ZMass { float mass[]; };  // kg (n)
layout(std430, set = 0, binding = 6) readonly buffer ZVtCount { uint vt_count[]; };  // the search's (ntri)
struct SelfContactOut {
  uvec4 v;
  vec4 w;
  vec4 n;
};
layout(std430, set = 0, binding = 7) readonly buffer ZVtOut { SelfContactOut vt_out[]; };
layout(std430, set = 0, binding = 8) readonly buffer ZEeCount { uint ee_count[]; };  // (nedge)
layout(std430, set = 0, binding = 9) readonly buffer ZEeOut { SelfContactOut ee_out[]; };
layout(std430, set = 0, binding = 10) readonly buffer ZPairCount { uint pair_count[]; };  // the crossing check's
layout(std430, set = 0, binding = 11) readonly buffer ZPairOut { uvec2 pair_out[]; };     // (ntri, pair_cap each)
layout(std430, set = 0, binding = 12) buffer ZShifted { uint shifted[]; };  // 1: the last zone move moved it (n)
layout(std430, set = 0, binding = 13) buffer ZParent { uint parent[]; };    // union-find parent, always smaller (n)
layout(std430, set = 0, binding = 14) buffer ZZoned { uint zoned[]; };      // 1: in a zone this stage (n)
layout(std430, set = 0, binding = 15) buffer ZCount { uint zcount[]; };     // per root: members, then cursor (n)
layout(std430, set = 0, binding = 16) buffer ZStart { uint zstart[]; };     // n + 1
layout(std430, set = 0, binding = 17) buffer ZList { uint zlist[]; };       // zoned vertices by root (n)
layout(std430, set = 0, binding = 18) buffer ZSum { vec4 zsum[]; };         // per root: sum m v, sum m (n)
layout(std430, set = 0, binding = 19) buffer ZGlobal { uint zglobal[]; };   // 0: grew this round, 1: rounds that
                                                                            // grew (contacts), 2: (crossings), 3:
                                                                            // unions left unfinished, 4: zoned
                                                                            // vertices, 5: zones, 6: largest zone
layout(std430, set = 0, binding = 20) buffer ZIm { float im[]; };           // the response's 1 / m: zoned held (n)
layout(std430, set = 0, binding = 21) readonly buffer ZTri { uvec4 tri[]; };  // corners (ntri)
layout(push_constant) uniform ZonePush {
  uint source;  // 0: the violated contacts, 1: the crossing pairs
  uint check;   // zone_hook: 1 counts unions left unfinished instead of hooking
} zpush;

uint find_root(uint i) {
  uint r = i;
  while (parent[r] != r) r = parent[r];
  return r;
}

// Element e of the source: its vertices that join a zone (free, weighted), 0-6 of them; false if it joins none.
bool element(uint e, out uint verts[6], out uint count) {
  count = 0u;
  if (zpush.source == 0u) {
    if (e >= zp.slots) return false;
    SelfContactOut c;
    const uint vt_slots = zp.ntri * zp.cap_vt;
    if (e < vt_slots) {
      const uint t = e / zp.cap_vt;
      if (e - t * zp.cap_vt >= vt_count[t]) return false;
      c = vt_out[e];
    } else {
      const uint s = e - vt_slots, g = s / zp.cap_ee;
      if (g >= zp.nedge || s - g * zp.cap_ee >= ee_count[g]) return false;
      c = ee_out[e - vt_slots];
    }
    vec3 r = vec3(0.0);
    for (int k = 0; k < 4; ++k) r += c.w[k] * x[c.v[k]].xyz;
    if (!(dot(r, c.n.xyz) < zp.limit)) return false;
    for (int k = 0; k < 4; ++k)
      if (kin[c.v[k]] == 0u && c.w[k] != 0.0) verts[count++] = c.v[k];
  } else {
    if (e >= zp.ntri * zp.pair_cap) return false;
    const uint t = e / zp.pair_cap;
    if (e - t * zp.pair_cap >= min(pair_count[t], zp.pair_cap)) return false;
    const uvec2 p = pair_out[e];
    for (int s = 0; s < 2; ++s)
      for (int k = 0; k < 3; ++k) {
        const uint i = tri[s == 0 ? p.x : p.y][k];
        if (kin[i] == 0u) verts[count++] = i;
      }
  }
  return count > 0u;
}
