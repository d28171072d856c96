#version 450
// Kang & Cho Eq. 14-15's end of the step (apply_implicit_step), per vertex: the solved dv plus the
// translation correction when it applies (a kept contact's normal component imposed again:
// ContactFilter::impose), v += dv, x += h v. Written into the solve's q and s slots, dead once it ends
// (kXEnd, kVEnd), not into x and v: stage 4's swept tests read the step's start positions from x, and the
// next tick's warm start reads the uncorrected dv, as before. x's w carries the contact's normal impulse per
// unit mass back (kConOut's w: next tick's N and lift-off test), v's w 1 where the solve kept a contact (the
// CPU's ContactFilter when the GPU found them: gpu/gpu_resting_contacts.h).
#include "step_layout.glsl"
const uint kXEnd = kQ, kVEnd = kS;

// a b + c rounded once, as a fused multiply-add: llvmpipe rounds fma() twice even in a precise result. Dekker's
// exact product (Veltkamp's split) and Knuth's two-sum, precise so that nothing contracts or reassociates them.
float fused(float a, float b, float c) {
  precise float p = a * b;
  precise float ca = 4097.0 * a, cb = 4097.0 * b;
  precise float ahi = ca - (ca - a), bhi = cb - (cb - b);
  precise float alo = a - ahi, blo = b - bhi;
  precise float perr = ((ahi * bhi - p) + ahi * blo + alo * bhi) + alo * blo;  // p + perr = a b
  precise float s = c + p;
  precise float bb = s - c;
  precise float serr = (c - (s - bb)) + (p - bb);  // s + serr = c + p
  precise float r = s + (serr + perr);
  return r;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  vec3 d = vec[kDv * pc.n + i].xyz;
  vec4 c0 = con0(i);
  if (sc[kCorrOn] != 0.0) {
    d += vec3(sc[kCorr], sc[kCorr + 1], sc[kCorr + 2]);
    if (c0.xyz != vec3(0.0)) d += (c0.w - dot(d, c0.xyz)) * c0.xyz;
  }
  // x + h v rounded once, as the CPU build (-march=native, FMA) contracts it: rounded twice, the positions
  // moved by a last bit a tick, and a silk disc ended 3.5 mm from the CPU step after 1 s instead of 0.6
  // (gpu forces: ... silk): its motion amplifies the last bit.
  vec3 vn = v[i].xyz + d;
  vec3 xn = vec3(fused(pc.h, vn.x, x[i].x), fused(pc.h, vn.y, x[i].y), fused(pc.h, vn.z, x[i].z));
  vec[kXEnd * pc.n + i] = vec4(xn, vec[kConOut * pc.n + i].w);
  vec[kVEnd * pc.n + i] = vec4(vn, c0.xyz != vec3(0.0) ? 1.0 : 0.0);
}
