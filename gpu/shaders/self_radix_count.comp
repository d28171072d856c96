#version 450
// The radix sort's pass `pass` (5 bits a pass, 6 passes for 30 bits), its first step: per chunk of kRadixChunk
// codes, how many hold each digit (no atomics: one invocation counts its chunk), into hist[digit x chunks + chunk].
layout(local_size_x = 64) in;
#include "self_layout.glsl"
layout(push_constant) uniform RadixPass { uint pass; } rp;

void main() {
  const uint g = gl_GlobalInvocationID.x;
  if (g >= sp.chunks) return;
  const uint m = sp.nedge, src = (rp.pass & 1u) * m, shift = 5u * rp.pass;
  uint count[32];
  for (uint d = 0u; d < 32u; ++d) count[d] = 0u;
  const uint hi = min((g + 1u) * kRadixChunk, m);
  for (uint k = g * kRadixChunk; k < hi; ++k) ++count[(mkey[src + k] >> shift) & 31u];
  for (uint d = 0u; d < 32u; ++d) hist[d * sp.chunks + g] = count[d];
}
