#pragma once
// The render side's view of the sim: the newest snapshot and the one before it, blended to the time
// being drawn. A renderer that draws at the runtime clock minus one tick always has two snapshots around
// that time (the sim publishes every tick it runs), so the cloth moves smoothly at any display rate; the
// cost is one tick of added latency plus the wait for the next publish (FrameStats::lag_ms measures it).
#include "engine/snapshot.h"
#include "engine/sim_thread.h"

namespace weft {

// Takes the newest snapshot if there is one and blends it with the previous one to sim time t (clamped
// to the two). out must be sized for the mesh. Returns the sim time drawn, or -1 if nothing was published
// yet. Hands, trackers, grasp bits and stats come from the newest.
double interpolate_snapshot(SnapshotBuffer& buffer, double t, ClothSnapshot& out);

}  // namespace weft
