#version 450
// One iteration of the Chebyshev-accelerated Jacobi solve (gpu/gpu_chebyshev.h; Wang 2015 on Kang & Cho's
// Jacobi iteration, Eq. 17 and 27, with 3x3 blocks): y = x_k + gamma P (b - W x_k), then
// x_{k+1} = omega_{k+1} (y - x_{k-1}) + x_{k-1}. The residual is filtered as spmv.comp filters it (kinematic
// rows zero, a resting contact's normal row dropped) and P is the filtered block-Jacobi preconditioner, so every
// iterate keeps the imposed dv of a kinematic vertex and a contact's imposed normal component, as PCG's do
// (the normal one imposed again each iterate, as assemble.comp imposes it).
// src: x_k's slot; dst: x_{k-1}'s, overwritten with x_{k+1} (an invocation reads only its own x_{k-1});
// mode: k (0: the first, x_1 = y). One dispatch an iteration, no reductions: the weights come from the
// bounds chebyshev_bound.comp left (cheby_layout.glsl).
#include "step_layout.glsl"
#include "cheby_layout.glsl"
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  vec3 x = vec[pc.src * pc.n + i].xyz;
  if (kin[i].w != 0.0) {
    vec[pc.dst * pc.n + i] = vec4(x, 0.0);
    return;
  }
  vec3 q = sym_mul(wd[2 * i], wd[2 * i + 1], x);
  float h2 = pc.h * pc.h;
  for (uint k = csr_off[i]; k < csr_off[i + 1]; ++k) {
    int e = csr[k];
    uint l = uint(e >= 0 ? e : ~e);
    uint o = e >= 0 ? link[l].y : link[l].x;
    vec3 po = vec[pc.src * pc.n + o].xyz;
    q -= h2 * sym_mul(link_j[2 * l], link_j[2 * l + 1], po) + pc.h * pc.cd * po;
  }
  vec3 r = contact_project(i, vec[kB * pc.n + i].xyz - q);
  float gamma, rho;
  cheby_interval(min(sc[kChebyS], sc[kChebyE]), sc[kChebyA], gamma, rho);
  vec3 y = x + gamma * pre_mul(i, r);
  vec3 prev = vec[pc.dst * pc.n + i].xyz;
  vec3 next = pc.mode == 0u ? y : cheby_omega(pc.mode + 1u, rho) * (y - prev) + prev;
  // A resting contact's normal component imposed again (assemble.comp's): the weights' rounding would drift it.
  vec3 nrm = con0(i).xyz;
  next += (con0(i).w - dot(next, nrm)) * nrm;
  vec[pc.dst * pc.n + i] = vec4(next, 0.0);
}
