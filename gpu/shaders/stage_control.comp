#version 450
// One invocation between the sweeps and passes of stage 4 (gpu/gpu_contact_stage.cpp's record), so that the
// recorded sweeps and passes past convergence are skipped on the device, nothing read back mid-tick, as
// sim/stage_contacts.cpp decides on the CPU:
//   mode 0  a limiting pass begins (kGate: only while the alternation has not settled);
//   mode 1  a sweep ended: the pass is done once it corrected nothing or nothing past `settled`;
//   mode 2  the first collider pass ended: the alternation is done without contacts;
//   mode 3  a limiting pass of the alternation ended: settled once it moved nothing farther than `settle`;
//   mode 4  the first limiting pass ended: its sweeps and largest move kept for the report;
//   mode 5  a brief recording's sweeps of a pass ran out: truncated if the pass is not done;
//   mode 6  a brief recording's rounds ran out: truncated if the alternation is not done.
#include "contact_layout.glsl"
// The indirect group counts from the flags (pc.count colours, then the collider pass).
void gate_dispatches() {
  uint nc = pc.count, full = 3u * (nc + 1u);
  uint sweep = sc[kPassDone] != 0u ? 0u : 1u, collide = sc[kAltDone] != 0u ? 0u : 1u;
  for (uint c = 0u; c < nc; ++c) ind[3u * c] = sweep * ind[full + c];
  ind[3u * nc] = collide * ind[full + nc];
}
void run_mode();
void main() {
  if (gl_GlobalInvocationID.x != 0u) return;
  run_mode();
  gate_dispatches();
}
void run_mode() {
  if (pc.mode == 0u) {
    sc[kPassDone] = (pc.flags & kGate) != 0u ? sc[kAltDone] : 0u;
    sc[kPassCorrected] = 0u;
    sc[kPassLargest] = 0u;
    sc[kPassSweeps] = 0u;
    sc[kWorst] = 0u;
    sc[kSweepCorrected] = 0u;
  } else if (pc.mode == 1u) {
    if (sc[kPassDone] != 0u) return;
    uint corrected = sc[kSweepCorrected];
    sc[kPassSweeps] += 1u;
    sc[kPassCorrected] += corrected;
    sc[kTotalCorrected] += corrected;
    if (corrected == 0u || uintBitsToFloat(sc[kWorst]) <= pc.settled) sc[kPassDone] = 1u;
    sc[kWorst] = 0u;
    sc[kSweepCorrected] = 0u;
  } else if (pc.mode == 2u) {
    sc[kAltDone] = sc[kContacts] == 0u ? 1u : 0u;
  } else if (pc.mode == 3u) {
    if (sc[kAltDone] != 0u) return;
    sc[kAltPasses] += 1u;
    if (sc[kPassCorrected] == 0u || uintBitsToFloat(sc[kPassLargest]) < pc.settle) sc[kAltDone] = 1u;
  } else if (pc.mode == 4u) {
    sc[kFirstSweeps] = sc[kPassSweeps];
    sc[kFirstLargest] = sc[kPassLargest];
  } else if (pc.mode == 5u) {
    if (sc[kPassDone] == 0u) sc[kTruncated] = 1u;
  } else {
    if (sc[kAltDone] == 0u) sc[kTruncated] = 1u;
  }
}
