// The GPU step's one descriptor set and push constants, shared by every kernel (gpu/gpu_integrator.cpp
// binds them once). Vectors are vec4 per vertex (w unused) so that std430 packs them as the CPU's arrays.
#extension GL_GOOGLE_include_directive : enable
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer X { vec4 x[]; };           // positions (n), m
layout(std430, binding = 1) buffer Vel { vec4 v[]; };          // velocities (n), m/s
layout(std430, binding = 2) buffer Kin { vec4 kin[]; };        // kinematic velocity, w = 1 when kinematic (n)
layout(std430, binding = 3) readonly buffer VData { vec4 vdata[]; };  // mass, link count (n)
layout(std430, binding = 4) readonly buffer Links { uvec2 link[]; };  // link's two vertices (nlink)
layout(std430, binding = 5) readonly buffer LinkP { vec2 linkp[]; };  // stiffness N/m, rest length m (nlink)
layout(std430, binding = 6) buffer LinkF { vec4 link_f[]; };          // force on the link's first vertex (nlink)
layout(std430, binding = 7) buffer LinkJ { vec4 link_j[]; };          // J_l: xx xy xz yy | yz zz (2 nlink)
layout(std430, binding = 8) readonly buffer CsrOff { uint csr_off[]; };  // vertex's links: [off[i], off[i+1]) (n + 1)
layout(std430, binding = 9) readonly buffer Csr { int csr[]; };          // link l (first end) or ~l (second end)
layout(std430, binding = 10) buffer Precond { vec4 pre[]; };   // inverse of W_ii, three rows (3n); 0 when kinematic
layout(std430, binding = 11) buffer Diag { vec4 wd[]; };       // W_ii: xx xy xz yy | yz zz (2n)
layout(std430, binding = 12) buffer Vecs { vec4 vec[]; };      // the solve's vectors, slot k at k n (kSlots n)
layout(std430, binding = 13) buffer Force { vec4 force[]; };   // total force (n), N
layout(std430, binding = 14) buffer Partial { float partial[]; };  // per workgroup: 4 partial sums
layout(std430, binding = 15) buffer Scalars { float sc[]; };   // the solve's scalars (kScalar* below)
// The structural links the corrections crushed at a landing (sim/buckled_links.h, ClothState::buckled), a byte
// per link, four to a word, uploaded each tick (the 32nd storage buffer of the step's two sets: lavapipe's limit).
layout(std430, binding = 16) readonly buffer Buckled { uint buckled[]; };
bool link_buckled(uint l) { return ((buckled[l >> 2] >> (8u * (l & 3u))) & 0xffu) != 0u; }

layout(push_constant) uniform Push {
  uint n;        // vertices
  uint nlink;    // links
  float h;       // time step, s
  float cd;      // relative damping, N s/m
  vec4 gravity;  // m/s^2
  uint src;      // spmv: input slot
  uint dst;      // spmv: output slot
  uint mode;     // reduce: which scalars to make
  uint groups;   // workgroups of the vertex passes (reduce reads 4 partials from each)
  float tol;     // relative residual at which CG stops
} pc;

// vector slots in `vec`
const uint kDv = 0, kR = 1, kD = 2, kQ = 3, kS = 4, kB = 5;
// The collider contacts the solve keeps (sim/contact_filter.h), in slots of `vec` rather than bindings of
// their own (the force stage's set and this one hold 31 of the 32 storage buffers a stage may have on
// lavapipe), zero where none: kCon0 outward unit normal and the dv along it the solve must give; kCon1 slip
// velocity and the friction's h c, kg; kConOut after the solve: the contact's impulse N s, its normal
// impulse per unit mass m/s.
const uint kCon0 = 6, kCon1 = 7, kConOut = 8;
// The sewn pairs the solve keeps (sim/sewn_filter.h; sewn_project.comp), uploaded only for a world with seams.
const uint kSew0 = 9, kSew1 = 10;
vec4 con0(uint i) { return vec[kCon0 * pc.n + i]; }
vec4 con1(uint i) { return vec[kCon1 * pc.n + i]; }
// scalars in `sc`
const uint kDelta = 0, kBNorm = 1, kAlpha = 2, kBeta = 3, kRes = 4, kIter = 5, kDone = 6, kDq = 7;
// The end of the step's (end_step.comp): the translation correction c (xyz) and whether it applies, made by
// translation_reduce.comp; the last tick's contact axes (sim/contact_axes.h), uploaded: axis k at kAxes + 4 k,
// their count and whether a contact stuck.
const uint kCorr = 8, kCorrOn = 11, kAxes = 16, kAxesCount = 28, kAxesStuck = 29;

vec3 sym_mul(vec4 a, vec4 b, vec3 p) {  // (xx xy xz yy | yz zz) times p
  return vec3(a.x * p.x + a.y * p.y + a.z * p.z, a.y * p.x + a.w * p.y + b.x * p.z, a.z * p.x + b.x * p.y + b.y * p.z);
}
// p less its component along vertex i's contact normal (Baraff & Witkin's filter; unchanged without a contact).
vec3 contact_project(uint i, vec3 p) {
  vec3 nrm = con0(i).xyz;
  return p - dot(p, nrm) * nrm;
}
vec3 pre_mul(uint i, vec3 p) { return vec3(dot(pre[3 * i].xyz, p), dot(pre[3 * i + 1].xyz, p), dot(pre[3 * i + 2].xyz, p)); }

// A fixed-order tree sum of this workgroup's four values into partial[4 group + k]: no atomics, so one
// device gives one result.
shared vec4 red[256];
void group_sums(vec4 mine) {
  uint t = gl_LocalInvocationID.x;
  red[t] = mine;
  barrier();
  for (uint s = 128; s > 0; s >>= 1) {
    if (t < s) red[t] += red[t + s];
    barrier();
  }
  if (t == 0) {
    uint g = gl_WorkGroupID.x;
    partial[4 * g] = red[0].x; partial[4 * g + 1] = red[0].y; partial[4 * g + 2] = red[0].z; partial[4 * g + 3] = red[0].w;
  }
}
