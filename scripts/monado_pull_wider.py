# Drives Monado's remote driver (docs/xr.md) for issue 34's XR check: two controllers take tracker_corner.json's
# free corners, lift them 0.3 m, pull them 0.1 m wider than the cloth, let go and move away. Run it beside
# `weft run --mode xr --scene assets/scenes/tracker_corner.json --seconds 11 --json` (XR_RUNTIME_JSON,
# XRT_COMPOSITOR_NULL=1, P_OVERRIDE_ACTIVE_CONFIG=remote). Arg: seconds. The stage is at z = 0.7: scene z 0 is -0.7.
import socket, struct, sys, time
hdr = struct.unpack('<Q', b'mndrmt2\0')[0]
def ctrl(pos, squeeze, active=True):
    bools = [False, active] + [False] * 14
    return struct.pack('<7f3f3f5f f f f 2f f 2f 16?', 0,0,0,1, *pos, 0,0,0, 0,0,0, 0,0,0,0,0, 0.0, squeeze, 0.0, 0,0, 0.0, 0,0, *bools)
for attempt in range(300):
    try:
        s = socket.create_connection(('127.0.0.1', 4242)); break
    except OSError:
        time.sleep(0.1)
seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10
def lerp(a, b, u):
    u = max(0.0, min(1.0, u)); return [a[i] + (b[i] - a[i]) * u for i in range(3)]
def hand(t, side):
    start = [side * 0.2, 1.3, 0.2 - 0.7]
    corner = [side * 0.25, 1.0, -0.7]
    pulled = [side * 0.30, 1.3, -0.7]
    away = [side * 0.7, 1.3, -0.4]
    if t < 1.0: return lerp(start, [start[0], start[1] + 0.05, start[2]], t), 0.0
    if t < 2.5: return lerp([start[0], start[1] + 0.05, start[2]], corner, (t - 1.0) / 1.5), 0.0
    if t < 2.8: return corner, 1.0
    if t < 4.3: return lerp(corner, pulled, (t - 2.8) / 1.5), 1.0
    if t < 5.3: return pulled, 1.0
    if t < 5.5: return pulled, 0.0
    return lerp(pulled, away, (t - 5.5) / 0.5), 0.0
t0 = time.time()
while time.time() - t0 < seconds:
    t = time.time() - t0
    l, sl = hand(t, -1); r, sr = hand(t, 1)
    data = struct.pack('<Q7f', hdr, 0,0,0,1, 0,1.6,0) + ctrl(l, sl) + ctrl(r, sr)
    data += b'\0' * (280 - len(data))
    s.sendall(data); time.sleep(0.01)
