// The stress plots, drawn pixel by pixel (no plotting library) and written with stb_image_write.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/png_writer.h"
#include "lab/stress.h"

namespace weft::lab {
namespace {

struct Canvas {
  uint32_t w, h;
  std::vector<uint8_t> rgba;
  Canvas(uint32_t width, uint32_t height) : w(width), h(height), rgba(size_t(width) * height * 4, 255) {}
  void put(int x, int y, const uint8_t c[3]) {
    if (x < 0 || y < 0 || x >= int(w) || y >= int(h)) return;
    uint8_t* p = &rgba[(size_t(y) * w + size_t(x)) * 4];
    p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
  }
  // Bresenham's line.
  void line(int x0, int y0, int x1, int y1, const uint8_t c[3]) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
      put(x0, y0, c);
      if (x0 == x1 && y0 == y1) return;
      const int e2 = 2 * err;
      if (e2 >= dy) err += dy, x0 += sx;
      if (e2 <= dx) err += dx, y0 += sy;
    }
  }
  void rect(int x0, int y0, int x1, int y1, const uint8_t c[3]) {
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) put(x, y, c);
  }
};

struct Panel {
  int x0, y0, x1, y1;  // pixel box; y grows down
  double tmax, vmax;
  int px(double t) const { return x0 + int(std::lround((x1 - x0) * std::clamp(t / tmax, 0.0, 1.0))); }
  int py(double v) const { return y1 - int(std::lround((y1 - y0) * std::clamp(v / vmax, 0.0, 1.0))); }
};

void frame(Canvas& c, const Panel& p, double grid_step_v) {
  const uint8_t grid[3] = {225, 225, 225}, axis[3] = {60, 60, 60};
  for (double t = 1.0; t < p.tmax; t += 1.0) c.line(p.px(t), p.y0, p.px(t), p.y1, grid);
  for (double v = grid_step_v; v < p.vmax; v += grid_step_v) c.line(p.x0, p.py(v), p.x1, p.py(v), grid);
  c.line(p.x0, p.y1, p.x1, p.y1, axis);
  c.line(p.x0, p.y0, p.x0, p.y1, axis);
}

void series(Canvas& c, const Panel& p, const std::vector<float>& v, double tick_h, const uint8_t col[3]) {
  for (size_t k = 1; k < v.size(); ++k)
    c.line(p.px((k - 1) * tick_h), p.py(v[k - 1]), p.px(k * tick_h), p.py(v[k]), col);
}

double nice_step(double vmax) {  // 1, 2 or 5 x 10^n giving 4 to 10 grid lines
  const double raw = vmax / 5.0, mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / mag;
  return (r < 1.5 ? 1.0 : r < 3.5 ? 2.0 : 5.0) * mag;
}

}  // namespace

void stress_plot_colour(size_t k, uint8_t rgb[3]) {
  static const uint8_t palette[][3] = {{0, 0, 0},     {31, 119, 180}, {255, 127, 14}, {44, 160, 44},
                                       {214, 39, 40}, {148, 103, 189}, {140, 86, 75}, {227, 119, 194}};
  const uint8_t* c = palette[k % (sizeof palette / sizeof palette[0])];
  rgb[0] = c[0], rgb[1] = c[1], rgb[2] = c[2];
}

void write_stress_plot(const std::string& path, const std::vector<const StressRun*>& runs, double tick_h) {
  Canvas c(960, 600);
  double tmax = 0, emax = 1e-6, smax = 0.12;
  for (const StressRun* r : runs) {
    tmax = std::max(tmax, r->kinetic_energy.size() * tick_h);
    for (float e : r->kinetic_energy) emax = std::max(emax, double(e));
    for (float s : r->strain) smax = std::max(smax, double(s));
  }
  tmax = std::max(tmax, tick_h);
  const Panel energy{60, 30, 940, 280, tmax, emax * 1.05};
  const Panel strain{60, 330, 940, 580, tmax, smax * 1.05};
  frame(c, energy, nice_step(energy.vmax));
  frame(c, strain, nice_step(strain.vmax));
  const uint8_t limit[3] = {200, 200, 200};
  for (int x = strain.x0; x < strain.x1; x += 8) c.line(x, strain.py(0.10), x + 4, strain.py(0.10), limit);  // strain limit
  for (size_t k = 0; k < runs.size(); ++k) {
    uint8_t col[3];
    stress_plot_colour(k, col);
    series(c, energy, runs[k]->kinetic_energy, tick_h, col);
    series(c, strain, runs[k]->strain, tick_h, col);
    c.rect(70 + int(k) * 22, 8, 84 + int(k) * 22, 20, col);  // legend, in the order of docs/stress.md
  }
  write_png(path, c.rgba, c.w, c.h);
}

}  // namespace weft::lab
