#version 450
// The seams sewn for good kept in the solve (sim/sewn_filter.h, as mg keeps them: Baraff & Witkin's filter
// for a pair's constraint g = u_a - wb u_b - wc u_c = 0). One invocation per entry; entries share no vertex
// (find_sewn_pairs), so each writes only its own members: no race, one result. Entries in slots kSew0 (a, b,
// c as floats, wc; a < 0 past the last) and kSew1 (a member's contact normal or 0, its dv along it).
// mode 0 projects slot src (project_sewn); mode 1 imposes the pairs on dv (impose_sewn: the projection, then
// each member given the contact's normal dv, twice for b when c is b, as the CPU adds it).
#include "step_layout.glsl"
void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= pc.n || sc[kDone] != 0.0) return;
  vec4 e = vec[kSew0 * pc.n + k];
  if (e.x < 0.0) return;
  uint a = uint(e.x), b = uint(e.y), c = uint(e.z);
  float wc = e.w, wb = 1.0 - wc;
  bool edge = b != c;
  uint o = pc.src * pc.n;
  vec3 pa = vec[o + a].xyz, pb = vec[o + b].xyz, pcc = vec[o + c].xyz;
  float denom = edge ? 1.0 + wb * wb + wc * wc : 2.0;
  vec3 s = (edge ? pa - wb * pb - wc * pcc : pa - pb) / denom;
  pa -= s;
  if (edge) {
    pb += wb * s;
    pcc += wc * s;
  } else {
    pb += s;
  }
  vec4 nd = vec[kSew1 * pc.n + k];
  vec3 nrm = nd.xyz;
  if (nrm != vec3(0.0)) {  // the pair rests on the collider as one vertex
    pa -= dot(pa, nrm) * nrm;
    pb -= dot(pb, nrm) * nrm;
    pcc -= dot(pcc, nrm) * nrm;
    if (pc.mode == 1) {
      pa += nd.w * nrm;
      pb += (edge ? 1.0 : 2.0) * nd.w * nrm;
      pcc += nd.w * nrm;
    }
  }
  vec[o + a].xyz = pa;
  vec[o + b].xyz = pb;
  if (edge) vec[o + c].xyz = pcc;
}
