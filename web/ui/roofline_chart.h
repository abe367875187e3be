// web/ui/roofline_chart.h — the roofline as an ImGui widget on ImDrawList: log-log axes with
// decade and minor ticks (labels with units), each roof's polyline (dashed when measured),
// the scenario's operations and measured points, a legend, and a hover read-out (the point
// under the mouse, else the intensity and every roof's attainable rate there). The layout comes
// from the core's MakeRooflineChart, the same one `gpuplan roofline --svg` draws.
#pragma once

#include "gpuplan/roofline.h"

namespace gpuplan::ui {

// Draws `chart` across the available width; returns the index of the hovered point or -1.
int RooflineWidget(const char* id, const RooflineChart& chart, float height);

}  // namespace gpuplan::ui
