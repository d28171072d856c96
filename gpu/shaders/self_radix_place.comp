#version 450
// The radix sort's last step: per chunk, its codes and edges placed in order at their digit's offset into the
// other half (stable: within a chunk in its order, chunks in theirs). Six passes end in the first half.
layout(local_size_x = 64) in;
#include "self_layout.glsl"
layout(push_constant) uniform RadixPass { uint pass; } rp;

void main() {
  const uint g = gl_GlobalInvocationID.x;
  if (g >= sp.chunks) return;
  const uint m = sp.nedge, src = (rp.pass & 1u) * m, dst = m - src, shift = 5u * rp.pass;
  uint at[32];
  for (uint d = 0u; d < 32u; ++d) at[d] = hist[d * sp.chunks + g];
  const uint hi = min((g + 1u) * kRadixChunk, m);
  for (uint k = g * kRadixChunk; k < hi; ++k) {
    const uint code = mkey[src + k], d = (code >> shift) & 31u;
    mkey[dst + at[d]] = code;
    mval[dst + at[d]] = mval[src + k];
    ++at[d];
  }
}
