#include "gpuplan/rack.h"

#include <algorithm>
#include <cmath>

#include "gpuplan/i18n.h"
#include "gpuplan/units.h"

namespace gpuplan {
namespace {

// A server platform: GPUs per box and the box's power besides them (CPUs, memory, NICs,
// switches, fans, power-supply losses), read as the system's maximum less its GPUs' TDP.
// Sources read 2026-12-03.
struct Platform {
  const char* name;
  int gpus;
  double host_w;
  const char* basis;
};

// NVIDIA DGX A100: "6.5 kW max" (DGX A100 User Guide; as reported by pcnews.ru, 2020) - 8 × 400 W.
constexpr Platform kDgxA100{"DGX A100 (8 × SXM4)", 8, 6500 - 8 * 400,
                            N_("DGX A100: 6.5 kW max less 8 × 400 W GPUs (DGX A100 User Guide, via pcnews.ru 2020)")};
// NVIDIA DGX H100/H200: "~10.2 kW max" (as quoted by supercluster.blog "AI Supercluster: NVIDIA DGX
// Power, Cooling" and unanswered.io's DGX power guide) - 8 × 700 W.
constexpr Platform kDgxH100{"DGX H100/H200 (8 × SXM5)", 8, 10200 - 8 * 700,
                            N_("DGX H100/H200: 10.2 kW max less 8 × 700 W GPUs (as quoted by supercluster.blog)")};
// NVIDIA DGX B200: "14.3 kW max" (NVIDIA, Introduction to NVIDIA DGX B200 Systems, DGX B200 User
// Guide) - 8 × 1,000 W.
constexpr Platform kDgxB200{"DGX B200 (8 × SXM6)", 8, 14300 - 8 * 1000,
                            N_("DGX B200: 14.3 kW max less 8 × 1,000 W GPUs (NVIDIA DGX B200 User Guide)")};
// An 8-GPU PCIe server: Supermicro SYS-521GE-TNRT with 8 × L40S draws 4.3-5 kW (ServeTheHome,
// "NVIDIA L40S is the NVIDIA H100 AI alternative", 2023) - 8 × 350 W.
constexpr Platform kPcie8{N_("8-GPU PCIe server"), 8, 5000 - 8 * 350,
                          N_("8-GPU PCIe server: 5 kW (top of 4.3-5 kW, Supermicro SYS-521GE-TNRT with 8 × L40S, "
                             "ServeTheHome 2023) less 8 × 350 W GPUs")};
// A 4-GPU workstation: 1,717 W peak at the wall with 4 × RTX 3090 held to 300 W (Puget Systems'
// test, as reported by TheFPSReview, 2020-10) - 4 × 300 W.
constexpr Platform kWorkstation4{
    N_("4-GPU workstation"), 4, 1717 - 4 * 300,
    N_("4-GPU workstation: 1,717 W peak at the wall with 4 × 300 W GPUs (Puget Systems via "
       "TheFPSReview 2020-10)")};
// GB200 NVL72: about 120 kW a rack for 72 GPUs (Introl, "GB200 NVL72 Deployment", 2025); a compute
// tray holds 4 GPUs (2 superchips); 72 × 1,200 W of GPUs leave 33.6 kW for Grace CPUs, switches
// and fans: 1.87 kW a tray.
constexpr Platform kNvl72{N_("GB200/GB300 NVL72 compute tray"), 4, (120000.0 - 72 * 1200) / 18,
                          N_("NVL72: about 120 kW a rack less 72 × 1,200 W GPUs, over 18 trays (Introl 2025)")};

bool Has(const std::string& text, const char* part) {
  return text.find(part) != std::string::npos;
}

Platform PlatformOf(const Gpu& g, bool* known) {
  *known = true;
  const std::string& f = g.form_factor;
  if (Has(f, "NVL72") || Has(f, "Superchip")) return kNvl72;
  if (Has(f, "SXM") || Has(f, "OAM")) {
    if (Has(g.id, "a100")) return kDgxA100;
    if (Has(g.id, "b100") || Has(g.id, "b200") || Has(g.id, "b300")) return kDgxB200;
    return kDgxH100;  // H100/H200/H20 and the OAM boards of the same class (MI300X, Gaudi)
  }
  if (Has(f, "PCIe")) return Has(g.name, "GeForce") || Has(g.name, "Radeon RX") ? kWorkstation4 : kPcie8;
  *known = false;
  return kPcie8;
}

// The rack a cooling type takes, and the room's PUE with it.
struct Cooling {
  const char* id;
  double rack_w;
  const char* rack_basis;
  double pue;
  const char* pue_basis;
};
constexpr Cooling kCoolings[] = {
    // Air: the seeds put the liquid-cooling threshold at 20 kW a rack (gpu-server-selection-sdpa-era,
    // "液冷導入の損益分岐点（20kW/rack）"); Uptime Institute's 2023 survey: "Most operators do not have
    // any racks beyond 20 kW". PUE: Uptime's 2023 industry average, 1.58 (mostly air-cooled rooms).
    {"air", 20000,
     N_("air: 20 kW a rack (the seeds' threshold for liquid; Uptime Institute 2023: most operators have no rack "
        "beyond 20 kW)"),
     1.58, N_("air: 1.58, Uptime Institute's 2023 industry average")},
    // A rear-door heat exchanger: 35-55 kW a rack in its middle capacity band (HPE/Motivair
    // liquid-cooled doors, as listed by Coolnet 2025). PUE: 1.3, what Uptime's 2024 survey reports for
    // new and large facilities (via cloudnews.tech) - a room built for it, not a cited rear-door figure.
    {"rear-door", 55000,
     N_("rear-door: 55 kW a rack (top of the 35-55 kW band of liquid-cooled rear doors, HPE/Motivair via Coolnet)"),
     1.3, N_("rear-door: 1.3, new and large facilities in Uptime Institute's 2024 survey (stated assumption)")},
    // Direct-to-chip liquid: 50-120 kW a rack (NCP-AII guide, flashgenius.net); NVL72 racks draw about
    // 120 kW. PUE: 1.1-1.2 for fully liquid-cooled and hyperscale rooms (globalheadofdatacenterenergy.news,
    // flashgenius.net): 1.15.
    {"liquid", 120000, N_("liquid: 120 kW a rack (direct to chip, 50-120 kW; NVL72 racks draw about 120 kW)"), 1.15,
     N_("liquid: 1.15, the middle of 1.1-1.2 reported for fully liquid-cooled and hyperscale rooms")},
};

// Air-cooled racks beyond 10-15 kW are past what mainstream rooms support (refrigerationandaircon.co.za,
// "Pushing the boundaries of air cooling in high-density environments"): the throttling derate applies
// above 15 kW.
constexpr double kDenseAirW = 15000;

}  // namespace

RackPlan PlanRack(const Gpu& gpu, const Scenario& s, long long gpus, double busy_hours_month) {
  RackPlan p;
  if (s.cooling == "none" || gpus <= 0) return p;
  p.cooling = s.cooling;
  p.gpus = gpus;
  p.gpu_w = gpu.tdp_w;
  bool known = true;
  const Platform platform = PlatformOf(gpu, &known);
  p.platform = platform.name;
  p.gpus_per_server = s.gpus_per_server > 0 ? s.gpus_per_server : platform.gpus;
  // The host scales with the box: a server of half the GPUs has about half the platform's host.
  p.host_w =
      s.host_kw > 0 ? s.host_kw * 1000 : platform.host_w * static_cast<double>(p.gpus_per_server) / platform.gpus;
  p.host_basis =
      s.host_kw > 0 ? TrF("given: {0} kW a server", {FormatShort(s.host_kw, 2)}) : std::string(Tr(platform.basis));
  if (!known && s.host_kw <= 0)
    p.warnings.push_back(
        TrF("no server platform is known for {0}: the host power is an 8-GPU PCIe server's; set host-kw", {gpu.name}));
  p.servers = (gpus + p.gpus_per_server - 1) / p.gpus_per_server;
  p.server_w = static_cast<double>(p.gpus_per_server) * p.gpu_w + p.host_w;
  p.it_w = static_cast<double>(gpus) * p.gpu_w + static_cast<double>(p.servers) * p.host_w;
  const double years_months = std::max(1.0, s.years * 12);
  for (const Cooling& c : kCoolings) {
    RackOption o;
    o.cooling = c.id;
    o.rack_limit_w = (s.rack_kw > 0 && c.id == s.cooling) ? s.rack_kw * 1000 : c.rack_w;
    // A server of no known power (a GPU without a TDP in the catalog) fills no rack: unknown, not infinite.
    o.servers_per_rack =
        p.server_w >= 1 ? static_cast<long long>(std::min(1e6, std::floor(o.rack_limit_w / p.server_w))) : 0;
    o.racks = o.servers_per_rack > 0 ? (p.servers + o.servers_per_rack - 1) / o.servers_per_rack : 0;
    o.pue = (s.rack_pue >= 1 && c.id == s.cooling) ? s.rack_pue : c.pue;
    o.facility_w = p.it_w * o.pue;
    o.energy_usd_month = o.facility_w / 1000 * s.kwh_usd * busy_hours_month;
    if (c.id == s.cooling) {
      p.chosen = o;
      p.rack_basis =
          s.rack_kw > 0 ? TrF("given: {0} kW a rack", {FormatShort(s.rack_kw, 1)}) : std::string(Tr(c.rack_basis));
      p.pue_basis =
          s.rack_pue >= 1 ? TrF("given: PUE {0}", {FormatShort(s.rack_pue, 2)}) : std::string(Tr(c.pue_basis));
    }
    p.options.push_back(o);
  }
  if (s.rack_pue > 0 && s.rack_pue < 1)
    p.warnings.push_back(
        TrF("rack-pue {0} is below 1 (a room cannot use less than its IT load): the cooling's PUE is used",
            {FormatShort(s.rack_pue, 2)}));
  const RackOption& c = p.chosen;
  if (p.server_w < 1)
    p.warnings.push_back(
        TrF("{0} has no board power in the catalog: its servers cannot be placed in racks", {gpu.name}));
  else if (c.servers_per_rack == 0)
    p.warnings.push_back(
        TrF("one server draws {0} kW, more than the {1} kW a {2} rack takes: this cooling cannot hold it",
            {FormatFixed(p.server_w / 1000, 1), FormatFixed(c.rack_limit_w / 1000, 0), c.cooling}));
  p.rack_w = std::min<double>(static_cast<double>(p.servers), static_cast<double>(std::max(c.servers_per_rack, 1LL))) *
             p.server_w;
  if (s.cooling == "air" && p.rack_w > kDenseAirW) {
    p.throttle = s.throttle;
    p.assumptions.push_back(
        TrF("an air-cooled rack of {0} kW (above 15 kW, past what mainstream rooms support) loses {1}% of "
            "its throughput to thermal throttling (stated assumption: reports give 15-30% for power and "
            "thermal throttling; NVIDIA's hardware slowdown halves the clock; set throttle)",
            {FormatFixed(p.rack_w / 1000, 1), FormatFixed(s.throttle * 100, 0)}));
  }
  const RackOption& air = p.options[0];
  const RackOption& liquid = p.options[2];
  p.liquid_saving_usd_month = std::max(0.0, air.energy_usd_month - liquid.energy_usd_month);
  p.liquid_break_even_usd_per_kw = p.it_w > 0 ? p.liquid_saving_usd_month * years_months / (p.it_w / 1000) : 0;
  p.assumptions.push_back(
      Tr("host power is the platform's maximum less its GPUs' TDP: a ceiling to provision racks for; "
         "under load servers draw less"));
  return p;
}

}  // namespace gpuplan
