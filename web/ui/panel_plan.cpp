// web/ui/panel_plan.cpp — the Plan panel: the inverse search (plan.h) for the scenario's model and
// the workload and SLA typed here. The search runs between frames (RankNow, a slice per task)
// with a progress bar; the Pareto set of cost against p90 TPOT is plotted as the rows come in,
// and a setup opens in the Serve panel at its share of the load.
#include <imgui.h>

#include "app.h"
#include "chart.h"
#include "gpuplan/i18n.h"
#include "gpuplan/plan.h"
#include "gpuplan/units.h"
#include "tables.h"
#include "theme.h"

namespace gpuplan::ui {

void App::DrawPlan(const View& v) {
  static const char* const kOptions[] = {"rate", "clients", "requests",     "lengths",   "ttft-sla", "tpot-sla",
                                         "by",   "vendor",  "max-usd-hour", "max-watts", "max-gpus"};
  OptionFields(kOptions, std::size(kOptions), "plan-");
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  Paragraph(
      Tr("(rate 0 = a closed loop of the clients; SLA, budget and power cap 0 = no limit.) The GPU, count, layout, "
         "engine and formats are what the plan searches; the model is the scenario's."));
  ImGui::PopStyleColor();
  const PlanSearch& search = defer_ranking_ ? session_.PlanShown() : session_.Plan();
  if (!search.done()) {
    plan_wanted_ = true;
    ImGui::ProgressBar(static_cast<float>(search.progress()), ImVec2(-1, 0), search.stage().c_str());
    Track("plan-progress");
  }
  if (!search.result()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Bad());
    Paragraph(search.result().error());
    ImGui::PopStyleColor();
    return;
  }
  const PlanResult& res = *search.result();
  const PlanQuery& q = search.query();

  // Cost against p90 TPOT: each setup replayed so far; those within the SLA filled, the Pareto
  // set joined; the TPOT target as a line.
  std::vector<ScatterPoint> points;
  for (const PlanRow& row : res.rows) {
    if (!(row.usd_per_m_output > 0) || !(row.run.tpot_s.p90 > 0)) continue;
    ScatterPoint p;
    p.x = row.run.tpot_s.p90 * 1000, p.y = row.usd_per_m_output;
    p.color = row.pareto  ? IM_COL32(60, 170, 90, 255)
              : row.meets ? IM_COL32(90, 150, 240, 255)
                          : IM_COL32(150, 150, 160, 255);
    p.hollow = !row.meets, p.linked = row.pareto;
    p.label = PlanRowText(*catalog_, row) + "\n" +
              TrF("{0} per 1M output tokens, TPOT p90 {1}, TTFT p90 {2}",
                  {FormatUsd(row.usd_per_m_output, 3), FormatSeconds(row.run.tpot_s.p90),
                   FormatSeconds(row.run.ttft_s.p90)}) +
              "\n" +
              (row.meets ? std::string(row.pareto ? Tr("meets the SLA (Pareto)") : Tr("meets the SLA")) : row.binding);
    points.push_back(std::move(p));
  }
  const char* measure = q.by == "cloud"  ? Tr("$ per 1M output tokens, on demand")
                        : q.by == "spot" ? Tr("$ per 1M output tokens, spot")
                                         : Tr("$ per 1M output tokens, owned");
  Paragraph(search.done() ? Tr("Cost against latency: green, the Pareto set; blue, within the SLA; hollow, not")
                          : Tr("Cost against latency (the setups replayed so far)"));
  Scatter("plan-pareto", points, "TPOT p90 ms", measure, ImGui::GetFontSize() * 12, q.tpot_p90_s * 1000);
  Track("chart-plan");
  if (!search.done()) {
    ImGui::TextColored(Muted(), "%s", TrF("{0} setups replayed so far", {std::to_string(res.rows.size())}).c_str());
    return;
  }
  // The cheapest few that meet the SLA, each a button that opens it in the Serve panel at one
  // replica's share of the load.
  int shown = 0;
  for (const PlanRow& row : res.rows) {
    if (!row.meets || shown == 4) continue;
    if (shown == 0) Paragraph(Tr("The cheapest within the SLA; Serve opens one replica at its share of the load:"));
    ImGui::PushID(shown);
    const bool clicked = ImGui::SmallButton((std::string(Tr("Serve")) + "###serve-row").c_str());
    ItemTip(Tr("Sets the scenario's GPU, count, layout, engine and formats to this setup and opens Serve"));
    Track(("plan-use-" + std::to_string(shown)).c_str());
    ImGui::SameLine();
    Paragraph(PlanRowText(*catalog_, row) + ": " + TrF("{0}/h on demand", {FormatUsd(row.usd_hour, 2)}));
    if (clicked) {
      for (const auto& [key, value] : PlanRowFields(q, row)) Edit(key, value);
      requested_tab_ = "serve";
    }
    ImGui::PopID();
    ++shown;
  }
  DrawReport(v, CachedReport(v), false);
}

}  // namespace gpuplan::ui
