// web/ui/panel_roofline.cpp — the Roofline panel: the scenario's operations under its GPU's
// roof, other accelerators overlaid, measured ceilings and points from a loaded probe result,
// and the table of operations. Same core calls and numbers as `gpuplan roofline`.
#include <algorithm>

#include <imgui.h>

#include "app.h"
#include "tables.h"
#include "theme.h"
#include "gpuplan/units.h"
#include "roofline_chart.h"

namespace gpuplan::ui {

void App::DrawRoofline() {
  if (!session_.RooflineResult().ok()) {
    ImGui::TextColored(Bad(), "%s", session_.RooflineResult().error().c_str());
    return;
  }
  const Roofline& rl = session_.RooflineResult().value();
  // Phases and overlays are view options, drawn from their fields: a link and `gpuplan
  // roofline --phase/--overlay` carry them.
  Field("phase");
  ImGui::SameLine();
  Field("overlay");
  RooflineWidget("roofline", session_.Chart(), std::max(ImGui::GetFontSize() * 18, ImGui::GetContentRegionAvail().y * 0.55f));
  Track("chart-roofline");
  ImGui::TextColored(Muted(), "%s",
                     TrF("{0} matmuls; ridge {1} FLOP/B against {2}. Hover a point or the plot for values.",
                         {rl.precision, FormatShort(rl.roof.Ridge(rl.precision), 3),
                          rl.roof.memory.empty() ? std::string(Tr("memory")) : rl.roof.memory.front().label})
                         .c_str());
  // The ceilings and the operations of the phases shown: the rows `gpuplan roofline` prints.
  DrawReport(*FindView("roofline"), false);
  Track("roof-table");
}

}  // namespace gpuplan::ui
