// gpuplan/rack.h — GPUs in servers, servers in racks: the power a rack may draw under its
// cooling (air about 20 kW, as the seeds put the liquid-cooling threshold; a rear-door heat
// exchanger; direct-to-chip liquid), the host power of the platform, the racks needed, the
// cooling's PUE, a throttling derate for dense air-cooled racks, and the three coolings side
// by side with what liquid may cost before it stops paying for itself.
#pragma once

#include <string>
#include <vector>

#include "gpuplan/catalog.h"
#include "gpuplan/scenario.h"

namespace gpuplan {

// One cooling type's layout of the same servers.
struct RackOption {
  std::string cooling;             // air, rear-door, liquid
  double rack_limit_w = 0;         // what one rack may draw
  long long servers_per_rack = 0;  // 0: one server draws more than a rack may
  long long racks = 0;
  double pue = 0;
  double facility_w = 0;        // the IT power × PUE
  double energy_usd_month = 0;  // facility power over the busy hours of a month
};

struct RackPlan {
  std::string cooling;  // the scenario's: air, rear-door or liquid
  long long gpus = 0, gpus_per_server = 0, servers = 0;
  double gpu_w = 0;                  // one GPU's TDP
  double host_w = 0;                 // one full server's power besides its GPUs
  std::string platform, host_basis;  // the platform the host power is read from, and its source
  double server_w = 0;               // a full server: GPUs + host
  double it_w = 0;                   // every server: what the racks draw
  RackOption chosen;                 // the scenario's cooling
  std::string rack_basis, pue_basis;
  double rack_w = 0;                // the fullest rack's draw
  double throttle = 0;              // throughput lost (0 unless air-cooled above 15 kW a rack)
  std::vector<RackOption> options;  // air, rear-door, liquid, for the comparison
  // Liquid against air: the energy saved a month, and the extra cost per kW of IT load that the
  // saving pays back within the years of ownership (0: it saves nothing).
  double liquid_saving_usd_month = 0, liquid_break_even_usd_per_kw = 0;
  std::vector<std::string> warnings, assumptions;
};

// The rack plan of the scenario's GPUs (s.Gpus(), or the training run's when `gpus` > 0);
// nullopt-like: plan.cooling empty when s.cooling is "none". `busy_hours_month` and the
// scenario's $/kWh price the energy.
RackPlan PlanRack(const Gpu& gpu, const Scenario& s, long long gpus, double busy_hours_month);

}  // namespace gpuplan
