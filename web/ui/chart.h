// web/ui/chart.h — a line chart with a log2 x axis and a linear y axis from 0, drawn with
// ImDrawList (grid, tick labels, an error band as a shaded area, legend, hover read-out).
// Shared by the Speed, Train, Cost and Serve panels; Scatter: the Plan panel.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

namespace gpuplan::ui {

struct Series {
  std::vector<double> x, y, lo, hi;  // lo/hi: the error band (may be empty)
  ImU32 color;
  const char* name;
  std::vector<bool> out;             // per point: past what fits in memory (may be empty)
};

// x: log2 (powers of two: batch, context) or linear from the smallest x (months).
enum class XAxis { kLog2, kLinear };
// `out_note`: what the shaded range of `out` points means ("does not fit" in memory; the Serve
// panel's "saturated": the queue grows).
void Chart(const char* id, const std::vector<Series>& series, const char* x_label, const char* y_label, float height,
           XAxis x_axis = XAxis::kLog2, const char* out_note = "does not fit");

// A scatter plot, both axes linear from 0: one dot per point (hollow: a point that misses a
// target), the `linked` points joined in x order (a Pareto front), and where x_limit > 0 a red
// line there with the region past it shaded. Hovering shows the nearest point's label.
struct ScatterPoint {
  double x = 0, y = 0;
  ImU32 color = 0;
  bool hollow = false, linked = false;
  std::string label;
};
void Scatter(const char* id, const std::vector<ScatterPoint>& points, const char* x_label, const char* y_label,
             float height, double x_limit = 0, std::string* hovered_label = nullptr);

}  // namespace gpuplan::ui
