// web/ui/panel_train.cpp — the Train panel: training and fine-tuning memory per GPU with its
// terms, the verdict and what to change, time and cost, and tokens/s against the number of
// data-parallel GPUs. Same core calls and the same numbers as `gpuplan train`.
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app.h"
#include "chart.h"
#include "gpuplan/i18n.h"
#include "gpuplan/units.h"
#include "tables.h"
#include "theme.h"

namespace gpuplan::ui {

void App::DrawTrainInputs() {
  // Two to a line; each drawn from the field table (fields.cpp).
  static const char* const kRows[][2] = {
      {"method", "optimizer"},
      {"zero", "dp"},
      {"micro-batch", "recompute"},
      {"lora-rank", "lora-targets"},
      {"lora-layers", "offload"},
      {"shard-group", "cp"},
      {"tokens", "mfu"},
      {"flash", "master"},
      {"opt-in-bwd", "sp"},
      {"ce", "act-offload"},
      {"paged", "train-embed"},
      {"precision", "vp"},
      {"reserve", "moe-ep"},
      {"kernels", "kbit-prep"},
  };
  ImGui::PushItemWidth(ImGui::GetFontSize() * 9.0f);
  // Two to a line where both fit with their labels; one to a line on a phone.
  const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 40;
  for (const auto& row : kRows) {
    Field(row[0]);
    if (!narrow) ImGui::SameLine();
    Field(row[1]);
  }
  ImGui::PopItemWidth();
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  Paragraph(Tr("Sequence length = Context; GPUs = tp x pp x dp x cp; recipes: Presets menu"));
  ImGui::PopStyleColor();
}

void App::DrawTrain() {
  DrawTrainInputs();
  ImGui::Separator();
  if (!session_.Train().ok()) {
    ImGui::TextColored(Bad(), "%s", session_.Train().error().c_str());
    return;
  }
  // The rows `gpuplan train` prints (memory per GPU, time and cost), then the scaling chart.
  const View& v = *FindView("train");
  DrawReport(v, true);
  Series s{{}, {}, {}, {}, IM_COL32(90, 150, 240, 255), "tokens/s", {}};
  Series ideal{{}, {}, {}, {}, IM_COL32(150, 150, 160, 255), Tr("linear"), {}};
  const std::vector<ScalingPoint>& scaling = session_.Scaling();
  for (const ScalingPoint& p : scaling) {
    s.x.push_back(p.gpus);
    s.y.push_back(p.tokens_per_s);
    ideal.x.push_back(p.gpus);
    ideal.y.push_back(scaling.front().tokens_per_s / scaling.front().gpus * p.gpus);
  }
  Paragraph(Tr("Tokens/s against data-parallel GPUs (gpuplan train --explain lists them)"));
  Chart("scaling", {ideal, s}, Tr("GPUs"), "tok/s", ImGui::GetFontSize() * 11);
  Track("chart-scaling");
}

}  // namespace gpuplan::ui
