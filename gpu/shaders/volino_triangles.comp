#version 450
// Per triangle: the edge tensions of a Volino-Thalmann elastic triangle (1997 Annex), as
// sim/force_kernels.cpp's volino_tensions: cosines c_i = alpha cos(angle i) (Eq. 1), the 3x3 system
// A d = e (Eq. 4, 6-7 general masses or Eq. 9-10 equal ones) by Cramer's rule, the spring-mass tensions
// when |det| <= min_det; F_i = R_i / L_i d_i. A collapsed triangle writes no tension (its springs still act).
// link_forces.comp sums each edge's tensions in triangle order.
#include "step_layout.glsl"
#include "force_layout.glsl"
void main() {
  uint t = gl_GlobalInvocationID.x;
  if (t >= fp.ntri) return;
  uvec3 c = tri[t].xyz;
  vec3 p[3] = vec3[3](x[c.x].xyz, x[c.y].xyz, x[c.z].xyz);
  float l[3], im[3], e[3], cs[3], d[3];
  vec4 L = tri_coef[2 * t], S = tri_coef[2 * t + 1];
  for (int i = 0; i < 3; ++i) {
    l[i] = length(p[(i + 2) % 3] - p[(i + 1) % 3]);
    im[i] = 1.0 / vdata[c[i]].x;
  }
  if (!(l[0] > 0.0 && l[1] > 0.0 && l[2] > 0.0)) {
    for (int i = 0; i < 3; ++i) elem_force[3 * t + i] = vec4(0.0);
    return;
  }
  for (int i = 0; i < 3; ++i) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    e[i] = l[i] - L[i];
    cs[i] = fp.alpha * (l[j] * l[j] + l[k] * l[k] - l[i] * l[i]) / (2.0 * l[j] * l[k]);
    d[i] = e[i];
  }
  if (fp.alpha > 0.0) {
    float A[3][3];
    for (int i = 0; i < 3; ++i) {
      int j = (i + 1) % 3, k = (i + 2) % 3;
      A[i][i] = 1.0;
      if ((fp.flags & kGeneralMass) != 0u) {
        float nj = im[k] + im[i], nk = im[j] + im[i];
        A[i][j] = nj > 0.0 ? cs[k] * im[k] / nj : 0.0;
        A[i][k] = nk > 0.0 ? cs[j] * im[j] / nk : 0.0;
      } else {
        A[i][j] = 0.5 * cs[k];
        A[i][k] = 0.5 * cs[j];
      }
    }
    float det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    if (abs(det) > fp.min_det) {
      float inv = 1.0 / det;
      d[0] = inv * (e[0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (e[1] * A[2][2] - A[1][2] * e[2]) +
                    A[0][2] * (e[1] * A[2][1] - A[1][1] * e[2]));
      d[1] = inv * (A[0][0] * (e[1] * A[2][2] - A[1][2] * e[2]) - e[0] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                    A[0][2] * (A[1][0] * e[2] - e[1] * A[2][0]));
      d[2] = inv * (A[0][0] * (A[1][1] * e[2] - e[1] * A[2][1]) - A[0][1] * (A[1][0] * e[2] - e[1] * A[2][0]) +
                    e[0] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]));
    }
  }
  for (int i = 0; i < 3; ++i) elem_force[3 * t + i] = vec4(S[i] * d[i], 0.0, 0.0, 0.0);
}
