// web/ui/panel_train.cpp — the Train panel: training and fine-tuning memory per GPU with its
// terms, the verdict and what to change, time and cost, and tokens/s against the number of
// data-parallel GPUs. Same core calls and the same numbers as `gpuplan train`.
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app.h"
#include "theme.h"
#include "chart.h"
#include "gpuplan/units.h"
#include "tables.h"

namespace gpuplan::ui {

namespace {


}  // namespace

void App::DrawTrainInputs() {
  // Two to a line; each drawn from the field table (fields.cpp).
  static const char* const kRows[][2] = {
      {"method", "optimizer"}, {"zero", "dp"},         {"micro-batch", "recompute"}, {"lora-rank", "lora-targets"},
      {"lora-layers", "offload"}, {"shard-group", "global-batch"}, {"tokens", "mfu"},
      {"flash", "master"},     {"opt-in-bwd", "sp"},
  };
  ImGui::PushItemWidth(ImGui::GetFontSize() * 9.0f);
  for (const auto& row : kRows) {
    Field(row[0]);
    ImGui::SameLine();
    Field(row[1]);
  }
  ImGui::PopItemWidth();
  ImGui::TextColored(Muted(), "Sequence length = Context; GPUs = tp x pp x dp");
}

void App::DrawTrain() {
  DrawTrainInputs();
  ImGui::Separator();
  if (!session_.Train().ok()) {
    ImGui::TextColored(Bad(), "%s", session_.Train().error().c_str());
    return;
  }
  const TrainEstimate& e = session_.Train().value();
  if (e.fits)
    ImGui::TextColored(Good(), "FITS per GPU: %s of %s; largest micro-batch %s", FormatBytes(e.total_bytes).c_str(),
                       FormatBytes(e.capacity_bytes).c_str(), FormatCount(e.max_micro_batch).c_str());
  else
    ImGui::TextColored(Bad(), "DOES NOT FIT per GPU: needs %s, has %s", FormatBytes(e.total_bytes).c_str(),
                       FormatBytes(e.capacity_bytes).c_str());
  Track("train-verdict");
  for (const std::string& sgg : e.suggestions) ImGui::BulletText("try: %s", sgg.c_str());

  std::vector<BytesRow> rows;
  for (const Term& t : e.terms) rows.push_back({t.name, t.bytes, t.formula});
  rows.push_back({"Total", e.total_bytes, "sum of the terms above"});
  BytesTable("train-terms", "Per GPU", rows);
  ImGui::Text("%s trainable of %s; %.4g FLOPs per token = %s", FormatParams(e.trainable_params).c_str(),
              FormatParams(e.total_params).c_str(), e.flops_per_token, e.flops_formula.c_str());
  ItemTip("training FLOPs per token: " + e.flops_formula + " (Kaplan et al. 2020: 6N for a full forward+backward)");
  if (auto it = e.unknown.find("seconds"); it != e.unknown.end()) {
    ImGui::TextColored(Muted(), "Time and cost: unknown (%s)", it->second.c_str());
    return;
  }
  ImGui::Text("%s tokens/s on %d GPUs: %.4g tokens in %s days, %s GPU-hours (Chinchilla-optimal: %.3g tokens)",
              FormatCount(static_cast<long long>(e.tokens_per_s)).c_str(), e.gpus, scenario_.tokens,
              FormatFixed(e.seconds / 86400, 2).c_str(), FormatCount(static_cast<long long>(e.gpu_hours)).c_str(),
              e.chinchilla_tokens);
  Track("train-time");
  ItemTip("tokens/s = GPUs x peak x MFU " + FormatFixed(scenario_.mfu, 2) + " / FLOPs per token, x scaling efficiency " +
          FormatFixed(e.scaling_efficiency * 100, 1) + "%\ntime = tokens / tokens/s; GPU-hours = time x " +
          std::to_string(e.gpus) + " GPUs\nChinchilla-optimal = 20 x parameters (Hoffmann et al. 2022)");
  if (e.cloud_usd > 0)
    ImGui::Text("Cloud: $%s on demand%s (%s)", FormatCount(static_cast<long long>(e.cloud_usd)).c_str(),
                e.spot_usd > 0 ? (", $" + FormatCount(static_cast<long long>(e.spot_usd)) + " spot").c_str() : "",
                e.price_basis.c_str());
  ItemTip("on demand = GPU-hours x $/GPU-hour; spot = GPU-hours x spot $/GPU-hour x (1 + " +
          FormatFixed(scenario_.spot_overhead * 100, 0) + "% interruptions)");
  ImGui::Text("Energy: %s kWh, $%s", FormatCount(static_cast<long long>(e.energy_kwh)).c_str(),
              FormatCount(static_cast<long long>(e.energy_usd)).c_str());
  ItemTip("kWh = TDP x GPU-hours x PUE " + FormatFixed(scenario_.pue, 2) + "; $ = kWh x $" +
          FormatFixed(scenario_.kwh_usd, 3) + "/kWh");
  Series s{{}, {}, {}, {}, IM_COL32(90, 150, 240, 255), "tokens/s"};
  Series ideal{{}, {}, {}, {}, IM_COL32(150, 150, 160, 255), "linear"};
  for (const ScalingPoint& p : session_.Scaling()) {
    s.x.push_back(p.gpus);
    s.y.push_back(p.tokens_per_s);
    ideal.x.push_back(p.gpus);
    ideal.y.push_back(session_.Scaling().front().tokens_per_s / session_.Scaling().front().gpus * p.gpus);
  }
  ImGui::Text(
      "Tokens/s against GPUs (data parallel) at a global batch of %s sequences; efficiency %s%% at %d GPUs",
      FormatCount(static_cast<long long>(e.global_batch_tokens / static_cast<double>(scenario_.context))).c_str(),
      session_.Scaling().empty() ? "-" : FormatFixed(session_.Scaling().back().efficiency * 100, 1).c_str(),
      session_.Scaling().empty() ? 0 : session_.Scaling().back().gpus);
  Chart("scaling", {ideal, s}, "GPUs", "tok/s", ImGui::GetFontSize() * 11);
  Track("chart-scaling");
  for (const std::string& w : e.warnings) ImGui::TextColored(Warn(), "! %s", w.c_str());
  if (ImGui::TreeNode("Assumptions")) {
    for (const std::string& a : e.assumptions) ImGui::BulletText("%s", a.c_str());
    ImGui::TreePop();
  }
  ImGui::TextColored(Muted(), "CLI twin:");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", ViewCliCommand(*FindView("train"), session_).c_str());
}

}  // namespace gpuplan::ui
