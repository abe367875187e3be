// web/ui/chart.h — a line chart with a log2 x axis and a linear y axis from 0, drawn with
// ImDrawList (grid, tick labels, an error band as a shaded area, legend, hover read-out).
// Shared by the Speed and Train panels.
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
void Chart(const char* id, const std::vector<Series>& series, const char* x_label, const char* y_label, float height,
           XAxis x_axis = XAxis::kLog2);

}  // namespace gpuplan::ui
