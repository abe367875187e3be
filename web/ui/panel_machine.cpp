// web/ui/panel_machine.cpp — the "This machine" panel: measures the CPU the page (or the
// native window) runs on — FMA peak, the reference SGEMM, STREAM, the cache levels — and shows
// a loaded GPU probe result against the catalog. Both join the Roofline chart. The numbers are
// the ones `gpuplan probe cpu` and `gpuplan probe compare` print.
#include <algorithm>

#include <imgui.h>

#include "app.h"
#include "chart.h"
#include "gpuplan/i18n.h"
#include "gpuplan/units.h"
#include "tables.h"
#include "theme.h"

namespace gpuplan::ui {


void App::DrawMachine() {
  // A measurement asked for runs a few frames later, after a frame that says so was drawn: the
  // single-threaded page cannot draw while it measures. Where the host has a threaded probe
  // (the page when cross-origin isolated) that one runs instead, and its result comes back
  // through ImportText.
  if (machine_pending_ > 0 && ++machine_wait_frames_ > 2) {
    const bool quick = machine_pending_ == 1;
    machine_pending_ = 0;
    machine_threads_ = threaded_probe_ ? threaded_probe_(quick) : 0;
    // Or on this thread, where the host measures in process (the native window); the page's own
    // module carries no measuring code, so it has no such service (HostServices).
    if (machine_threads_ == 0 && host_.measure_cpu) {
      Result<CpuProbeResult> m = host_.measure_cpu(quick);
      if (m.ok()) {
        session_.SetCpuProbe(std::move(m.value()));
        machine_message_.clear();
      } else {
        machine_message_ = m.error();
      }
    } else if (machine_threads_ == 0) {
      machine_message_ = Tr("the page's probe module is not available here");
    }
  }
  ImGui::TextUnformatted(Tr("This computer's CPU"));
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  Paragraph(!threaded_probe_ ? Tr("Measured here, in this process. Results join the Roofline tab.")
                             : Tr("Measured here, in this browser tab (WebAssembly; on every core where the page is "
                                  "cross-origin isolated, else on one thread). Results join the Roofline tab."));
  ImGui::PopStyleColor();
  if (machine_pending_ > 0) {
    ImGui::TextUnformatted(Tr("Measuring... the page does not respond until it is done."));
  } else if (machine_threads_ > 0) {
    ImGui::TextUnformatted(
        TrF("Measuring on {0} thread(s) in the page's probe module...", {std::to_string(machine_threads_)}).c_str());
  } else {
    if (ImGui::Button((std::string(Tr("Measure (quick, ~2 s)")) + "###quick").c_str()))
      machine_pending_ = 1, machine_wait_frames_ = 0;
    Track("machine-quick");
    ImGui::SameLine();
    if (ImGui::Button((std::string(Tr("Measure (full, ~20 s)")) + "###full").c_str()))
      machine_pending_ = 2, machine_wait_frames_ = 0;
    Track("machine-full");
    if (session_.cpu_probe()) {
      ImGui::SameLine();
      if (ImGui::Button((std::string(Tr("Copy JSON")) + "###copy").c_str()))
        ImGui::SetClipboardText(CpuProbeToJson(*session_.cpu_probe()).c_str());
      Track("machine-copy");
    }
  }
  if (!machine_message_.empty()) ImGui::TextColored(Bad(), "%s", machine_message_.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, Muted());
  Paragraph(
      Tr("Drop a probe file here (gpuplan probe cpu --out cpu.json, gpuplan probe gpu --out gpu.json) to load it."));
  ImGui::PopStyleColor();
  // The rows `gpuplan probe cpu` and `gpuplan probe compare` print: the CPU measured here (or
  // loaded), a loaded GPU probe against its catalog entry.
  if (session_.cpu_probe() || session_.gpu_probe()) {
    DrawReport(*FindView("machine"), false);
    Track("machine-table");
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, Muted());
    Paragraph(
        Tr("No measurement yet. A GPU: run `gpuplan probe gpu --out gpu.json` on its machine and drop the file here."));
    ImGui::PopStyleColor();
  }
  if (session_.cpu_probe() && !session_.cpu_probe()->sweep.empty()) {
    Series bw{{}, {}, {}, {}, IM_COL32(90, 150, 240, 255), Tr("read GB/s"), {}};
    for (const SweepPoint& sp : session_.cpu_probe()->sweep) {
      bw.x.push_back(sp.size_bytes);
      bw.y.push_back(sp.bytes_per_s / 1e9);
    }
    Paragraph(Tr("Read bandwidth against the working set (bytes): the steps are the cache levels"));
    Chart("sweep", {bw}, Tr("working set"), "GB/s", ImGui::GetFontSize() * 10);
    Track("chart-sweep");
  }
  if (session_.gpu_probe()) Track("machine-gpu");
}

}  // namespace gpuplan::ui
