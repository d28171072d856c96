// The resting-contact search on the GPU (gpu/gpu_resting_contacts.h): its own descriptor set over the step's
// buffers (step_layout.glsl's bindings, the same data), stage 4's collider table and the last step's start
// positions, and its own push constants.
#extension GL_GOOGLE_include_directive : enable
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer X { vec4 x[]; };      // positions at the step's start (n), m
layout(std430, binding = 1) readonly buffer Vel { vec4 v[]; };    // velocities (n), m/s; w: 1 held by a device
layout(std430, binding = 2) readonly buffer Kin { vec4 kin[]; };  // w = 1 when kinematic (n)
layout(std430, binding = 3) readonly buffer VData { vec4 vdata[]; };  // mass (n)
layout(std430, binding = 4) buffer Vecs { vec4 vec[]; };          // the solve's vectors (step_layout.glsl's slots)
layout(std430, binding = 5) readonly buffer Tick { vec4 tick[]; };  // stage 4's collider table (collider_shape.glsl)
layout(std430, binding = 6) readonly buffer XLast { vec4 xl[]; };   // positions at the last step's start (n), m
layout(std430, binding = 7) readonly buffer CsrOff { uint csr_off[]; };  // vertex's links: [off[i], off[i+1])
layout(std430, binding = 8) readonly buffer Csr { int csr[]; };          // link l (first end) or ~l (second end)
layout(std430, binding = 9) readonly buffer Links { uvec2 link[]; };     // link's two vertices (nlink)

layout(push_constant) uniform Push {
  uint n;           // vertices
  uint enabled;     // WorldConfig's interaction.contacts_in_solve
  float h;          // s
  float thickness;  // contact distance, m
  vec4 gravity;     // m/s^2
} pc;

// step_layout.glsl's slots: the contacts the solve keeps (kCon0: normal, dv along it; kCon1: slip, h c) and
// their impulses after the solve (kConOut: w the normal impulse per unit mass, which the last step left there).
const uint kCon0 = 6u, kCon1 = 7u, kConOut = 8u;
// sim/contact_filter.cpp's and sim/landing_filter.cpp's constants.
const float kReach = 1.02, kLeaving = 1e-4, kStick = 1e-3, kSteep = 0.5;

#include "collider_shape.glsl"
