# Drives the tools through Monado's remote driver (docs/xr.md): run it beside `weft run --mode xr --scene
# assets/scenes/table.json --json` with XR_RUNTIME_JSON, XRT_COMPOSITOR_NULL=1 and P_OVERRIDE_ACTIVE_CONFIG=remote. Args: seconds, height.
# Monado remote driver: the right controller presses A (tool: grab -> cut), then sweeps across the table
# scene's cloth with the trigger pulled (stage frame: the scene's stage is at z = 0.95, so scene z = 0 is -0.95).
import socket, struct, sys, time
hdr = struct.unpack('<Q', b'mndrmt2\0')[0]
def ctrl(pos, trigger, a=False, active=True):
    bools = [False, active, False, False, a] + [False] * 11
    return struct.pack('<7f3f3f5f f f f 2f f 2f 16?', 0,0,0,1, *pos, 0,0,0, 0,0,0, 0,0,0,0,0, trigger, 0.0, 0.0, 0,0, 0.0, 0,0, *bools)
for attempt in range(300):
    try:
        s = socket.create_connection(('127.0.0.1', 4242)); break
    except OSError:
        time.sleep(0.1)
seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 8
y = float(sys.argv[2]) if len(sys.argv) > 2 else 0.76
t0 = time.time()
left = [-0.3, 0.9, -0.3]
def right(t):
    # Weft replays a hand that has not moved yet: move first, so the live controller takes over.
    if t < 2.0: return [0.3, 0.9 + 0.05 * min(t, 1.0), -0.3], 0.0, False
    if t < 2.3: return [0.3, 0.95, -0.3], 0.0, False
    if t < 2.5: return [0.3, 0.95, -0.3], 0.0, True     # A: the next tool (cut)
    if t < 3.3: return [-0.5, y, -0.95], 0.0, False     # to beyond the left border
    if t < 3.5: return [-0.5, y, -0.95], 1.0, False     # trigger
    if t < 5.5:
        a = (t - 3.5) / 2.0
        return [-0.5 + 1.0 * a, y, -0.95], 1.0, False   # sweep across
    return [0.5, y, -0.95], 0.0, False
while time.time() - t0 < seconds:
    t = time.time() - t0
    r, trig, a = right(t)
    data = struct.pack('<Q7f', hdr, 0,0,0,1, 0,1.6,0) + ctrl(left, 0.0) + ctrl(r, trig, a)
    data += b'\0' * (280 - len(data))
    s.sendall(data); time.sleep(0.01)
