# How assets/meshes/skirt_{front,back}.{obj,gltf} got their seam lines (run once from the repository root on
# files fresh from `weft mesh --type cone-panel`: it appends, so a second run draws the lines twice).
# Appends the skirt panels' side seams as named lines, the way Blender exports an object of loose edges:
# OBJ: `o NAME`, its own `v` copies and `l a b` per edge; glTF: a node and mesh NAME with one LINES primitive.
import base64, json, struct, sys
COLS, ROWS = 25, 15
def runs(panel):
    # top (waist, last row) to bottom (hem): column 0 and column 24 of the cone panel
    col = lambda c: [r * COLS + c for r in reversed(range(ROWS))]
    # the back panel is turned 180 degrees about y: its column 24 lies on the body's left (-x)
    return {"left_side": col(0), "right_side": col(COLS - 1)} if panel == "front" else {"left_side": col(COLS - 1), "right_side": col(0)}

def obj(path, panel):
    lines = open(path).read().splitlines()
    v = [l for l in lines if l.startswith("v ")]
    n = len(v)
    out = lines[:]
    for name, run in runs(panel).items():
        out.append("o " + name)
        for i in run: out.append(v[i])
        for k in range(len(run) - 1): out.append("l %d %d" % (n + k + 1, n + k + 2))
        n += len(run)
    open(path, "w").write("\n".join(out) + "\n")

def gltf(path, panel):
    d = json.load(open(path))
    head, b64 = d["buffers"][0]["uri"].split(",", 1)
    buf = bytearray(base64.b64decode(b64))
    pos = d["accessors"][d["meshes"][0]["primitives"][0]["attributes"]["POSITION"]]
    pv = d["bufferViews"][pos["bufferView"]]
    p0 = pv.get("byteOffset", 0) + pos.get("byteOffset", 0)
    xyz = lambda i: bytes(buf[p0 + 12 * i: p0 + 12 * i + 12])
    for name, run in runs(panel).items():
        while len(buf) % 4: buf.append(0)
        at = len(buf)
        for i in run: buf += xyz(i)
        pts = [struct.unpack("<3f", xyz(i)) for i in run]
        d["bufferViews"].append({"buffer": 0, "byteOffset": at, "byteLength": 12 * len(run), "target": 34962})
        d["accessors"].append({"bufferView": len(d["bufferViews"]) - 1, "componentType": 5126, "count": len(run), "type": "VEC3",
                               "min": [min(p[k] for p in pts) for k in range(3)], "max": [max(p[k] for p in pts) for k in range(3)]})
        posa = len(d["accessors"]) - 1
        at = len(buf)
        for k in range(len(run) - 1): buf += struct.pack("<2I", k, k + 1)
        d["bufferViews"].append({"buffer": 0, "byteOffset": at, "byteLength": 8 * (len(run) - 1), "target": 34963})
        d["accessors"].append({"bufferView": len(d["bufferViews"]) - 1, "componentType": 5125, "count": 2 * (len(run) - 1), "type": "SCALAR"})
        d["meshes"].append({"name": name, "primitives": [{"attributes": {"POSITION": posa}, "indices": len(d["accessors"]) - 1, "mode": 1}]})
        d["nodes"].append({"name": name, "mesh": len(d["meshes"]) - 1})
        d["scenes"][d.get("scene", 0)]["nodes"].append(len(d["nodes"]) - 1)
    d["buffers"][0]["byteLength"] = len(buf)
    d["buffers"][0]["uri"] = head + "," + base64.b64encode(bytes(buf)).decode()
    json.dump(d, open(path, "w"), indent=2)
    open(path, "a").write("\n")

for panel in ("front", "back"):
    obj("assets/meshes/skirt_%s.obj" % panel, panel)
    gltf("assets/meshes/skirt_%s.gltf" % panel, panel)
