// web/ui/panel_speed.cpp — the Speed panel: decode and prefill with their terms, tokens/s
// against batch and context (the session's curves), cost per token. It reads the session's
// caches; nothing is recomputed per frame.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app.h"
#include "tables.h"
#include "theme.h"
#include "chart.h"
#include "gpuplan/units.h"

namespace gpuplan::ui {

namespace {


std::string Ms(double s) { return FormatSeconds(s); }

std::string Tps(double v) { return ChartValue(v); }

void StepTable(const char* id, const StepTime& t) {
  if (!ImGui::BeginTable(id, 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("Term");
  ImGui::TableSetupColumn("Time");
  ImGui::TableSetupColumn("How", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  auto row = [](const std::string& name, double s, const std::string& how) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(Ms(s).c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", how.c_str());
  };
  for (const TimeTerm& x : t.terms) row(x.name, x.seconds, x.formula);
  row("Step", t.seconds,
      "max(memory " + Ms(t.memory_s) + ", compute " + Ms(t.compute_s) + ") + serial " + Ms(t.serial_s) + ": " + t.bound +
          "-bound");
  ImGui::EndTable();
}

}  // namespace

void App::DrawSpeed() {
  if (!session_.Fit().ok()) {
    ImGui::TextColored(Warn(), "%s", session_.Fit().error().c_str());
    return;
  }
  if (session_.gpu_probe()) {  // the probe's measured efficiencies instead of the engine's fitted ones
    bool measured = session_.use_measured();
    if (ImGui::Checkbox("Use the loaded GPU probe's efficiencies", &measured)) session_.SetUseMeasured(measured);
    Track("speed-measured");
    ItemTip("gpuplan speed --measured FILE: the probe's read bandwidth and GEMM rate on this GPU in place of the "
            "engine's fitted efficiencies; an upper bound for any engine");
  }
  if (!session_.Speed().ok()) {
    ImGui::TextColored(Warn(), "%s", session_.Speed().error().c_str());
    return;
  }
  const SpeedEstimate& e = session_.Speed().value();
  const Band& b = e.decode_band;
  ImGui::TextWrapped("Decode: %s tok/s per user, %s tok/s in all", Tps(e.tokens_per_s_user).c_str(), Tps(e.tokens_per_s_total).c_str());
  Track("speed-decode");
  {
    std::string tip = "per user = 1 / decode step " + Ms(e.decode.seconds) + "; in all = batch " +
                      std::to_string(scenario_.batch) + " x per user\n";
    for (const TimeTerm& t : e.decode.terms) tip += t.name + ": " + Ms(t.seconds) + " = " + t.formula + "\n";
    ItemTip(tip + "step = max(memory, compute) + serial: " + e.decode.bound + "-bound");
  }
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  ImGui::TextWrapped("band %s-%s per user (%d measurements)", Tps(e.tokens_per_s_user * b.lo).c_str(),
                     Tps(e.tokens_per_s_user * b.hi).c_str(), b.cases);
  ImGui::PopStyleColor();
  if (auto it = e.unknown.find("ttft_s"); it != e.unknown.end())
    ImGui::TextColored(Muted(), "Time to first token and prefill: unknown (%s)", it->second.c_str());
  if (e.ttft_s > 0)
    ImGui::TextWrapped("Time to first token %s (one %s-token prompt); prefill %s tok/s for the batch", Ms(e.ttft_s).c_str(),
                FormatCount(std::min(scenario_.prompt, scenario_.context)).c_str(), Tps(e.prefill_tokens_per_s).c_str());
  if (e.ttft_s > 0) {
    std::string tip = "TTFT = prefill of one prompt " + Ms(e.prefill_one.seconds) + " + one decode step " +
                      Ms(e.decode.seconds) + "\n";
    for (const TimeTerm& t : e.prefill_one.terms) tip += t.name + ": " + Ms(t.seconds) + " = " + t.formula + "\n";
    ItemTip(tip);
  }
  if (CostNow().cloud_per_m_output > 0)
    ImGui::TextWrapped("$%s per 1M output tokens, $%s per 1M input (cloud: %s)", FormatFixed(CostNow().cloud_per_m_output, 3).c_str(),
                FormatFixed(CostNow().cloud_per_m_input, 3).c_str(), CostNow().cloud_basis.c_str());
  if (CostNow().cloud_per_m_output > 0)
    ItemTip("$ per 1M output = $" + FormatFixed(CostNow().cloud_hour, 2) + "/h / (" + Tps(e.tokens_per_s_total) +
            " tok/s x 3,600 s) x 10^6\n$ per 1M input = $" + FormatFixed(CostNow().cloud_hour, 2) + "/h / (" +
            Tps(e.prefill_tokens_per_s) + " prefill tok/s x 3,600 s) x 10^6");
  if (CostNow().owned_per_m_output > 0)
    ImGui::TextWrapped("$%s per 1M output tokens owned (%s, %s years, %s%% busy)", FormatFixed(CostNow().owned_per_m_output, 3).c_str(),
                CostNow().purchase_basis.substr(0, 40).c_str(), FormatFixed(scenario_.years, 1).c_str(),
                FormatFixed(scenario_.utilization * 100, 0).c_str());
  if (CostNow().owned_per_m_output > 0)
    ItemTip("owned $/h = purchase / (years x 8,760 h x utilisation) + energy = $" + FormatFixed(CostNow().owned_hour, 3) +
            "/h\n$ per 1M output = $" + FormatFixed(CostNow().owned_hour, 3) + "/h / (" + Tps(e.tokens_per_s_total) +
            " tok/s x 3,600 s) x 10^6");
  for (const std::string& w : e.warnings) ImGui::TextColored(Warn(), "! %s", w.c_str());

  const float h = ImGui::GetFontSize() * 13;
  auto series = [&](const std::vector<CurvePoint>& pts, bool total, ImU32 color, const char* name) {
    Series s{{}, {}, {}, {}, color, name};
    for (const CurvePoint& p : pts) {
      const double v = total ? p.total : p.per_user;
      s.x.push_back(p.x);
      s.y.push_back(v);
      s.lo.push_back(v * b.lo);
      s.hi.push_back(v * b.hi);
    }
    return s;
  };
  const ImU32 blue = IM_COL32(90, 150, 240, 255), orange = IM_COL32(240, 160, 60, 255);
  ImGui::TextUnformatted("Tokens/s against batch (concurrent sequences)");
  Chart("batch", {series(session_.Curves().batch, true, blue, "all users"), series(session_.Curves().batch, false, orange, "per user")},
        "batch", "tok/s", h);
  Track("chart-batch");
  ImGui::TextUnformatted("Tokens/s per user against context");
  Chart("context", {series(session_.Curves().context, false, orange, "per user")}, "context (tokens)", "tok/s", h);
  Track("chart-context");

  if (ImGui::CollapsingHeader("Decode step: the work shown", ImGuiTreeNodeFlags_DefaultOpen)) StepTable("decode", e.decode);
  if (ImGui::CollapsingHeader("Prefill of the batch")) StepTable("prefill", e.prefill);
  if (ImGui::CollapsingHeader("Cost: the work shown")) {
    if (ImGui::BeginTable("cost", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableSetupColumn("Line");
      ImGui::TableSetupColumn("$ per hour");
      ImGui::TableSetupColumn("How", ImGuiTableColumnFlags_WidthStretch);
      ImGui::TableHeadersRow();
      for (const CostLine& l : CostNow().lines) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(l.name.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(FormatFixed(l.usd, 4).c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", l.formula.c_str());
      }
      ImGui::EndTable();
    }
    if (CostNow().break_even_months > 0)
      ImGui::Text("Buying breaks even after %s months of renting the same busy hours",
                  FormatFixed(CostNow().break_even_months, 1).c_str());
    for (const std::string& w : CostNow().warnings) ImGui::TextColored(Warn(), "! %s", w.c_str());
    for (const std::string& a : CostNow().assumptions) ImGui::BulletText("%s", a.c_str());
  }
  if (ImGui::TreeNode("Assumptions")) {
    for (const std::string& a : e.assumptions) ImGui::BulletText("%s", a.c_str());
    ImGui::TreePop();
  }
  ImGui::TextColored(Muted(), "CLI twin:");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", ViewCliCommand(*FindView("speed"), session_).c_str());
}

}  // namespace gpuplan::ui
