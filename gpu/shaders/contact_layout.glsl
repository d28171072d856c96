// Stage 4 on the GPU (gpu/gpu_contact_stage.h): its own descriptor set and push constants. Vectors are vec4
// per vertex (w unused) as in step_layout.glsl.
#extension GL_GOOGLE_include_directive : enable
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer X { vec4 x[]; };              // positions at the end of the step (n), m
layout(std430, binding = 1) buffer Vel { vec4 v[]; };             // velocities (n), m/s
layout(std430, binding = 2) readonly buffer XPrev { vec4 xp[]; }; // positions at the start of the step (n)
layout(std430, binding = 3) readonly buffer VInfo { vec4 vinfo[]; };  // inverse mass, kinematic (0/1), held_by bits (n)
layout(std430, binding = 4) readonly buffer Edges { uvec4 edge[]; };  // i, j, rest length bits, edge; by colour (nedge)
layout(std430, binding = 5) readonly buffer Teth { uvec2 teth[]; };   // per set s at s n: anchor, length bits
layout(std430, binding = 6) readonly buffer Tick { vec4 tick[]; };    // [0]: colliders, tether set mask; then 8 per collider
layout(std430, binding = 7) buffer ConOut { vec4 con[]; };        // first pass's contact normal; w: 1 in contact + 2 (collider + 1)
layout(std430, binding = 8) coherent buffer Sc { uint sc[]; };   // the stage's counters and flags (k* below)
// The indirect dispatches' group counts: x y z per colour's sweep, then the gated collider pass's; after them
// each one's full count (colours + 1). stage_control.comp zeroes a pass's once it is done, so the sweeps and
// passes past convergence cost a dispatch of no groups, not one that starts and returns.
layout(std430, binding = 9) buffer Ind { uint ind[]; };

layout(push_constant) uniform Push {
  uint n;          // vertices
  uint begin;      // the colour's first edge in `edge`
  uint count;      // its edges (a vertex pass: n)
  uint mode;       // stage_control: what to do; collide: 1 the first pass; tethers: the set
  float h;         // s
  float detect;    // 1 + max strain: an edge longer than detect l0 is corrected
  float stretch;   // ... to stretch l0 (0.1 % inside)
  float settled;   // a sweep whose worst corrected edge is within settled l0 ends the pass
  float thickness; // contact distance, m
  float settle;    // the alternation ends once a limiting pass moves no vertex this far, m
  uint flags;      // kVelFromCorrection | kClearHeld | kGate
  uint pad;
} pc;

const uint kVelFromCorrection = 1, kClearHeld = 2, kGate = 4;

// counters and flags in `sc`: this sweep's worst l / l0 (float bits) and corrections; the pass's done flag,
// corrections, largest move (float bits) and sweeps; the alternation's done flag; the first collider pass's
// contacts; every pass's corrections; whether friction stuck a vertex; alternation passes; the first
// limiting pass's sweeps and largest move; whether a brief recording ran out before convergence.
const uint kWorst = 0, kSweepCorrected = 1, kPassDone = 2, kPassCorrected = 3, kPassLargest = 4, kPassSweeps = 5,
           kAltDone = 6, kContacts = 7, kTotalCorrected = 8, kStuck = 9, kAltPasses = 10, kFirstSweeps = 11,
           kFirstLargest = 12, kTruncated = 13, kScalars = 16;

bool kinematic(uint i) { return vinfo[i].y != 0.0; }
float inv_mass(uint i) { return vinfo[i].x; }
