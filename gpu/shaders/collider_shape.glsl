// A collider of stage 4's table (gpu/gpu_contact_stage.cpp packs 8 vec4 per collider after one header vec4, in
// a buffer the includer names `tick`) and its distance to a point, as sim/collider.cpp's collider_distance.
// Shared by collide.comp and resting_contacts.comp.
const uint kPlane = 0u, kSphere = 1u, kCapsule = 2u, kBox = 3u;
const uint kMoving = 1u, kClears = 2u, kStill = 4u;

struct Col {
  uint shape;
  int follows;
  uint flags;
  vec3 p;  vec4 q;   // pose at the end of the tick
  vec3 pp; vec4 pq;  // pose at its start
  vec3 he;
  float radius, half_length, mu_s, mu_k;
  vec3 lin, ang;
};

Col load(uint c) {
  uint b = 1u + 8u * c;
  Col k;
  k.shape = uint(tick[b].x);
  k.follows = int(tick[b].y);
  k.flags = uint(tick[b].z);
  k.p = tick[b + 1u].xyz; k.radius = tick[b + 1u].w;
  k.q = tick[b + 2u];
  k.pp = tick[b + 3u].xyz; k.half_length = tick[b + 3u].w;
  k.pq = tick[b + 4u];
  k.he = tick[b + 5u].xyz; k.mu_s = tick[b + 5u].w;
  k.lin = tick[b + 6u].xyz; k.mu_k = tick[b + 6u].w;
  k.ang = tick[b + 7u].xyz;
  return k;
}

vec3 rot(vec4 q, vec3 p) { return p + 2.0 * cross(q.xyz, cross(q.xyz, p) + q.w * p); }
vec3 rot_inv(vec4 q, vec3 p) { return rot(vec4(-q.xyz, q.w), p); }
vec3 to_local(vec3 pos, vec4 q, vec3 w) { return rot_inv(q, w - pos); }
vec3 to_world(vec3 pos, vec4 q, vec3 l) { return pos + rot(q, l); }

float sphere_distance(vec3 centre, float radius, vec3 p, out vec3 n) {
  vec3 d = p - centre;
  float len = length(d);
  n = len > 1e-12 ? d / len : vec3(0.0, 1.0, 0.0);
  return len - radius;
}

float box_distance(vec3 he, vec3 p, out vec3 nl) {
  vec3 q = abs(p) - he;
  vec3 outside = max(q, vec3(0.0));
  float out_len = length(outside);
  if (out_len > 0.0) {
    nl = sign(p) * outside / out_len;
    return out_len;
  }
  int axis = 0;
  if (q.y > q[axis]) axis = 1;
  if (q.z > q[axis]) axis = 2;
  nl = vec3(0.0);
  nl[axis] = p[axis] < 0.0 ? -1.0 : 1.0;
  return q[axis];
}

// collider_distance with the pose given (the start or end of the tick, or the identity in the collider's frame)
float distance_at_pose(Col c, vec3 pos, vec4 q, vec3 p, out vec3 n) {
  if (c.shape == kPlane) {
    n = rot(q, vec3(0.0, 1.0, 0.0));
    return dot(p - pos, n);
  }
  if (c.shape == kSphere) return sphere_distance(pos, c.radius, p, n);
  if (c.shape == kCapsule) {
    vec3 axis = rot(q, vec3(0.0, 1.0, 0.0));
    float s = clamp(dot(p - pos, axis), -c.half_length, c.half_length);
    return sphere_distance(pos + s * axis, c.radius, p, n);
  }
  vec3 nl;
  float d = box_distance(c.he, to_local(pos, q, p), nl);
  n = rot(q, nl);
  return d;
}
float distance_now(Col c, vec3 p, out vec3 n) { return distance_at_pose(c, c.p, c.q, p, n); }
