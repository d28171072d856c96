#version 450
// Per internal node i (Karras 2012, "Maximizing parallelism in the construction of BVHs"): the range of sorted
// codes it covers and where that range splits, from the common prefixes of the codes (equal codes compared by
// their positions, so that every key is distinct); its children and their parent. Per leaf k: the box of
// edge mval[k] grown by its ends' larger travel (empty for an edge with an end not finite) and its visit
// counter's reset.
layout(local_size_x = 256) in;
#include "self_layout.glsl"

int prefix(int i, int j) {  // common leading bits of keys i and j; -1 outside
  const int m = int(sp.nedge);
  if (j < 0 || j >= m) return -1;
  const uint a = mkey[i], b = mkey[j];
  if (a == b) return 32 + 31 - findMSB(uint(i ^ j));
  return 31 - findMSB(a ^ b);
}

void main() {
  const int i = int(gl_GlobalInvocationID.x);
  const int m = int(sp.nedge);
  if (i >= m) return;
  {  // leaf i
    const uint e = mval[i];
    const uint i0 = edge[e].x, i1 = edge[e].y;
    const uint leaf = uint(m - 1 + i);
    const float t = max(travel[i0], travel[i1]);
    if (travel[i0] >= 0.0 && travel[i1] >= 0.0) {
      const vec3 a = x[i0].xyz, b = x[i1].xyz;
      box[2u * leaf] = vec4(min(a, b) - t, 0.0);
      box[2u * leaf + 1u] = vec4(max(a, b) + t, 0.0);
    } else {
      box[2u * leaf] = vec4(vec3(1e30), 0.0);
      box[2u * leaf + 1u] = vec4(vec3(-1e30), 0.0);
    }
  }
  if (i == 0) parent[0] = kNoNode;
  if (i >= m - 1) return;
  visit[i] = 0u;
  const int d = prefix(i, i + 1) - prefix(i, i - 1) > 0 ? 1 : -1;
  const int least = prefix(i, i - d);
  int far = 2;
  while (prefix(i, i + far * d) > least) far *= 2;
  int l = 0;
  for (int t = far / 2; t >= 1; t /= 2)
    if (prefix(i, i + (l + t) * d) > least) l += t;
  const int j = i + l * d;
  const int node_prefix = prefix(i, j);
  int s = 0, div = 2, t = (l + 1) / 2;
  while (true) {
    if (prefix(i, i + (s + t) * d) > node_prefix) s += t;
    if (t <= 1) break;
    div *= 2;
    t = (l + div - 1) / div;
  }
  const int split = i + s * d + min(d, 0);
  const uint left = min(i, j) == split ? uint(m - 1 + split) : uint(split);
  const uint right = max(i, j) == split + 1 ? uint(m + split) : uint(split + 1);
  child[i] = uvec2(left, right);
  parent[left] = uint(i);
  parent[right] = uint(i);
}
